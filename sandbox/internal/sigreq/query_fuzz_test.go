package sigreq

import "testing"

// FuzzSearchQuery: the query parser never panics and names the query
// parameter when it refuses.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range []string{"title:a AND (b OR c)", "created:[2014-01-01 TO *]", `to:"x y" OR *z`, "((", "a:b:c", "created:{x TO y}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		parsed, e := parseSearchQuery(q)
		if e != nil {
			if e.Path != "query" {
				t.Fatalf("%q: error path %q", q, e.Path)
			}
			return
		}
		matches(parsed, qReq(), nil)
	})
}
