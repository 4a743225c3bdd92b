package sandboxtest_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// sendRequests sends n offline requests with two signers each and lets
// them be processed (e-mails and events follow).
func sendRequests(t *testing.T, srv *sandboxtest.Server, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		r := srv.Do(http.MethodPost, "/v3/signature_request/send", map[string]any{
			"test_mode": true, "title": "Paged", "file_urls": []string{"https://example.com/nda.pdf"},
			"signers": []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}, {"name": "Jill", "email_address": "jill@example.com"}},
		})
		if r.Status != http.StatusOK {
			t.Fatalf("send: %d %s", r.Status, r.Body)
		}
	}
	srv.Advance(3 * time.Second)
}

func emailIDs(es []sandboxtest.Email) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// TestOutboxPagesAndLimit: the outbox keeps log_limit e-mails (the newest),
// Emails walks every page, and pages of any size follow each other in
// either order.
func TestOutboxPagesAndLimit(t *testing.T) {
	srv := sandboxtest.NewServer(t, sandbox.WithOfflineFiles())
	srv.Control(http.MethodPatch, "/config", map[string]any{"log_limit": 7}, nil)
	sendRequests(t, srv, 6)
	all := srv.Emails()
	if len(all) != 7 {
		t.Fatalf("the outbox holds %d e-mails, want its limit of 7", len(all))
	}

	var asc, desc []string
	for cursor, pages := "", 0; ; pages++ {
		rows, next := srv.EmailsPage(sandboxtest.PageOptions{Limit: 3, Cursor: cursor})
		if len(rows) > 3 || pages > 5 {
			t.Fatalf("page of %d rows after %d pages", len(rows), pages)
		}
		asc = append(asc, emailIDs(rows)...)
		if cursor = next; cursor == "" {
			break
		}
	}
	for cursor := ""; ; {
		rows, next := srv.EmailsPage(sandboxtest.PageOptions{Limit: 2, Cursor: cursor, NewestFirst: true})
		desc = append(desc, emailIDs(rows)...)
		if cursor = next; cursor == "" {
			break
		}
	}
	if !slices.Equal(asc, emailIDs(all)) {
		t.Errorf("pages oldest first = %v, want %v", asc, emailIDs(all))
	}
	slices.Reverse(desc)
	if !slices.Equal(desc, emailIDs(all)) {
		t.Errorf("pages newest first, reversed = %v, want %v", desc, emailIDs(all))
	}

	first, _ := srv.EmailsPage(sandboxtest.PageOptions{}, "to", "jill@example.com")
	for _, e := range first {
		if e.To != "jill@example.com" {
			t.Errorf("filter to: got an e-mail to %s", e.To)
		}
	}
	if len(first) == 0 {
		t.Error("filter to: no e-mail to jill@example.com")
	}
}

// TestCallbackLogKeepsPendingEntries: with a receiver that fails, every
// event stays pending and none is dropped, beyond the limit; once the
// receiver acknowledges and the retries are made, the log shrinks to its
// limit as new events arrive.
func TestCallbackLogKeepsPendingEntries(t *testing.T) {
	srv := sandboxtest.NewServer(t, sandbox.WithOfflineFiles())
	rcv := sandboxtest.NewReceiver(t)
	rcv.Fail()
	srv.Control(http.MethodPatch, "/config", map[string]any{"log_limit": 3}, nil)
	if r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": rcv.URL}); r.Status != http.StatusOK {
		t.Fatalf("set callback_url: %d %s", r.Status, r.Body)
	}
	sendRequests(t, srv, 3)
	srv.WaitCallbacks()
	pending := srv.Callbacks(sandboxtest.State("pending"))
	if len(pending) <= 3 {
		t.Fatalf("%d pending events; the test needs more than the limit of 3", len(pending))
	}
	if got := srv.Callbacks(); len(got) != len(pending) {
		t.Fatalf("log holds %d events, want all %d pending ones kept", len(got), len(pending))
	}

	rcv.Ack()
	srv.AdvanceAndWait(24 * time.Hour)
	sendRequests(t, srv, 1)
	srv.WaitCallbacks()
	if got := srv.Callbacks(); len(got) > 3 {
		t.Errorf("log holds %d events after they settled, want at most its limit of 3", len(got))
	}
	newest, next := srv.CallbacksPage(sandboxtest.PageOptions{Limit: 1, NewestFirst: true})
	if len(newest) != 1 || next == "" {
		t.Fatalf("newest page: %d rows, next %q", len(newest), next)
	}
}

// TestLogPagingRefusesBadParameters: a bad limit, cursor or order is a
// 400 naming the parameter.
func TestLogPagingRefusesBadParameters(t *testing.T) {
	srv := sandboxtest.NewServer(t)
	for _, c := range []struct{ query, field string }{
		{"limit=0", "limit"}, {"limit=1001", "limit"}, {"limit=ten", "limit"},
		{"cursor=abc", "cursor"}, {"order=sideways", "order"},
	} {
		for _, log := range []string{"/callbacks", "/emails"} {
			r := srv.Do(http.MethodGet, sandbox.ControlPrefix+log+"?"+c.query, nil)
			if r.Status != http.StatusBadRequest {
				t.Errorf("%s?%s: %d %s", log, c.query, r.Status, r.Body)
				continue
			}
			e, _ := r.Map()["error"].(map[string]any)
			if e["error_path"] != c.field {
				t.Errorf("%s?%s: error_path %v, want %s", log, c.query, e["error_path"], c.field)
			}
		}
	}
}
