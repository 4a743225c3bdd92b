package fields

// Validation of the form_fields_per_document of signature requests, with
// the type-specific keys of every field type (groups and rules are in
// rules.go; the checks of one field in checks.go).

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Parsed is a decoded field with the path it came from.
type Parsed struct {
	Path  string
	Field FormField
	Doc   int // document index from the list-of-lists form, -1 otherwise
}

// Decode reads form_fields_per_document: the official flat list
// whose entries carry document_index, or the older list of lists, one per
// document. An SDK multipart part holding JSON text is parsed first.
func Decode(raw any) ([]Parsed, *apierr.Error) {
	const root = "form_fields_per_document"
	if s, ok := raw.(string); ok {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, nil
		}
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, apierr.Badf(root, "form_fields_per_document is not valid JSON: %v", err)
		}
		raw = v
	}
	if raw == nil {
		return nil, nil
	}
	list, ok := asList(raw)
	if !ok {
		return nil, apierr.Badf(root, "form_fields_per_document must be an array of form fields.")
	}
	// The older list of lists: every entry a list (or an object with index
	// keys; an empty object is an empty field, not an empty list).
	nested := len(list) > 0
	docs := make([]any, 0, len(list))
	for _, item := range list {
		sub, isList := asList(item)
		if m, isMap := item.(map[string]any); !isList || isMap && len(m) == 0 {
			nested = false
			break
		}
		docs = append(docs, sub)
	}
	if nested {
		list = docs
	}
	var out []Parsed
	if !nested {
		var dst struct {
			F []FormField `json:"form_fields_per_document"`
		}
		if err := wire.DecodeTree(map[string]any{root: list}, &dst); err != nil {
			e, _ := apierr.As(err)
			return nil, e
		}
		for i, f := range dst.F {
			out = append(out, Parsed{Path: root + "[" + itoa(i) + "]", Field: f, Doc: -1})
		}
		return out, nil
	}
	byDoc := map[string]any{}
	for d, item := range list {
		byDoc[itoa(d)] = item
	}
	var dst struct {
		F map[string][]FormField `json:"form_fields_per_document"`
	}
	if err := wire.DecodeTree(map[string]any{root: byDoc}, &dst); err != nil {
		e, _ := apierr.As(err)
		return nil, e
	}
	for d := range list {
		for i, f := range dst.F[itoa(d)] {
			out = append(out, Parsed{Path: root + "[" + itoa(d) + "][" + itoa(i) + "]", Field: f, Doc: d})
		}
	}
	return out, nil
}

// asList reads a list, or an object whose keys are all list indexes (a PHP
// list with gaps, wire.IndexedList), in index order; {} is an empty list.
func asList(v any) ([]any, bool) {
	switch t := v.(type) {
	case []any:
		return t, true
	case map[string]any:
		list, _, ok := wire.IndexedList(t)
		return list, ok
	}
	return nil, false
}

// Limits carries what field validation needs to know.
type Limits struct {
	Slots int
	// Docs is the number of documents; pages their page counts (0 when
	// unknown until processing).
	Docs  int
	Pages []int
}

// Check validates every field and returns them as stored. Groups
// and rules are checked afterwards (CheckGroupsAndRules) because they refer
// to fields.
func Check(list []Parsed, fc Limits) ([]model.FormField, *apierr.Error) {
	var out []model.FormField
	ids := map[string]bool{}
	for _, pf := range list {
		f, p := pf.Field, pf.Path
		at := Path(p)
		if strings.TrimSpace(f.APIID) == "" {
			return nil, apierr.Missing(at("api_id"))
		}
		if ids[f.APIID] {
			return nil, apierr.Badf(at("api_id"), "api_id %q is used by more than one field; it must be unique across all documents.", f.APIID)
		}
		ids[f.APIID] = true
		if e := CheckType(at, f.Type); e != nil {
			return nil, e
		}
		doc := pf.Doc
		if f.DocumentIndex != nil {
			doc = *f.DocumentIndex
		}
		if doc < 0 && f.DocumentIndex == nil {
			return nil, apierr.Missing(at("document_index"))
		}
		if doc < 0 || doc >= fc.Docs {
			return nil, apierr.Badf(at("document_index"), "document_index %d does not name a document (the request has %d).", doc, fc.Docs)
		}
		if e := CheckBox(at, f.X, f.Y, f.Width, f.Height); e != nil {
			return nil, e
		}
		if f.Required == nil {
			return nil, apierr.Missing(at("required"))
		}
		if f.Page != nil {
			if *f.Page < 1 {
				return nil, apierr.Badf(at("page"), "page starts at 1.")
			}
			if doc < len(fc.Pages) && fc.Pages[doc] > 0 && *f.Page > fc.Pages[doc] {
				return nil, apierr.Badf(at("page"), "page %d is beyond the %d page(s) of document %d.", *f.Page, fc.Pages[doc], doc)
			}
		}
		if f.Signer == nil || strings.TrimSpace(*f.Signer) == "" {
			return nil, apierr.Missing(at("signer"))
		}
		signer := strings.TrimSpace(*f.Signer)
		merge := f.Type == TypeTextMerge || f.Type == TypeCheckboxMerge
		switch signer {
		case SignerSender:
			if !merge {
				return nil, apierr.Badf(at("signer"), `signer "sender" is only for text-merge and checkbox-merge fields.`)
			}
		case SignerMeNow:
			if merge || f.Type == TypeSignature || f.Type == TypeInitials {
				return nil, apierr.Badf(at("signer"), `signer "me_now" cannot be used for %s fields.`, f.Type)
			}
		default:
			n, err := strconv.Atoi(signer)
			if err != nil {
				return nil, apierr.Badf(at("signer"), "signer must be a signer index (0-based), %q or %q.", SignerSender, SignerMeNow)
			}
			if n < 0 || n >= fc.Slots {
				return nil, apierr.Badf(at("signer"), "signer %d does not name a signer (0 to %d).", n, fc.Slots-1)
			}
			signer = strconv.Itoa(n)
		}
		if e := CheckFont(at, f.FontSize, f.FontFamily); e != nil {
			return nil, e
		}
		sf := model.FormField{
			APIID: f.APIID, Name: f.Name, Type: f.Type, DocumentIndex: doc, Page: f.Page, X: *f.X, Y: *f.Y,
			Width: *f.Width, Height: *f.Height, Required: *f.Required, Signer: signer,
		}
		sf.FontFamily = f.FontFamily
		if f.FontSize != nil {
			sf.FontSize = *f.FontSize
		}
		if e := checkTypeKeys(f, &sf, at); e != nil {
			return nil, e
		}
		out = append(out, sf)
	}
	return out, nil
}

// checkTypeKeys validates the keys specific to a field's type.
func checkTypeKeys(f FormField, sf *model.FormField, at func(string) string) *apierr.Error {
	checked := f.IsChecked
	if checked == nil {
		checked = f.Checked
	}
	switch f.Type {
	case TypeText:
		if e := CheckTextKeys(at, f.ValidationType, f.ValidationCustomRegex, f.AutoFillType); e != nil {
			return e
		}
		if f.AutoFillType != "" && sf.Signer == SignerMeNow {
			return apierr.Badf(at("auto_fill_type"), "Auto fill fields can be assigned to signers only.")
		}
		sf.Placeholder, sf.AutoFillType, sf.LinkID, sf.Masked = f.Placeholder, f.AutoFillType, f.LinkID, f.Masked
		sf.ValidationType, sf.ValidationCustomRegex = f.ValidationType, f.ValidationCustomRegex
		sf.ValidationCustomRegexFormatLabel = f.ValidationCustomRegexFormatLabel
		sf.Content = param.Deref(f.Content)
		if sf.Content != "" && sf.ValidationType != "" {
			if msg := ValidateText(*sf, sf.Content); msg != "" {
				return apierr.Badf(at("content"), "%s", msg)
			}
		}
	case TypeDropdown:
		if e := CheckDropdownKeys(at, f.Options, param.Deref(f.Content)); e != nil {
			return e
		}
		sf.Options, sf.Content = append([]string(nil), f.Options...), param.Deref(f.Content)
	case TypeHyperlink:
		if e := CheckHyperlinkKeys(at, param.Deref(f.Content), f.ContentURL); e != nil {
			return e
		}
		sf.Content, sf.ContentURL = *f.Content, f.ContentURL
	case TypeCheckbox:
		if checked == nil {
			return apierr.Missing(at("is_checked"))
		}
		sf.Group, sf.IsChecked = f.Group, *checked
	case TypeRadio:
		if f.Group == "" {
			return apierr.Missing(at("group"))
		}
		if checked == nil {
			return apierr.Missing(at("is_checked"))
		}
		sf.Group, sf.IsChecked = f.Group, *checked
	}
	return nil
}

// BindCustomFieldTypes gives each custom field the type and api_id of the
// merge field it fills (by name or api_id); fields of no merge field stay
// text.
func BindCustomFieldTypes(cfs []model.CustomField, fields []model.FormField) {
	for i := range cfs {
		for _, f := range fields {
			if IsMerge(f) && (f.Name == cfs[i].Name || f.APIID == cfs[i].Name) {
				cfs[i].APIID = f.APIID
				if f.Type == TypeCheckboxMerge {
					cfs[i].Type = "checkbox"
				}
				break
			}
		}
	}
}
