package param

import "github.com/signsandbox/signsandbox/sandbox/internal/apierr"

// Blank is the official answer for an empty required value.
func Blank(path string) *apierr.Error {
	return apierr.Badf(path, "This value should not be blank")
}

// Deref is the value of an optional string parameter ("" when absent).
func Deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// FillBlank sets *dst to v unless it already has a value.
func FillBlank(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}
