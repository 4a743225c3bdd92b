package fields

// The form field vocabulary of the official request schemas and the checks
// of one field's keys that signature requests (fields.go) and templates
// (internal/template/fields.go) share, so that both refuse the same values
// with the same answer.

import (
	"net/url"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Field types of SubFormFieldsPerDocumentTypeEnum.
const (
	TypeText          = "text"
	TypeCheckbox      = "checkbox"
	TypeDateSigned    = "date_signed"
	TypeDropdown      = "dropdown"
	TypeHyperlink     = "hyperlink"
	TypeInitials      = "initials"
	TypeRadio         = "radio"
	TypeSignature     = "signature"
	TypeTextMerge     = "text-merge"
	TypeCheckboxMerge = "checkbox-merge"
)

// Enumerations of the official request schemas, in their order.
var (
	fieldTypes      = []string{TypeCheckbox, TypeCheckboxMerge, TypeDateSigned, TypeDropdown, TypeHyperlink, TypeInitials, TypeSignature, TypeRadio, TypeText, TypeTextMerge}
	ValidationTypes = []string{"numbers_only", "letters_only", "phone_number", "bank_routing_number", "bank_account_number",
		"email_address", "zip_code", "social_security_number", "employer_identification_number", "custom_regex"}
	AutoFillTypes = []string{"firstName", "lastName", "name", "email", "company", "title"}
	fontFamilies  = []string{"helvetica", "arial", "courier", "calibri", "cambria", "georgia", "times", "trebuchet", "verdana",
		"roboto", "robotoMono", "notoSans", "notoSerif", "notoCJK-JP-Regular", "notoHebrew-Regular", "notoSanThaiMerged"}
	// dateFormats are the values of field_options[date_format].
	dateFormats = []string{"MM / DD / YYYY", "MM - DD - YYYY", "DD / MM / YYYY", "DD - MM - YYYY", "YYYY / MM / DD", "YYYY - MM - DD"}
	// formViews are the values of signer_experience[form_view].
	formViews = []string{"disabled", "enabled", "enabled_by_default", "forced"}
	// Group requirements by member type.
	CheckboxRequirements = []string{"require_0-1", "require_1", "require_1-ormore"}
	RadioRequirements    = []string{"require_0-1", "require_1"}
)

// Signer values that are not an index.
const (
	SignerSender = "sender" // merge fields filled by the requester's data
	SignerMeNow  = "me_now" // filled by the preparer now (content)
)

// CheckType checks a field's type (at names a key of the field).
func CheckType(at func(string) string, typ string) *apierr.Error {
	if typ == "" {
		return apierr.Missing(at("type"))
	}
	if !slices.Contains(fieldTypes, typ) {
		return apierr.Badf(at("type"), "Unknown form field type %q (use one of %s).", typ, strings.Join(fieldTypes, ", "))
	}
	return nil
}

// CheckBox checks the position and size of a field: x and y from 0,
// width and height from 1, all required.
func CheckBox(at func(string) string, x, y, width, height *int) *apierr.Error {
	for _, k := range []struct {
		name string
		v    *int
		min  int
	}{{"x", x, 0}, {"y", y, 0}, {"width", width, 1}, {"height", height, 1}} {
		if k.v == nil {
			return apierr.Missing(at(k.name))
		}
		if *k.v < k.min {
			return apierr.Badf(at(k.name), "%s must be at least %d.", k.name, k.min)
		}
	}
	return nil
}

// CheckFont checks font_size (7 to 49) and font_family.
func CheckFont(at func(string) string, size *int, family string) *apierr.Error {
	if size != nil && (*size < 7 || *size > 49) {
		return apierr.Badf(at("font_size"), "font_size must be between 7 and 49.")
	}
	if family != "" && !slices.Contains(fontFamilies, family) {
		return apierr.Badf(at("font_family"), "Unknown font_family %q.", family)
	}
	return nil
}

// CheckTextKeys checks the keys of a text field: validation_type (with the
// regular expression custom_regex needs) and auto_fill_type.
func CheckTextKeys(at func(string) string, validationType, customRegex, autoFillType string) *apierr.Error {
	if validationType != "" {
		if !slices.Contains(ValidationTypes, validationType) {
			return apierr.Badf(at("validation_type"), "Unknown validation_type %q (use one of %s).", validationType, strings.Join(ValidationTypes, ", "))
		}
		if validationType == "custom_regex" {
			if customRegex == "" {
				return apierr.Missing(at("validation_custom_regex"))
			}
			if _, err := wire.CompilePattern(customRegex); err != nil {
				return apierr.Badf(at("validation_custom_regex"), "validation_custom_regex is not a valid regular expression: %v", err)
			}
		}
	}
	if autoFillType != "" && !slices.Contains(AutoFillTypes, autoFillType) {
		return apierr.Badf(at("auto_fill_type"), "Unknown auto_fill_type %q (use one of %s).", autoFillType, strings.Join(AutoFillTypes, ", "))
	}
	return nil
}

// CheckDropdownKeys checks a dropdown's options (at least one, none
// blank) and its content (one of the options when given).
func CheckDropdownKeys(at func(string) string, options []string, content string) *apierr.Error {
	if len(options) == 0 {
		return apierr.Missing(at("options"))
	}
	for i, o := range options {
		if strings.TrimSpace(o) == "" {
			return param.Blank(at("options") + "[" + itoa(i) + "]")
		}
	}
	if content != "" && !slices.Contains(options, content) {
		return apierr.Badf(at("content"), "content %q must be one of the dropdown's options.", content)
	}
	return nil
}

// CheckHyperlinkKeys checks a hyperlink's text (content) and its target
// (content_url, an absolute URL).
func CheckHyperlinkKeys(at func(string) string, content, contentURL string) *apierr.Error {
	if strings.TrimSpace(content) == "" {
		return apierr.Missing(at("content"))
	}
	if contentURL == "" {
		return apierr.Missing(at("content_url"))
	}
	if u, err := url.Parse(contentURL); err != nil || u.Scheme == "" || u.Host == "" {
		return apierr.Badf(at("content_url"), "content_url must be an absolute URL.")
	}
	return nil
}

// CheckDateFormat checks field_options[date_format] when field_options was
// given.
func CheckDateFormat(v string) *apierr.Error {
	if v == "" {
		return apierr.Missing("field_options[date_format]")
	}
	if !slices.Contains(dateFormats, v) {
		return apierr.Badf("field_options[date_format]", "date_format must be one of: %s.", strings.Join(dateFormats, ", "))
	}
	return nil
}

// CheckFormView checks signer_experience[form_view] when signer_experience
// was given.
func CheckFormView(v string) *apierr.Error {
	if !slices.Contains(formViews, v) {
		return apierr.Badf("signer_experience[form_view]", "form_view must be one of: %s.", strings.Join(formViews, ", "))
	}
	return nil
}

// Path returns the key namer of a field at path p (p[key]).
func Path(p string) func(string) string {
	return func(k string) string { return p + "[" + k + "]" }
}
