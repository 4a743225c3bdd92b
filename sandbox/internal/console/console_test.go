package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const base = "/_sandbox/console"

// TestConsolePageAndAssets: the page and its assets come from the binary,
// with a policy that forbids inline script and other origins; anything
// else under the console is a 404 page.
func TestConsolePageAndAssets(t *testing.T) {
	srv := newServer(t)
	for path, typ := range map[string]string{
		base + "/": "text/html", base: "text/html", base + "/app.js": "text/javascript", base + "/app.css": "text/css",
		base + "/vendor/pdfjs/pdf.min.mjs": "text/javascript", base + "/vendor/pdfjs/pdf.worker.min.mjs": "text/javascript",
		base + "/vendor/pdfjs/LICENSE.txt": "text/plain", base + "/vendor/pdfjs/README.txt": "text/plain",
	} {
		r := srv.DoAs("", http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, r.Status, path)
		assert.Contains(t, r.Header.Get("Content-Type"), typ, path)
		assert.Contains(t, r.Header.Get("Content-Security-Policy"), "script-src 'self'", path)
		assert.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"), path)
	}
	page := srv.DoAs("", http.MethodGet, base+"/", nil)
	assert.NotContains(t, string(page.Body), "http://", "the page loads nothing from elsewhere")
	assert.NotContains(t, string(page.Body), "https://", "the page loads nothing from elsewhere")

	readme := srv.DoAs("", http.MethodGet, base+"/vendor/pdfjs/README.txt", nil)
	assert.Contains(t, string(readme.Body), "pdfjs-dist at version 4.10.38", "the vendored PDF.js names its pinned version")
	licence := srv.DoAs("", http.MethodGet, base+"/vendor/pdfjs/LICENSE.txt", nil)
	assert.Contains(t, string(licence.Body), "Apache License")

	for _, path := range []string{base + "/nope.html", base + "/secret.go", base + "/..%2fconsole.go", base + "/api/nope", base + "/vendor/pdfjs/nope.mjs", base + "/vendor/other/x.js"} {
		r := srv.DoAs("", http.MethodGet, path, nil)
		assert.Equal(t, http.StatusNotFound, r.Status, path)
	}
	r := srv.DoAs("", http.MethodGet, base+"/nope.html", nil)
	assert.Contains(t, r.Header.Get("Content-Type"), "text/html")
	assert.Contains(t, string(r.Body), "Not found")
}

// TestConsoleRequestsNewestFirst: the list is newest first, pages with a
// cursor, and searches titles, signers and metadata.
func TestConsoleRequestsNewestFirst(t *testing.T) {
	srv := newServer(t)
	var ids []string
	for i, name := range []string{"Alpha lease", "Beta NDA", "Gamma offer"} {
		f := simpleFields(name, []string{"ann", "bob", "cyd"}[i])
		f["metadata[ref]"] = "ref-" + name[:1]
		id, _ := sendRequest(t, srv, srv.APIKey, f, "doc.pdf")
		ids = append(ids, id)
	}
	var all requestPage
	getJSON(t, srv, "", base+"/api/signature_requests", http.StatusOK, &all)
	require.Len(t, all.Items, 3)
	assert.Equal(t, []string{ids[2], ids[1], ids[0]}, all.ids())
	assert.Equal(t, "Gamma offer", all.Items[0].Title)
	assert.Equal(t, "awaiting_signature", all.Items[0].Signers[0].Status)

	var p1, p2, p3 requestPage
	getJSON(t, srv, "", base+"/api/signature_requests?limit=2", http.StatusOK, &p1)
	require.Equal(t, []string{ids[2], ids[1]}, p1.ids())
	require.NotEmpty(t, p1.Next)
	getJSON(t, srv, "", base+"/api/signature_requests?limit=2&cursor="+p1.Next, http.StatusOK, &p2)
	assert.Equal(t, []string{ids[0]}, p2.ids())
	assert.Empty(t, p2.Next)

	getJSON(t, srv, "", base+"/api/signature_requests?q=beta", http.StatusOK, &p3)
	assert.Equal(t, []string{ids[1]}, p3.ids())
	getJSON(t, srv, "", base+"/api/signature_requests?q=cyd%40example", http.StatusOK, &p3)
	assert.Equal(t, []string{ids[2]}, p3.ids())
	getJSON(t, srv, "", base+"/api/signature_requests?q=ref-A", http.StatusOK, &p3)
	assert.Equal(t, []string{ids[0]}, p3.ids())

	getJSON(t, srv, "", base+"/api/signature_requests?cursor=zz", http.StatusBadRequest, nil)
	getJSON(t, srv, "", base+"/api/signature_requests?limit=1000", http.StatusBadRequest, nil)
}

// TestConsoleRequestDetail: a request shows its signers with the ids the
// control plane's actions take, its audit trail, e-mails and callbacks; a
// refused action changes nothing; an unknown id is a 404.
func TestConsoleRequestDetail(t *testing.T) {
	srv := newServer(t)
	id, sigs := sendRequest(t, srv, srv.APIKey, simpleFields("Lease", "ann"), "lease.pdf")
	srv.Advance(time.Minute) // processing, then the signing e-mail

	var d struct {
		Status  string `json:"status"`
		Signers []struct {
			ID     string `json:"signature_id"`
			Status string `json:"status_code"`
		} `json:"signers"`
		Documents []string         `json:"documents"`
		Audit     []map[string]any `json:"audit"`
		Request   map[string]any   `json:"signature_request"`
	}
	getJSON(t, srv, "", base+"/api/signature_requests/"+id, http.StatusOK, &d)
	require.Len(t, d.Signers, 1)
	assert.Equal(t, sigs[0], d.Signers[0].ID)
	assert.Equal(t, []string{"lease.pdf"}, d.Documents)
	assert.Equal(t, id, d.Request["signature_request_id"])

	var mails struct {
		Items []struct {
			Kind string `json:"kind"`
			To   string `json:"to"`
			ID   string `json:"id"`
		} `json:"items"`
	}
	getJSON(t, srv, "", base+"/api/emails?signature_request_id="+id, http.StatusOK, &mails)
	require.NotEmpty(t, mails.Items)
	assert.Equal(t, "ann@example.com", mails.Items[len(mails.Items)-1].To)
	getJSON(t, srv, "", base+"/api/emails/"+mails.Items[0].ID, http.StatusOK, nil)

	// Decline is refused (the request does not allow it): the console shows
	// the control plane's error, and the request is as it was.
	r := srv.DoAs("", http.MethodPost, "/_sandbox/signatures/"+sigs[0]+"/decline", map[string]any{"reason": "no"})
	require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
	var after struct {
		Status string `json:"status"`
	}
	getJSON(t, srv, "", base+"/api/signature_requests/"+id, http.StatusOK, &after)
	assert.Equal(t, d.Status, after.Status)

	srv.Control(http.MethodPost, "/signatures/"+sigs[0]+"/sign", map[string]any{}, nil)
	getJSON(t, srv, "", base+"/api/signature_requests/"+id, http.StatusOK, &after)
	assert.NotEqual(t, d.Status, after.Status)

	var cbs struct {
		Items []struct {
			Type string `json:"event_type"`
		} `json:"items"`
	}
	getJSON(t, srv, "", base+"/api/callbacks?object_id="+id, http.StatusOK, &cbs)
	assert.NotEmpty(t, cbs.Items)

	var notFound struct {
		Error struct {
			Name string `json:"error_name"`
		} `json:"error"`
	}
	getJSON(t, srv, "", base+"/api/signature_requests/ffffffffffffffffffffffffffffffffffffffff", http.StatusNotFound, &notFound)
	assert.Equal(t, "not_found", notFound.Error.Name)
	getJSON(t, srv, "", base+"/api/emails/nope", http.StatusNotFound, nil)
	getJSON(t, srv, "", base+"/api/callbacks/nope", http.StatusNotFound, nil)
	getJSON(t, srv, "", base+"/api/objects/template/nope", http.StatusNotFound, nil)
	getJSON(t, srv, "", base+"/api/objects/no_such_kind", http.StatusNotFound, nil)
}

// TestConsoleObjectsAndCounts: every catalog kind lists and shows; the
// counts name every kind.
func TestConsoleObjectsAndCounts(t *testing.T) {
	srv := newServer(t)
	sendRequest(t, srv, srv.APIKey, simpleFields("Lease", "ann"), "lease.pdf")
	srv.Advance(time.Minute)
	var counts struct {
		Counts []struct {
			Kind  string `json:"kind"`
			Count int    `json:"count"`
		} `json:"counts"`
	}
	getJSON(t, srv, "", base+"/api/counts", http.StatusOK, &counts)
	byKind := map[string]int{}
	for _, c := range counts.Counts {
		byKind[c.Kind] = c.Count
	}
	assert.Equal(t, 1, byKind["signature_request"])
	assert.GreaterOrEqual(t, byKind["account"], 1)
	assert.GreaterOrEqual(t, byKind["email"], 1)
	for _, kind := range []string{"template", "unclaimed_draft", "bulk_send_job", "fax", "fax_line", "team", "api_app", "account", "signature_request"} {
		_, ok := byKind[kind]
		assert.True(t, ok, kind)
		var page struct {
			Items []json.RawMessage `json:"items"`
		}
		getJSON(t, srv, "", base+"/api/objects/"+kind, http.StatusOK, &page)
	}
	getJSON(t, srv, "", base+"/api/oauth_tokens", http.StatusOK, nil)
}

// TestConsoleNeverShowsAnotherWorld: a world's key opens that world only;
// without a key the console reads the default world.
func TestConsoleNeverShowsAnotherWorld(t *testing.T) {
	srv := newServer(t)
	other := srv.NewWorld()
	mine, _ := sendRequest(t, srv, srv.APIKey, simpleFields("Default world's", "ann"), "a.pdf")
	theirs, _ := sendRequest(t, srv, other.APIKey, simpleFields("Other world's", "bob"), "b.pdf")

	var def, oth requestPage
	getJSON(t, srv, "", base+"/api/signature_requests", http.StatusOK, &def)
	getJSON(t, srv, other.APIKey, base+"/api/signature_requests", http.StatusOK, &oth)
	assert.Equal(t, []string{mine}, def.ids())
	assert.Equal(t, []string{theirs}, oth.ids())
	getJSON(t, srv, other.APIKey, base+"/api/signature_requests/"+mine, http.StatusNotFound, nil)
	getJSON(t, srv, "", base+"/api/signature_requests/"+theirs, http.StatusNotFound, nil)
	getJSON(t, srv, "not-a-key", base+"/api/signature_requests", http.StatusUnauthorized, nil)
}

// TestConsoleChangesFeed: a console waiting on the feed wakes when the
// world changes (a clock advance from another tab), and only then.
func TestConsoleChangesFeed(t *testing.T) {
	srv := newServer(t)
	other := srv.NewWorld()
	var v0 struct {
		Version uint64 `json:"version"`
	}
	getJSON(t, srv, "", base+"/api/changes", http.StatusOK, &v0)

	done := make(chan uint64, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+base+"/api/changes?since="+itoa(v0.Version), nil)
		req.Header.Set("X-Sandboxtest-No-Auth", "1")
		resp, err := srv.Client.Do(req)
		if err != nil {
			done <- 0
			return
		}
		defer resp.Body.Close()
		var v struct {
			Version uint64 `json:"version"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&v)
		done <- v.Version
	}()
	// A change in another world does not wake it; reads do not either.
	srv.DoAs(other.APIKey, http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "1h"})
	getJSON(t, srv, "", "/_sandbox/clock", http.StatusOK, nil)
	select {
	case v := <-done:
		t.Fatalf("woke without a change of its world: %d", v)
	case <-time.After(150 * time.Millisecond):
	}
	srv.DoAs("", http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "1h"})
	select {
	case v := <-done:
		assert.Greater(t, v, v0.Version)
	case <-time.After(10 * time.Second):
		t.Fatal("the feed did not report the clock advance")
	}
}

// TestConsoleChangesWaitEndsWithCaller: a wait whose caller leaves ends.
func TestConsoleChangesWaitEndsWithCaller(t *testing.T) {
	srv := newServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+base+"/api/changes?since=999", nil)
	errc := make(chan error, 1)
	go func() {
		resp, err := srv.Client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	// since=999 differs from the version: it answers at once.
	select {
	case err := <-errc:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("a stale version must answer at once")
	}
	cancel()
}

func itoa(n uint64) string { return strings.TrimSpace(jsonNumber(n)) }

func jsonNumber(n uint64) string { b, _ := json.Marshal(n); return string(b) }
