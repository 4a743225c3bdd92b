package legacy

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// customFieldsByName maps custom_fields[Field Name]=value (the Python SDK's
// form) onto the current list custom_fields[i][name|value], in body order.
// custom_fields given as a JSON string needs nothing here: the wire decoder
// reads a list parameter from JSON text already.
func customFieldsByName(_ string, b *wire.Body) error {
	m, ok := b.Tree["custom_fields"].(map[string]any)
	if !ok {
		return nil
	}
	indexes, names := splitKeys(m)
	if len(names) == 0 {
		return nil
	}
	names = inBodyOrder(b.Order, "custom_fields", names)
	if len(indexes) > 0 {
		return mixed("custom_fields["+names[0]+"]", "custom_fields["+indexes[0]+"]", "custom_fields")
	}
	list := make([]any, 0, len(names))
	for _, n := range names {
		v, ok := m[n].(string)
		if !ok {
			return apierr.Badf("custom_fields["+n+"]", "custom_fields[%s] must be the field's value (text)", n)
		}
		list = append(list, map[string]any{"name": n, "value": v})
	}
	b.Tree["custom_fields"] = list
	return nil
}

// apiAppFields: older SDKs name an API app's one domain domain (now the list
// domains) and send its OAuth scopes as one comma-separated text
// (oauth[scopes]=basic_account_info,request_signature).
func apiAppFields(operationID string, b *wire.Body) error {
	if !strings.HasPrefix(operationID, "apiApp") {
		return nil
	}
	if d, ok := b.Tree["domain"]; ok {
		if _, both := b.Tree["domains"]; both {
			return mixed("domain", "domains", "domains")
		}
		b.Tree["domains"] = d
		delete(b.Tree, "domain")
	}
	if oauth, ok := b.Tree["oauth"].(map[string]any); ok {
		if s, ok := oauth["scopes"].(string); ok && strings.Contains(s, ",") {
			var scopes []any
			for part := range strings.SplitSeq(s, ",") {
				if p := strings.TrimSpace(part); p != "" {
					scopes = append(scopes, p)
				}
			}
			oauth["scopes"] = scopes
		}
	}
	return nil
}
