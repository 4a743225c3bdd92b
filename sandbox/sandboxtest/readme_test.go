package sandboxtest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// TestContractFlow is the in-process example of docs/go.md, kept compiling
// and passing here.
func TestContractFlow(t *testing.T) {
	srv := sandboxtest.NewServer(t, sandbox.WithOfflineFiles()) // fake clock at 2025-01-01T00:00:00Z; placeholders for file_urls

	rcv := sandboxtest.NewReceiver(t) // answers "Hello API Event Received"
	srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": rcv.URL})

	// your code under test talks to srv.URL + "/v3" with srv.APIKey (srv.Client adds the Basic auth)
	r := srv.Do(http.MethodPost, "/v3/signature_request/send", map[string]any{
		"title": "NDA", "test_mode": true, "file_urls": []string{"https://example.com/nda.pdf"},
		"signers": []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}},
	})
	if r.Status != http.StatusOK {
		t.Fatalf("send: %d %s", r.Status, r.Body)
	}
	sigID := r.Map()["signature_request"].(map[string]any)["signatures"].([]any)[0].(map[string]any)["signature_id"].(string)

	srv.AdvanceAndWait(10 * time.Second) // processing: signature_request_sent is delivered
	srv.View(sigID)                      // act as the signer
	srv.Sign(sigID, nil)
	srv.AdvanceAndWait(time.Minute) // all_signed, downloadable

	var types []string
	for _, d := range rcv.Deliveries() {
		if !d.VerifyHash(srv.APIKey) {
			t.Errorf("bad event_hash for %s", d.EventType())
		}
		types = append(types, d.EventType())
	}
	want := []string{"callback_test", "signature_request_sent", "signature_request_viewed", "signature_request_signed",
		"signature_request_all_signed", "signature_request_downloadable"}
	if len(types) != len(want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	for i := range want {
		if types[i] != want[i] {
			t.Fatalf("events %v, want %v", types, want)
		}
	}
	if len(srv.Emails()) == 0 {
		t.Error("the outbox is empty")
	}
}
