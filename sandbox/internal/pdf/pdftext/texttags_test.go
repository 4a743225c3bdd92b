package pdftext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTextTag(t *testing.T) {
	cases := []struct {
		in   string
		want TextTag
	}{
		{"[sig|req|signer1]", TextTag{Type: "sig", FieldType: "signature", Required: true, Signer: 1}},
		{"[text|noreq|signer2|Label|UniqueId]", TextTag{Type: "text", FieldType: "text", Signer: 2, Label: "Label", ID: "UniqueId"}},
		{"[text|req|signer1|Label|UniqueId|letters_only|firstName]", TextTag{Type: "text", FieldType: "text", Required: true, Signer: 1,
			Label: "Label", ID: "UniqueId", Validation: "letters_only", AutoFill: "firstName"}},
		// Label, id and validation skipped by leaving their slots empty.
		{"[text|req|signer1||||firstName]", TextTag{Type: "text", FieldType: "text", Required: true, Signer: 1, AutoFill: "firstName"}},
		{"[text|req|signer1|||email_address]", TextTag{Type: "text", FieldType: "text", Required: true, Signer: 1, Validation: "email_address"}},
		{"[text|req|signer1||id_only]", TextTag{Type: "text", FieldType: "text", Required: true, Signer: 1, ID: "id_only"}},
		{"[check|noreq|signer3]", TextTag{Type: "check", FieldType: "checkbox", Signer: 3}},
		{"[date|req|signer1]", TextTag{Type: "date", FieldType: "date_signed", Required: true, Signer: 1}},
		{"[initial|req|signer12]", TextTag{Type: "initial", FieldType: "initials", Required: true, Signer: 12}},
		{"[text-merge|req|sender|firstname|firstname_api_id]", TextTag{Type: "text-merge", FieldType: "text-merge", Required: true,
			Label: "firstname", ID: "firstname_api_id"}},
		{"[checkbox-merge|req|signer1|is_registered|product_id]", TextTag{Type: "checkbox-merge", FieldType: "checkbox-merge",
			Required: true, Signer: 1, Label: "is_registered", ID: "product_id"}},
		// The requirement defaults to req when it is not understood.
		{"[sig|optional|signer1]", TextTag{Type: "sig", FieldType: "signature", Required: true, Signer: 1}},
		{"[sig||signer1]", TextTag{Type: "sig", FieldType: "signature", Required: true, Signer: 1}},
		// Parts are trimmed; type, requirement and signer ignore case.
		{"[ SIG | NoReq | Signer2 | My label ]", TextTag{Type: "sig", FieldType: "signature", Signer: 2, Label: "My label"}},
		// A validation type on a field that has none is kept, not refused.
		{"[sig|req|signer1|||numbers_only]", TextTag{Type: "sig", FieldType: "signature", Required: true, Signer: 1, Validation: "numbers_only"}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseTextTag(c.in)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestParseTextTagRefusals(t *testing.T) {
	cases := []struct{ in, msg string }{
		{"[sig|req]", "at least a type, a requirement and a signer"},
		{"[a|b|c|d|e|f|g|h]", "at most 7 parts"},
		{"[signature|req|signer1]", `unknown type "signature"`},
		{"[checkbox|req|signer1]", `unknown type "checkbox"`},
		{"[radio|req|signer1]", `unknown type "radio"`},
		{"[|req|signer1]", "the type is missing"},
		{"[sig|req|]", "the signer is missing"},
		{"[sig|req|signer0]", `"signer0" is not signerN`},
		{"[sig|req|signer-1]", `"signer-1" is not signerN`},
		{"[sig|req|signer+1]", `"signer+1" is not signerN`},
		{"[sig|req|signerX]", `"signerX" is not signerN`},
		{"[sig|req|signer]", `"signer" is not signerN`},
		{"[sig|req|bob]", `"bob" is not signerN`},
		{"[sig|req|sender]", "only text-merge and checkbox-merge"},
		{"[text|req|signer1|||alphanumeric]", `unknown validation type "alphanumeric"`},
		{"[text|req|signer1|||custom_regex]", "custom_regex cannot be used"},
		{"[text|req|signer1||||nickname]", `unknown auto-fill type "nickname"`},
		{"[date|req|signer1||||email]", "only be given to text tags"},
		{"sig|req|signer1", "in square brackets"},
		{"[sig req signer1]", "in square brackets"},
		{"[[sig|req|signer1]", "in square brackets"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			_, err := ParseTextTag(c.in)
			require.Error(t, err)
			var te *TextTagError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, c.in, te.Tag)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
}

func TestLooksLikeTextTag(t *testing.T) {
	for s, want := range map[string]bool{
		"[sig|req|signer1]": true, "[a|b]": true, "[|]": true,
		"[1]": false, "[]": false, "[ab": false, "ab]": false, "[a[b|c]": false, "[a|b\nc]": false,
		"[" + strings.Repeat("x|", 300) + "]": false,
	} {
		assert.Equal(t, want, LooksLikeTextTag(s), s)
	}
}

func TestTextTagString(t *testing.T) {
	for _, in := range []string{"[sig|req|signer1]", "[text|noreq|signer2|Label|UniqueId|letters_only|firstName]",
		"[text-merge|req|sender|firstname]", "[text|req|signer1||||email]"} {
		tag, err := ParseTextTag(in)
		require.NoError(t, err)
		assert.Equal(t, in, tag.String())
	}
}

// FuzzTextTags: the parser never panics, accepts only what looks like a
// tag, and what it accepts writes back (String) to a tag that parses to
// the same thing.
func FuzzTextTags(f *testing.F) {
	for _, s := range []string{"[sig|req|signer1]", "[text|noreq|signer2|Label|UniqueId|letters_only|firstName]",
		"[text|req|signer1||||firstName]", "[text-merge|req|sender|name]", "[check|x|signer99]", "[|||]", "[a|b|c|d|e|f|g|h]",
		"[ SIG | NOREQ | SIGNER3 ]", "[sig|req|signer01]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tag, err := ParseTextTag(s)
		if err != nil {
			return
		}
		if !LooksLikeTextTag(s) {
			t.Fatalf("accepted %q, which does not look like a tag", s)
		}
		if tag.FieldType == "" || tag.Signer == 0 && !tag.Merge() {
			t.Fatalf("incomplete tag from %q: %+v", s, tag)
		}
		if len(tag.String()) > maxTextTagLen {
			return // the canonical form of a tag at the length limit may be longer
		}
		again, err := ParseTextTag(tag.String())
		if err != nil {
			t.Fatalf("%q parsed to %+v whose String %q does not parse: %v", s, tag, tag.String(), err)
		}
		if again != tag {
			t.Fatalf("%q: %+v written as %q reads back as %+v", s, tag, tag.String(), again)
		}
	})
}
