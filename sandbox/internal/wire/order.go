package wire

import (
	"net/url"
	"strings"
)

// formKeyOrder lists the field names of a urlencoded body in the order they
// appear (url.ParseQuery keeps the values but not that order). The body
// parsed already, so every name unescapes; one that would not is skipped.
func formKeyOrder(raw string) []string {
	var order []string
	for pair := range strings.SplitSeq(raw, "&") {
		k, _, _ := strings.Cut(pair, "=")
		if k == "" {
			continue
		}
		if name, err := url.QueryUnescape(k); err == nil {
			order = append(order, name)
		}
	}
	return order
}
