package pdftext

// Text tags are form fields written into a document's text, in the form
//
//	[type|requirement|signer|label|id|validation_type|auto_fill_type]
//
// The first three parts are needed; the others may be left out or left
// empty ([text|req|signer1||||firstName]). This file reads one tag's text;
// finding tags in a PDF is textextract.go's job, turning them into the
// request's form fields the sandbox package's.
//
// What the official walkthrough and reference pages state, and so what the
// parser does:
//   - types: text, check, date, initial, sig, text-merge, checkbox-merge;
//   - requirement: req or noreq, and anything else counts as req ("defaults
//     to req if the entry is not understood");
//   - signer: signerN, the N-th signer of the request (1-based); merge
//     fields may also name "sender" (filled only from custom_fields);
//   - validation_type and auto_fill_type take the values of the form field
//     parameters of the same names.
//
// Choices where the documentation says nothing: parts are trimmed and the
// type, requirement and signer are read without regard to case; a tag with
// fewer than three or more than seven parts, an unknown type, a signer that
// is not signerN (N from 1) or sender, an unknown validation or auto-fill
// type, custom_regex (a tag cannot carry the expression) and an auto-fill
// type on a field that is not a text field are malformed.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Types a text tag may have, and the form field types they stand for.
var textTagTypes = map[string]string{
	"text":           "text",
	"check":          "checkbox",
	"date":           "date_signed",
	"initial":        "initials",
	"sig":            "signature",
	"text-merge":     "text-merge",
	"checkbox-merge": "checkbox-merge",
}

// textTagTypeOrder lists the tag types for messages.
var textTagTypeOrder = []string{"text", "check", "date", "initial", "sig", "text-merge", "checkbox-merge"}

// TextTagValidationTypes are the validation types a tag may name (those of
// form fields but custom_regex, whose expression a tag cannot carry).
var TextTagValidationTypes = []string{"numbers_only", "letters_only", "phone_number", "bank_routing_number",
	"bank_account_number", "email_address", "zip_code", "social_security_number", "employer_identification_number"}

// TextTagAutoFillTypes are the auto-fill types a tag may name.
var TextTagAutoFillTypes = []string{"firstName", "lastName", "name", "email", "company", "title"}

// maxTextTagLen bounds the text of one tag: longer bracketed text is not
// taken for a tag.
const maxTextTagLen = 512

// TextTag is one parsed tag.
type TextTag struct {
	// Type is the tag type as written (lower case): text, check, date,
	// initial, sig, text-merge or checkbox-merge.
	Type string
	// FieldType is the form field type it becomes (text, checkbox,
	// date_signed, initials, signature, text-merge, checkbox-merge).
	FieldType string
	Required  bool
	// Signer is the 1-based signer number; 0 when the tag names the sender.
	Signer int
	Label  string
	ID     string
	// Validation and AutoFill are validation_type and auto_fill_type.
	Validation string
	AutoFill   string
}

// Merge reports whether the tag is a merge field (filled from
// custom_fields).
func (t TextTag) Merge() bool { return t.Type == "text-merge" || t.Type == "checkbox-merge" }

// String writes the tag back in its canonical form (trailing empty parts
// left out).
func (t TextTag) String() string {
	req := "req"
	if !t.Required {
		req = "noreq"
	}
	signer := "sender"
	if t.Signer > 0 {
		signer = "signer" + strconv.Itoa(t.Signer)
	}
	parts := []string{t.Type, req, signer, t.Label, t.ID, t.Validation, t.AutoFill}
	n := len(parts)
	for n > 3 && parts[n-1] == "" {
		n--
	}
	return "[" + strings.Join(parts[:n], "|") + "]"
}

// TextTagError says why a tag is malformed.
type TextTagError struct {
	Tag string // the tag as found
	Msg string
}

func (e *TextTagError) Error() string { return fmt.Sprintf("invalid text tag %s: %s", e.Tag, e.Msg) }

// LooksLikeTextTag reports whether bracketed text is meant as a tag: it is
// enclosed in one pair of square brackets and has a | inside. Such text is
// parsed (and refused when malformed); other bracketed text is ordinary
// document text.
func LooksLikeTextTag(s string) bool {
	if len(s) < 3 || len(s) > maxTextTagLen || s[0] != '[' || s[len(s)-1] != ']' {
		return false
	}
	inner := s[1 : len(s)-1]
	return strings.Contains(inner, "|") && !strings.ContainsAny(inner, "[]\n")
}

// ParseTextTag reads one tag, brackets included. The signer number is not
// checked against the request's signers here (the caller knows them).
func ParseTextTag(s string) (TextTag, error) {
	bad := func(format string, args ...any) (TextTag, error) {
		return TextTag{}, &TextTagError{Tag: s, Msg: fmt.Sprintf(format, args...)}
	}
	if !LooksLikeTextTag(s) {
		return bad("a text tag is [type|requirement|signer...] in square brackets")
	}
	parts := strings.Split(s[1:len(s)-1], "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if len(parts) < 3 {
		return bad("a text tag needs at least a type, a requirement and a signer ([type|req|signer1])")
	}
	if len(parts) > 7 {
		return bad("a text tag has at most 7 parts (type, requirement, signer, label, id, validation type, auto-fill type); this one has %d", len(parts))
	}
	for len(parts) < 7 {
		parts = append(parts, "")
	}
	t := TextTag{Type: strings.ToLower(parts[0]), Label: parts[3], ID: parts[4], Validation: parts[5], AutoFill: parts[6]}
	ft, ok := textTagTypes[t.Type]
	if !ok {
		if t.Type == "" {
			return bad("the type is missing (use one of %s)", strings.Join(textTagTypeOrder, ", "))
		}
		return bad("unknown type %q (use one of %s)", parts[0], strings.Join(textTagTypeOrder, ", "))
	}
	t.FieldType = ft
	t.Required = !strings.EqualFold(parts[1], "noreq")
	signer := strings.ToLower(parts[2])
	switch {
	case signer == "sender":
		if !t.Merge() {
			return bad("only text-merge and checkbox-merge tags can be for the sender; name a signer (signer1, signer2, ...)")
		}
	case strings.HasPrefix(signer, "signer"):
		n, err := strconv.Atoi(signer[len("signer"):])
		if err != nil || n < 1 || strings.HasPrefix(signer[len("signer"):], "+") {
			return bad("the signer %q is not signerN with N from 1 (signer1 is the first signer)", parts[2])
		}
		t.Signer = n
	case signer == "":
		return bad("the signer is missing (signer1 is the first signer)")
	default:
		return bad("the signer %q is not signerN with N from 1 (signer1 is the first signer) or sender", parts[2])
	}
	if t.Validation != "" {
		if t.Validation == "custom_regex" {
			return bad("the validation type custom_regex cannot be used in a text tag (it needs validation_custom_regex)")
		}
		if !slices.Contains(TextTagValidationTypes, t.Validation) {
			return bad("unknown validation type %q (use one of %s)", t.Validation, strings.Join(TextTagValidationTypes, ", "))
		}
	}
	if t.AutoFill != "" {
		if !slices.Contains(TextTagAutoFillTypes, t.AutoFill) {
			return bad("unknown auto-fill type %q (use one of %s)", t.AutoFill, strings.Join(TextTagAutoFillTypes, ", "))
		}
		if t.Type != "text" {
			return bad("an auto-fill type can only be given to text tags")
		}
	}
	return t, nil
}
