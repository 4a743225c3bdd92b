package sigreq

// Linked fields: text fields of one signer that share a link_id hold one
// value (the spec: data typed in one fills the others). A value given for
// any of them fills all of them and must pass each one's validation type;
// two different values for one link are refused. Without a value the
// link's fields share one default: the first content, auto-fill value or
// (where one of them is required) sample that every one of them accepts.
// Fields of other signers with the same link_id are not linked to these:
// each signer fills their own.

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// linkedGroups are the signer's text fields grouped by link_id, in the
// request's order, for links of two or more fields.
func linkedGroups(formFields []model.FormField) [][]model.FormField {
	var order []string
	byLink := map[string][]model.FormField{}
	for _, f := range formFields {
		if f.Type != fields.TypeText || f.LinkID == "" {
			continue
		}
		if _, seen := byLink[f.LinkID]; !seen {
			order = append(order, f.LinkID)
		}
		byLink[f.LinkID] = append(byLink[f.LinkID], f)
	}
	var out [][]model.FormField
	for _, id := range order {
		if len(byLink[id]) > 1 {
			out = append(out, byLink[id])
		}
	}
	return out
}

// textOf is a text field's value as given: a string, or a number as JSON
// wrote it.
func textOf(raw any) (string, bool) {
	switch t := raw.(type) {
	case string:
		return t, true
	case json.Number:
		return string(t), true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	}
	return "", false
}

// spreadLinkedValues answers the given values with every link's value given
// for each of its fields (given itself is not changed).
func spreadLinkedValues(req *model.SignatureRequest, sg *model.Signature, formFields []model.FormField, given map[string]any, path string) (map[string]any, *apierr.Error) {
	groups := linkedGroups(formFields)
	if len(groups) == 0 {
		return given, nil
	}
	out := make(map[string]any, len(given))
	for k, v := range given {
		out[k] = v
	}
	for _, g := range groups {
		value, from, ok := "", "", false
		for _, f := range g {
			raw, has := given[f.APIID]
			if !has {
				continue
			}
			s, isText := textOf(raw)
			if !isText {
				return nil, apierr.Badf(path+"["+f.APIID+"]", "The value of text field %s must be a string.", f.APIID)
			}
			if ok && s != value {
				return nil, apierr.Badf(path+"["+f.APIID+"]", "Fields %s and %s are linked (link_id %s) and take one value; they were given different ones.", from, f.APIID, f.LinkID)
			}
			value, from, ok = s, f.APIID, true
		}
		if !ok {
			var e *apierr.Error
			if value, ok, e = linkedDefault(req, sg, g, path); e != nil {
				return nil, e
			}
		}
		if !ok {
			continue
		}
		for _, f := range g {
			out[f.APIID] = value
		}
	}
	return out, nil
}

// linkedDefault is the value a link's fields share when the signer gives
// none: the first content, auto-fill value or, where one of them is
// required, sample value that every field of the link accepts. ok is false
// when none is needed (no candidate and nothing required).
func linkedDefault(req *model.SignatureRequest, sg *model.Signature, g []model.FormField, path string) (string, bool, *apierr.Error) {
	required := false
	var candidates []string
	for _, f := range g {
		candidates = append(candidates, f.Content, autoFillValue(req, sg, f))
		required = required || f.Required
	}
	if required {
		for _, f := range g {
			candidates = append(candidates, sampleText(req, sg, f))
		}
	}
	for _, c := range candidates {
		if c != "" && acceptedByAll(g, c) {
			return c, true, nil
		}
	}
	if !required {
		return "", false, nil
	}
	ids := make([]string, len(g))
	for i, f := range g {
		ids[i] = f.APIID
	}
	return "", false, apierr.Badf(path+"["+g[0].APIID+"]", "Fields %s are linked (link_id %s) and required: give a value that passes the validation of each of them.",
		strings.Join(ids, ", "), g[0].LinkID)
}

// acceptedByAll reports whether v passes the validation of every field.
func acceptedByAll(g []model.FormField, v string) bool {
	for _, f := range g {
		if fields.ValidateText(f, v) != "" {
			return false
		}
	}
	return true
}
