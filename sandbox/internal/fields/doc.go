// Package fields is the form-field vocabulary that signature requests,
// templates, drafts and text tags share: the field types and the shapes
// of form_fields_per_document, form_field_groups and form_field_rules in
// request bodies, their checks (Decode, Check, CheckGroupsAndRules) and
// the checks of the values fields hold (ValidateText). It knows no
// resource; each answers an *apierr.Error naming the parameter.
package fields
