package sigreq_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// srQuickSend sends a JSON request with a file URL (offline worlds use a
// placeholder document).
func srQuickSend(t *testing.T, srv *sandboxtest.Server, key string, body map[string]any) string {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	body["file_urls"] = []string{"https://example.com/doc.pdf"}
	body["test_mode"] = true
	if body["signers"] == nil {
		body["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}
	}
	r := srv.DoAs(key, http.MethodPost, "/v3/signature_request/send", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
}

// TestListPagesOverAThousand pages through 1,000 requests newest first with
// exact list_info.
func TestListPagesOverAThousand(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	const n = 1000
	ids := make([]string, n)
	for i := 0; i < n; i++ {
		ids[i] = srQuickSend(t, srv, srv.APIKey, map[string]any{"title": "Request " + strconv.Itoa(i)})
	}
	seen := map[string]bool{}
	var order []string
	for page := 1; page <= 10; page++ {
		got, info := apitest.ListRequestIDs(t, srv, srv.APIKey, url.Values{"page": {strconv.Itoa(page)}, "page_size": {"100"}})
		require.Len(t, got, 100)
		assert.EqualValues(t, n, info["num_results"])
		assert.EqualValues(t, 10, info["num_pages"])
		assert.EqualValues(t, page, info["page"])
		assert.EqualValues(t, 100, info["page_size"])
		for _, id := range got {
			require.False(t, seen[id], "id listed twice")
			seen[id] = true
			order = append(order, id)
		}
	}
	for i := range order {
		require.Equal(t, ids[n-1-i], order[i], "newest first")
	}
	got, info := apitest.ListRequestIDs(t, srv, srv.APIKey, url.Values{"page": {"11"}, "page_size": {"100"}})
	assert.Empty(t, got, "past the last page")
	assert.EqualValues(t, n, info["num_results"])

	got, info = apitest.ListRequestIDs(t, srv, srv.APIKey, nil)
	assert.Len(t, got, 20, "page_size defaults to 20")
	assert.EqualValues(t, 1, info["page"])
	assert.EqualValues(t, 50, info["num_pages"])

	got, info = apitest.ListRequestIDs(t, srv, srv.APIKey, url.Values{"query": {"title:\"Request 99\""}, "page_size": {"5"}})
	assert.EqualValues(t, 11, info["num_results"], "Request 99 and Request 990..999")
	assert.Equal(t, ids[999], got[0])
}

func TestListParameters(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	for _, tc := range []struct {
		params url.Values
		path   string
	}{
		{url.Values{"page_size": {"0"}}, "page_size"},
		{url.Values{"page_size": {"101"}}, "page_size"},
		{url.Values{"page_size": {"ten"}}, "page_size"},
		{url.Values{"page": {"0"}}, "page"},
		{url.Values{"query": {"nosuch:field"}}, "query"},
		{url.Values{"query": {"*leading"}}, "query"},
	} {
		t.Run(tc.params.Encode(), func(t *testing.T) {
			apitest.WantError(t, apitest.ListRequests(t, srv, srv.APIKey, tc.params), http.StatusBadRequest, "bad_request", tc.path)
		})
	}
	apitest.WantError(t, apitest.ListRequests(t, srv, srv.APIKey, url.Values{"account_id": {apitest.OutsiderID}}), http.StatusForbidden, "forbidden", "account_id")
	apitest.WantError(t, apitest.ListRequests(t, srv, apitest.OutsiderKey, url.Values{"account_id": {apitest.OwnerID}}), http.StatusForbidden, "forbidden", "account_id")
}

// TestListAccountsAndCCs: sent and received requests are listed, CC-only
// ones are not; account_id picks a team member or the whole team.
func TestListAccountsAndCCs(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	toTeammate := srQuickSend(t, srv, srv.APIKey, map[string]any{
		"title": "to teammate", "signers": []map[string]any{{"name": "T", "email_address": apitest.TeammateMail}},
	})
	ccOutsider := srQuickSend(t, srv, srv.APIKey, map[string]any{
		"title": "cc outsider", "cc_email_addresses": []string{apitest.OutsiderMail},
	})
	byTeammate := srQuickSend(t, srv, apitest.TeammateKey, map[string]any{"title": "by teammate"})
	toOutsider := srQuickSend(t, srv, apitest.TeammateKey, map[string]any{
		"title": "to outsider", "signers": []map[string]any{{"name": "O", "email_address": apitest.OutsiderMail}},
	})

	own, _ := apitest.ListRequestIDs(t, srv, srv.APIKey, nil)
	assert.Equal(t, []string{ccOutsider, toTeammate}, own)
	mate, _ := apitest.ListRequestIDs(t, srv, apitest.TeammateKey, nil)
	assert.Equal(t, []string{toOutsider, byTeammate, toTeammate}, mate, "sent and received")
	out, _ := apitest.ListRequestIDs(t, srv, apitest.OutsiderKey, nil)
	assert.Equal(t, []string{toOutsider}, out, "CC-only requests are not listed")
	assert.Equal(t, http.StatusOK, apitest.GetRequest(t, srv, apitest.OutsiderKey, ccOutsider).Status, "but a CC can read it")

	viaAccount, _ := apitest.ListRequestIDs(t, srv, srv.APIKey, url.Values{"account_id": {apitest.TeammateID}})
	assert.Equal(t, mate, viaAccount)
	all, info := apitest.ListRequestIDs(t, srv, srv.APIKey, url.Values{"account_id": {"all"}})
	assert.Equal(t, []string{toOutsider, byTeammate, ccOutsider, toTeammate}, all, "team list, each request once")
	assert.EqualValues(t, 4, info["num_results"])
	allPage2, info := apitest.ListRequestIDs(t, srv, srv.APIKey, url.Values{"account_id": {"all"}, "page": {"2"}, "page_size": {"3"}})
	assert.Equal(t, []string{toTeammate}, allPage2)
	assert.EqualValues(t, 2, info["num_pages"])

	q, _ := apitest.ListRequestIDs(t, srv, apitest.TeammateKey, url.Values{"query": {"from:me"}})
	assert.Equal(t, []string{toOutsider, byTeammate}, q)
	q, _ = apitest.ListRequestIDs(t, srv, apitest.TeammateKey, url.Values{"query": {"to:me"}})
	assert.Equal(t, []string{toTeammate}, q)
	q, _ = apitest.ListRequestIDs(t, srv, apitest.TeammateKey, url.Values{"query": {"to:me OR title:outsider"}})
	assert.Equal(t, []string{toOutsider, toTeammate}, q)
}

// TestListQueriesOnState: complete, declined and created ranges.
func TestListQueriesOnState(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithOfflineFiles())
	a := srQuickSend(t, srv, srv.APIKey, map[string]any{"title": "first", "metadata": map[string]any{"deal": 42}})
	srv.Advance(48 * time.Hour)
	b := srQuickSend(t, srv, srv.APIKey, map[string]any{"title": "second", "allow_decline": true})
	srv.Advance(2 * time.Second)
	sa := apitest.GetRequestOK(t, srv, a)
	srv.Sign(apitest.SignatureID(sa, 0), nil)
	sb := apitest.GetRequestOK(t, srv, b)
	srv.Decline(apitest.SignatureID(sb, 0), "no thanks")

	check := func(q string, want ...string) {
		t.Helper()
		got, info := apitest.ListRequestIDs(t, srv, srv.APIKey, url.Values{"query": {q}})
		assert.Equal(t, want, got, q)
		assert.EqualValues(t, len(want), info["num_results"], q)
	}
	check("complete:true", a)
	check("declined:true", b)
	check("complete:false", b)
	check("created:[2025-01-01 TO 2025-01-01]", a)
	check("created:{2025-01-01 TO *]", b)
	check("metadata:42", a)
	check("test_mode:true", b, a)
	check("title:first OR title:second", b, a)
	check("title:first AND title:second")
}
