package fields

// Validation of form_field_groups and form_field_rules (conditional logic)
// against the fields that use them.

import (
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// CheckGroupsAndRules validates form_field_groups against the fields that
// use them and form_field_rules against fields and groups.
func CheckGroupsAndRules(fields []model.FormField, paths []string, groups []Group, rules []Rule) ([]model.FieldGroup, []model.FieldRule, *apierr.Error) {
	byID := map[string]int{}
	for i, f := range fields {
		byID[f.APIID] = i
	}
	groupIdx := map[string]int{}
	var outG []model.FieldGroup
	for i, g := range groups {
		p := "form_field_groups[" + itoa(i) + "]"
		switch {
		case strings.TrimSpace(g.GroupID) == "":
			return nil, nil, apierr.Missing(p + "[group_id]")
		case g.GroupLabel == "":
			return nil, nil, apierr.Missing(p + "[group_label]")
		case g.Requirement == "":
			return nil, nil, apierr.Missing(p + "[requirement]")
		}
		if _, dup := groupIdx[g.GroupID]; dup {
			return nil, nil, apierr.Badf(p+"[group_id]", "group_id %q is defined twice.", g.GroupID)
		}
		groupIdx[g.GroupID] = i
		outG = append(outG, model.FieldGroup{GroupID: g.GroupID, GroupLabel: g.GroupLabel, Requirement: g.Requirement})
	}
	// Members: one type and one signer per group, valid requirement.
	type groupInfo struct {
		typ, signer string
		checked     int
	}
	info := map[string]*groupInfo{}
	for i, f := range fields {
		if f.Group == "" {
			continue
		}
		gi, ok := groupIdx[f.Group]
		if !ok {
			return nil, nil, apierr.Badf(paths[i]+"[group]", "group %q is not defined in form_field_groups.", f.Group)
		}
		in := info[f.Group]
		if in == nil {
			in = &groupInfo{typ: f.Type, signer: f.Signer}
			info[f.Group] = in
		}
		gp := "form_field_groups[" + itoa(gi) + "]"
		if in.typ != f.Type {
			return nil, nil, apierr.Badf(gp, "Group %q mixes %s and %s fields; a group holds one type.", f.Group, in.typ, f.Type)
		}
		if in.signer != f.Signer {
			return nil, nil, apierr.Badf(gp, "The fields of group %q must belong to the same signer.", f.Group)
		}
		if f.IsChecked {
			in.checked++
		}
	}
	for i, g := range groups {
		p := "form_field_groups[" + itoa(i) + "][requirement]"
		in := info[g.GroupID]
		allowed := CheckboxRequirements
		if in != nil && in.typ == TypeRadio {
			allowed = RadioRequirements
			if in.checked > 1 {
				return nil, nil, apierr.Badf("form_field_groups["+itoa(i)+"]", "Only one radio field of group %q can be checked by default.", g.GroupID)
			}
		}
		if !slices.Contains(allowed, g.Requirement) {
			return nil, nil, apierr.Badf(p, "requirement %q is not valid here (use one of %s).", g.Requirement, strings.Join(allowed, ", "))
		}
	}
	groupSigner := func(id string) string {
		if in := info[id]; in != nil {
			return in.signer
		}
		return ""
	}
	ruleIDs := map[string]bool{}
	targeted := map[string]string{}
	var outR []model.FieldRule
	for i, r := range rules {
		p := "form_field_rules[" + itoa(i) + "]"
		if strings.TrimSpace(r.ID) == "" {
			return nil, nil, apierr.Missing(p + "[id]")
		}
		if ruleIDs[r.ID] {
			return nil, nil, apierr.Badf(p+"[id]", "Rule id %q is used twice; rule ids must be unique.", r.ID)
		}
		ruleIDs[r.ID] = true
		op := r.TriggerOperator
		if op == "" {
			op = "AND"
		}
		if op != "AND" {
			return nil, nil, apierr.Badf(p+"[trigger_operator]", "Only the AND trigger_operator is supported.")
		}
		if len(r.Triggers) == 0 {
			return nil, nil, apierr.Missing(p + "[triggers]")
		}
		if len(r.Triggers) > 1 {
			return nil, nil, apierr.Badf(p+"[triggers]", "A rule has exactly one trigger; a combination of fields cannot be a trigger.")
		}
		if len(r.Actions) == 0 {
			return nil, nil, apierr.Missing(p + "[actions]")
		}
		trig, e := checkTrigger(p+"[triggers][0]", r.Triggers[0], fields, byID)
		if e != nil {
			return nil, nil, e
		}
		signer := fields[byID[trig.ID]].Signer
		out := model.FieldRule{ID: r.ID, TriggerOperator: op, Triggers: []model.RuleTrigger{trig}}
		for j, a := range r.Actions {
			ap := p + "[actions][" + itoa(j) + "]"
			switch {
			case a.FieldID != "" && a.GroupID != "":
				return nil, nil, apierr.Badf(ap, "Use field_id or group_id, not both.")
			case a.FieldID == "" && a.GroupID == "":
				return nil, nil, apierr.Missing(ap + "[field_id]")
			case a.Hidden == nil:
				return nil, nil, apierr.Missing(ap + "[hidden]")
			case a.Type == "":
				return nil, nil, apierr.Missing(ap + "[type]")
			}
			target, targetSigner := a.FieldID, ""
			if a.FieldID != "" {
				if a.Type != "change-field-visibility" {
					return nil, nil, apierr.Badf(ap+"[type]", "An action on field_id must have type change-field-visibility.")
				}
				fi, ok := byID[a.FieldID]
				if !ok {
					return nil, nil, apierr.Badf(ap+"[field_id]", "field_id %q is not the api_id of a field.", a.FieldID)
				}
				if a.FieldID == trig.ID {
					return nil, nil, apierr.Badf(ap+"[field_id]", "A rule's trigger field cannot also be its target.")
				}
				targetSigner = fields[fi].Signer
			} else {
				if a.Type != "change-group-visibility" {
					return nil, nil, apierr.Badf(ap+"[type]", "An action on group_id must have type change-group-visibility.")
				}
				if _, ok := groupIdx[a.GroupID]; !ok {
					return nil, nil, apierr.Badf(ap+"[group_id]", "group_id %q is not defined in form_field_groups.", a.GroupID)
				}
				target, targetSigner = "group:"+a.GroupID, groupSigner(a.GroupID)
			}
			if targetSigner != signer {
				return nil, nil, apierr.Badf(ap, "Trigger and action fields and groups must belong to the same signer.")
			}
			if prev, dup := targeted[target]; dup {
				return nil, nil, apierr.Badf(ap, "This field or group is already the target of rule %q; a field can be targeted only once.", prev)
			}
			targeted[target] = r.ID
			out.Actions = append(out.Actions, model.RuleAction{FieldID: a.FieldID, GroupID: a.GroupID, Hidden: *a.Hidden, Type: a.Type})
		}
		outR = append(outR, out)
	}
	return outG, outR, nil
}

// triggerOperators are the operators each trigger field type accepts.
var triggerOperators = map[string][]string{
	TypeText:     {"is", "not", "match"},
	TypeDropdown: {"is", "not", "any", "none"},
	TypeCheckbox: {"is", "not"},
	TypeRadio:    {"is", "not"},
}

func checkTrigger(p string, t RuleTrigger, fields []model.FormField, byID map[string]int) (model.RuleTrigger, *apierr.Error) {
	var zero model.RuleTrigger
	if t.ID == "" {
		return zero, apierr.Missing(p + "[id]")
	}
	fi, ok := byID[t.ID]
	if !ok {
		return zero, apierr.Badf(p+"[id]", "Trigger id %q is not the api_id of a field.", t.ID)
	}
	f := fields[fi]
	ops, ok := triggerOperators[f.Type]
	if !ok {
		return zero, apierr.Badf(p+"[id]", "A %s field cannot be a trigger (text, dropdown, checkbox and radio fields can).", f.Type)
	}
	if t.Operator == "" {
		return zero, apierr.Missing(p + "[operator]")
	}
	if !slices.Contains(ops, t.Operator) {
		return zero, apierr.Badf(p+"[operator]", "Operator %q cannot be used with a %s trigger (use %s).", t.Operator, f.Type, strings.Join(ops, ", "))
	}
	multi := t.Operator == "any" || t.Operator == "none"
	switch {
	case t.Value != nil && len(t.Values) > 0:
		return zero, apierr.Badf(p, "Give value or values, not both.")
	case multi && len(t.Values) == 0:
		return zero, apierr.Missing(p + "[values]")
	case !multi && t.Value == nil:
		return zero, apierr.Missing(p + "[value]")
	}
	out := model.RuleTrigger{ID: t.ID, Operator: t.Operator, Values: t.Values}
	if t.Value != nil {
		out.Value = *t.Value
	}
	switch f.Type {
	case TypeCheckbox:
		if out.Value != "0" && out.Value != "1" {
			return zero, apierr.Badf(p+"[value]", "A checkbox trigger's value is 0 or 1.")
		}
	case TypeRadio:
		if out.Value != "1" {
			return zero, apierr.Badf(p+"[value]", "A radio trigger's value is 1.")
		}
	case TypeDropdown:
		vals := out.Values
		if !multi {
			vals = []string{out.Value}
		}
		for _, v := range vals {
			if !slices.Contains(f.Options, v) {
				return zero, apierr.Badf(p, "%q is not one of the dropdown's options.", v)
			}
		}
	case TypeText:
		if t.Operator == "match" {
			if _, err := wire.CompilePattern(out.Value); err != nil {
				return zero, apierr.Badf(p+"[value]", "value is not a valid regular expression: %v", err)
			}
		}
	}
	return out, nil
}
