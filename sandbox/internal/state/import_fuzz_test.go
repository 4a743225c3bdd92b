package state

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzImportChecked feeds arbitrary exported tables to the checked import:
// it never panics, and whatever it accepts exports and imports again to the
// same bytes (the exact round trip holds for every state it lets in).
func FuzzImportChecked(f *testing.F) {
	st := seededStore(f)
	tables, err := Export(st.Read())
	if err != nil {
		f.Fatal(err)
	}
	seed, _ := json.Marshal(tables)
	f.Add(seed)
	delete(tables, TableOAuthToken) // the seeded token names no account
	seed, _ = json.Marshal(tables)
	f.Add(seed)
	f.Add([]byte(`{"meta":[{"id":"meta"}],"jobs":[{"id":"j","kind":"kind","subject":"nothing"}]}`))
	f.Add([]byte(`{"api_keys":[{"key":"k","account_id":""}]}`))
	known := func(kind string) bool { return kind == "kind" }
	f.Fuzz(func(t *testing.T, raw []byte) {
		var in Tables
		if json.Unmarshal(raw, &in) != nil {
			return
		}
		db, err := ImportChecked(in, known)
		if err != nil {
			return
		}
		now := func() time.Time { return exportTestNow }
		first, err := Export(NewStore(db, now).Read())
		if err != nil {
			t.Fatalf("an accepted state does not export: %v", err)
		}
		db2, err := ImportChecked(first, known)
		if err != nil {
			t.Fatalf("an export of an accepted state is refused: %v", err)
		}
		second, err := Export(NewStore(db2, now).Read())
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(first)
		b, _ := json.Marshal(second)
		if string(a) != string(b) {
			t.Fatalf("round trip differs:\n%s\n%s", a, b)
		}
	})
}
