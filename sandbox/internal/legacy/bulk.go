package legacy

import (
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// bulkSignerList maps the old signer_list entries of the bulk sends, as the
// old API reference and the Ruby and PHP SDKs write them,
//
//	[{"signers": {"Client": {"name": ..., "email_address": ...}},
//	  "custom_fields": {"Address": "100 Grand"}}]
//
// (as JSON text, or as signer_list[0][signers][Client][name]=... fields),
// onto the current entries, whose signers and custom_fields are lists:
// signers[i][role], custom_fields[i][name|value], in the order the body
// gives them. A list mixing old and current entries is refused.
func bulkSignerList(operationID string, b *wire.Body) error {
	if !strings.Contains(operationID, "Bulk") {
		return nil
	}
	var entries []any
	var order func(i int, sub string, names []string) []string
	switch v := b.Tree["signer_list"].(type) {
	case string:
		s := strings.TrimSpace(v)
		if !strings.HasPrefix(s, "[") {
			return nil
		}
		parsed, err := parseOrderedJSON(s)
		if err != nil {
			return nil // the decoder names the broken JSON
		}
		list, ok := parsed.([]any)
		if !ok {
			return nil
		}
		entries = list
		order = func(i int, sub string, _ []string) []string {
			if o, ok := list[i].(*orderedObject); ok {
				if inner, ok := o.values[sub].(*orderedObject); ok {
					return inner.keys
				}
			}
			return nil
		}
	case []any:
		entries = v
		order = func(i int, sub string, names []string) []string {
			return inBodyOrder(b.Order, fmt.Sprintf("signer_list[%d][%s]", i, sub), names)
		}
	default:
		return nil
	}
	older, current := -1, -1
	out := make([]any, len(entries))
	for i, e := range entries {
		m := plainObject(e)
		if m == nil {
			return nil // not an entry; the decoder says so
		}
		old := false
		for _, sub := range []string{"signers", "custom_fields"} {
			obj, ok := m[sub].(map[string]any)
			if !ok {
				continue
			}
			indexes, names := splitKeys(obj)
			if len(names) == 0 {
				continue
			}
			if len(indexes) > 0 {
				return mixed(fmt.Sprintf("signer_list[%d][%s][%s]", i, sub, names[0]), fmt.Sprintf("signer_list[%d][%s][%s]", i, sub, indexes[0]), "signer_list")
			}
			old = true
			names = order(i, sub, names)
			list := make([]any, 0, len(names))
			for _, n := range names {
				path := fmt.Sprintf("signer_list[%d][%s][%s]", i, sub, n)
				if sub == "signers" {
					fields, ok := obj[n].(map[string]any)
					if !ok {
						return apierr.Badf(path, "%s must give the fields of the role %q, as %s[email_address]", path, n, path)
					}
					entry := map[string]any{"role": n}
					for k, v := range fields {
						entry[k] = v
					}
					list = append(list, entry)
				} else {
					list = append(list, map[string]any{"name": n, "value": obj[n]})
				}
			}
			m[sub] = list
		}
		if old && older < 0 {
			older = i
		} else if !old && current < 0 {
			current = i
		}
		out[i] = m
	}
	if older < 0 {
		return nil
	}
	if current >= 0 {
		return mixed(fmt.Sprintf("signer_list[%d] (signers by role name)", older), fmt.Sprintf("signer_list[%d] (a list of signers)", current), "signer_list")
	}
	b.Tree["signer_list"] = out
	return nil
}
