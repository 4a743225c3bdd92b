package sandboxtest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// fatalT records the first Fatalf and stops the helper that called it, as
// testing.T does, so that a test can check a helper fails.
type fatalT struct {
	failed   string
	cleanups []func()
}

type fatalStop struct{}

func (t *fatalT) Helper()           {}
func (t *fatalT) Cleanup(fn func()) { t.cleanups = append(t.cleanups, fn) }
func (t *fatalT) Fatalf(f string, a ...any) {
	t.failed = fmt.Sprintf(f, a...)
	panic(fatalStop{})
}

func (t *fatalT) run(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatalStop); !ok {
				panic(r)
			}
		}
	}()
	fn()
}

// TestClaimDraft: a draft created without signers is claimed with the
// user's signer and becomes a signature request under the draft's id;
// claiming it again fails the test.
func TestClaimDraft(t *testing.T) {
	srv := sandboxtest.NewServer(t, sandbox.WithOfflineFiles())
	r := srv.Do(http.MethodPost, "/v3/unclaimed_draft/create", map[string]any{
		"type": "request_signature", "test_mode": true, "file_urls": []string{"https://example.com/nda.pdf"},
	})
	if r.Status != http.StatusOK {
		t.Fatalf("create draft: %d %s", r.Status, r.Body)
	}
	id := r.Map()["unclaimed_draft"].(map[string]any)["signature_request_id"].(string)

	sr := srv.ClaimDraft(id, map[string]any{"signers": []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}})
	if sr["signature_request_id"] != id {
		t.Errorf("signature_request_id = %v, want the draft's %s", sr["signature_request_id"], id)
	}
	sigs, _ := sr["signatures"].([]any)
	if len(sigs) != 1 || sigs[0].(map[string]any)["signer_email_address"] != "jack@example.com" {
		t.Errorf("signatures = %v, want the claimed signer", sigs)
	}
	if got := srv.Do(http.MethodGet, "/v3/signature_request/"+id, nil); got.Status != http.StatusOK {
		t.Errorf("GET the sent request: %d %s", got.Status, got.Body)
	}

	ft := &fatalT{}
	other := sandboxtest.NewServer(ft)
	defer func() {
		for i := len(ft.cleanups) - 1; i >= 0; i-- {
			ft.cleanups[i]()
		}
	}()
	ft.run(func() { other.ClaimDraft("nosuchdraft", nil) })
	if !strings.Contains(ft.failed, "claim draft nosuchdraft: 404") {
		t.Errorf("an unknown draft fails the test with its status, got %q", ft.failed)
	}
}
