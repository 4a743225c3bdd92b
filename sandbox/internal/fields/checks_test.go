package fields

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// TestSharedFieldKeyChecks: the dropdown and hyperlink checks signature
// requests and templates share, by the error_path they answer ("" for
// none).
func TestSharedFieldKeyChecks(t *testing.T) {
	at := Path("form_fields_per_document[2]")
	pathOf := func(e *apierr.Error) string {
		if e == nil {
			return ""
		}
		return e.Path
	}
	cases := []struct {
		name string
		e    *apierr.Error
		want string
	}{
		{"no options", CheckDropdownKeys(at, nil, ""), "form_fields_per_document[2][options]"},
		{"blank option", CheckDropdownKeys(at, []string{"a", "\t"}, ""), "form_fields_per_document[2][options][1]"},
		{"content not an option", CheckDropdownKeys(at, []string{"a"}, "b"), "form_fields_per_document[2][content]"},
		{"good dropdown", CheckDropdownKeys(at, []string{"a", "b"}, "b"), ""},
		{"blank link text", CheckHyperlinkKeys(at, " ", "https://example.com"), "form_fields_per_document[2][content]"},
		{"no link target", CheckHyperlinkKeys(at, "Terms", ""), "form_fields_per_document[2][content_url]"},
		{"relative link target", CheckHyperlinkKeys(at, "Terms", "/terms"), "form_fields_per_document[2][content_url]"},
		{"no scheme", CheckHyperlinkKeys(at, "Terms", "example.com/terms"), "form_fields_per_document[2][content_url]"},
		{"good link", CheckHyperlinkKeys(at, "Terms", "https://example.com/terms"), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, pathOf(tc.e)) })
	}
}
