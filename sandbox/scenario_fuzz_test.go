package sandbox

import (
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenarioworld"
	"github.com/signsandbox/signsandbox/scenarios"
)

// FuzzLoadScenario feeds the scenario loader arbitrary documents: it must
// never panic, and a refusal is always a 4xx in the official error shape.
func FuzzLoadScenario(f *testing.F) {
	for _, n := range scenarios.Names() {
		b, _ := scenarios.Read(n)
		f.Add(b)
	}
	for _, s := range []string{
		"", "name: x", "{}", "[]", "name: [", "name: x\nrules: [{gone: true, times: -1}]",
		"name: x\nseed:\n  signature_requests:\n    - {ref: r, body: {signers: [{name: a, email_address: a@b.c}]}, state: completed}",
		"name: x\nseed:\n  templates:\n    - {ref: t, body: {signer_roles: [{name: A}], form_fields_per_document: []}, state: error}",
		"name: x\nseed:\n  accounts: [{email_address: n@example.com, team: true, quotas: {templates_left: 1}}]",
		"name: &a x\nsteps: [*a]", "name: x\nconfig: {rate_limit: {limit: 0}}", "\x00\xff",
	} {
		f.Add([]byte(s))
	}
	s, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := s.host.CreateWorld("fake", s.host.DefaultWorld().Now())
		if err != nil {
			t.Fatal(err)
		}
		defer s.host.DropWorld(w)
		_, err = scenarioworld.LoadSource(s.host, w, "fuzz.yaml", data, nil)
		if err == nil {
			return
		}
		e, ok := apierr.As(err)
		if !ok {
			t.Fatalf("not an API error: %v", err)
		}
		if st := e.Status(); st < 400 || st > 499 {
			t.Fatalf("status %d for %q: %v", st, data, err)
		}
		if strings.TrimSpace(e.Msg) == "" {
			t.Fatalf("empty message for %q", data)
		}
	})
}
