package sandbox

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftext"
)

// The text tag parser (internal/pdf) keeps its own copies of the form
// field vocabulary it accepts; they must stay those of form fields
// (package fields), custom_regex excepted (a tag cannot carry the
// expression), so that a tag and the field it becomes agree.
func TestTextTagVocabularyIsTheFormFieldVocabulary(t *testing.T) {
	assert.Equal(t, fields.AutoFillTypes, pdftext.TextTagAutoFillTypes)
	want := slices.DeleteFunc(slices.Clone(fields.ValidationTypes), func(v string) bool { return v == "custom_regex" })
	assert.Equal(t, want, pdftext.TextTagValidationTypes)
}
