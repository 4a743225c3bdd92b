package legacy

import (
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// roleKeyed maps param[Role Name][field] (signers and CCs of template
// operations, as the old API reference documented them and every older SDK
// sends them) onto the current list whose entries name their role:
// param[i][role]=Role Name, in the order the roles first appear in the body.
func roleKeyed(param string) func(string, *wire.Body) error {
	return func(operationID string, b *wire.Body) error {
		m, ok := b.Tree[param].(map[string]any)
		if !ok || !strings.Contains(operationID, "WithTemplate") {
			return nil
		}
		indexes, roles := splitKeys(m)
		if len(roles) == 0 {
			return nil
		}
		roles = inBodyOrder(b.Order, param, roles)
		if len(indexes) > 0 {
			return mixed(param+"["+roles[0]+"]", param+"["+indexes[0]+"]", param)
		}
		list := make([]any, 0, len(roles))
		for _, role := range roles {
			path := param + "[" + role + "]"
			fields, ok := m[role].(map[string]any)
			if !ok {
				return apierr.Badf(path, "%s must give the fields of the role %q, as %s[email_address]", path, role, path)
			}
			if r, has := fields["role"]; has && r != role {
				return apierr.Badf(path+"[role]", "%s[role] is %v, but %s names the role %q", path, r, path, role)
			}
			entry := make(map[string]any, len(fields)+1)
			for k, v := range fields {
				entry[k] = v
			}
			entry["role"] = role
			list = append(list, entry)
		}
		b.Tree[param] = list
		return nil
	}
}

// signerGroups maps the old signer groups, signers[i][group]=Name with the
// group's members as signers[i][j][name|email_address|...], onto the current
// grouped_signers[i][group|order|signers].
func signerGroups(_ string, b *wire.Body) error {
	list, ok := b.Tree["signers"].([]any)
	if !ok {
		return nil
	}
	firstGroup, firstSingle := -1, -1
	for i, e := range list {
		if isOldGroup(e) {
			if firstGroup < 0 {
				firstGroup = i
			}
		} else if firstSingle < 0 {
			firstSingle = i
		}
	}
	if firstGroup < 0 {
		return nil
	}
	groupField := fmt.Sprintf("signers[%d][group]", firstGroup)
	if _, both := b.Tree["grouped_signers"]; both {
		return mixed(groupField, "grouped_signers", "grouped_signers")
	}
	if firstSingle >= 0 {
		return apierr.Badf("signers", "signers mixes a signer group (%s) with a single signer (signers[%d]): send every signer in a group, as grouped_signers", groupField, firstSingle)
	}
	groups := make([]any, 0, len(list))
	for _, e := range list {
		m := e.(map[string]any)
		indexes, names := splitKeys(m)
		for _, n := range names {
			if n != "group" && n != "order" {
				return apierr.Badf("signers", "signers[%d][%s] is not a field of a signer group (group, order, and its signers as signers[%d][0][name])", len(groups), n, len(groups))
			}
		}
		members := make([]any, 0, len(indexes))
		for _, k := range indexes {
			members = append(members, m[k])
		}
		g := map[string]any{"group": m["group"], "signers": members}
		if o, has := m["order"]; has {
			g["order"] = o
		}
		groups = append(groups, g)
	}
	b.Tree["grouped_signers"] = groups
	delete(b.Tree, "signers")
	return nil
}

// isOldGroup reports whether a signers entry is an old signer group: a group
// name and at least one member given by index.
func isOldGroup(e any) bool {
	m, ok := e.(map[string]any)
	if !ok {
		return false
	}
	if _, has := m["group"]; !has {
		return false
	}
	for k, v := range m {
		if _, isMap := v.(map[string]any); isMap && isIndex(k) {
			return true
		}
	}
	return false
}
