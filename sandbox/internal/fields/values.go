package fields

// Checks of the values form fields hold, shared by signers' input, merge
// fields and prefilled values.

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
)

// validationPatterns implement the data validation types.
var validationPatterns = map[string]*regexp.Regexp{
	"numbers_only":                   regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`),
	"letters_only":                   regexp.MustCompile(`^\p{L}+$`),
	"phone_number":                   regexp.MustCompile(`^[0-9]{10,11}$`),
	"bank_routing_number":            regexp.MustCompile(`^[0-9]{9}$`),
	"bank_account_number":            regexp.MustCompile(`^[0-9]{6,}$`),
	"zip_code":                       regexp.MustCompile(`^([0-9]{5}|[0-9]{9})$`),
	"social_security_number":         regexp.MustCompile(`^[0-9]{9}$`),
	"employer_identification_number": regexp.MustCompile(`^[0-9]{9}$`),
}

// ValidateText checks a text value against the field's validation type and
// answers the problem ("" when the value is fine).
func ValidateText(f model.FormField, v string) string {
	if v == "" || f.ValidationType == "" {
		return ""
	}
	ok := true
	switch f.ValidationType {
	case "email_address":
		ok = param.ValidEmail(v)
	case "custom_regex":
		re, err := regexp.Compile(f.ValidationCustomRegex)
		ok = err == nil && re.MatchString(v)
	default:
		if re := validationPatterns[f.ValidationType]; re != nil {
			ok = re.MatchString(strings.ReplaceAll(v, " ", ""))
		}
	}
	if ok {
		return ""
	}
	label := f.ValidationType
	if f.ValidationCustomRegexFormatLabel != "" {
		label = f.ValidationCustomRegexFormatLabel
	}
	return "The value " + strconv.Quote(v) + " of field " + f.APIID + " is not valid (" + label + ")."
}

// IsMerge reports whether the sender fills f through custom_fields.
func IsMerge(f model.FormField) bool { return f.Type == TypeTextMerge || f.Type == TypeCheckboxMerge }
