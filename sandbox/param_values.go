package sandbox

import "github.com/signsandbox/signsandbox/sandbox/internal/apierr"

// blank is the official answer for an empty required value.
func blank(path string) *apierr.Error {
	return apierr.Badf(path, "This value should not be blank")
}

// deref is the value of an optional string parameter ("" when absent).
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
