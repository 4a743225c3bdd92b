package console_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// loadControlSpec reads /_sandbox/openapi.yaml from the server and checks
// it is a valid OpenAPI 3 document.
func loadControlSpec(t *testing.T, srv *sandboxtest.Server) *conformance.ControlSpec {
	r := srv.DoAs("", http.MethodGet, "/_sandbox/openapi.yaml", nil)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Contains(t, r.Header.Get("Content-Type"), "yaml")
	spec, err := conformance.LoadControl(r.Body)
	require.NoError(t, err)
	return spec
}

// TestControlPlaneDescription: /_sandbox/openapi.yaml is a valid OpenAPI 3
// document, and every answer of a described control call made here (every
// operation it describes, at least once, with refusals) is valid against
// it.
func TestControlPlaneDescription(t *testing.T) {
	srv := sandboxtest.NewServer(t)
	spec := loadControlSpec(t, srv)
	var mu sync.Mutex
	seen := map[string]bool{}
	srv.AddResponseCheck(func(req *http.Request, resp *http.Response, body []byte) {
		id, err := spec.Validate(req, resp.StatusCode, resp.Header, body)
		if id == "" {
			return
		}
		mu.Lock()
		seen[id] = true
		mu.Unlock()
		if err != nil {
			t.Errorf("%v\n%.600s", err, body)
		}
	})

	do := func(method, path string, body any) *sandboxtest.Response {
		return srv.DoAs(srv.APIKey, method, path, body)
	}
	do(http.MethodGet, "/_sandbox/health", nil)
	other := srv.NewWorld()
	do(http.MethodGet, "/_sandbox/world", nil)
	do(http.MethodGet, "/_sandbox/clock", nil)
	do(http.MethodGet, "/_sandbox/config", nil)
	do(http.MethodPatch, "/_sandbox/config", map[string]any{"reminder_interval": "2h"})
	do(http.MethodPatch, "/_sandbox/config", map[string]any{"reminder_interval": "soon"})
	do(http.MethodPut, "/_sandbox/config", map[string]any{"max_file_bytes": 1 << 20})
	do(http.MethodPut, "/_sandbox/config", map[string]any{"max_file_bytes": "big"})
	id, sigs := sendRequest(t, srv, srv.APIKey, simpleFields("Described", "ann"), "d.pdf")
	_, sigs2 := sendRequest(t, srv, srv.APIKey, simpleFields("Bounced", "bob"), "b.pdf")
	do(http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "1m"})
	do(http.MethodPost, "/_sandbox/clock/advance", map[string]any{"duration": "backwards"})
	do(http.MethodPost, "/_sandbox/clock/pin", nil)
	do(http.MethodDelete, "/_sandbox/clock/pin", nil)
	do(http.MethodPost, "/_sandbox/signatures/"+sigs[0]+"/view", nil)
	do(http.MethodPost, "/_sandbox/signatures/"+sigs[0]+"/decline", map[string]any{"reason": "no"})
	do(http.MethodPost, "/_sandbox/signatures/"+sigs[0]+"/reassign", map[string]any{"name": "Cyd", "email_address": "cyd@example.com"})
	do(http.MethodPost, "/_sandbox/signatures/"+sigs2[0]+"/bounce", nil)
	do(http.MethodPost, "/_sandbox/signatures/"+sigs[0]+"/sign", map[string]any{})
	do(http.MethodPost, "/_sandbox/signatures/"+sigs[0]+"/sign", map[string]any{})
	do(http.MethodPost, "/_sandbox/signatures/nope/sign", map[string]any{})
	do(http.MethodGet, "/_sandbox/emails", nil)
	do(http.MethodGet, "/_sandbox/emails?signature_request_id="+id, nil)
	do(http.MethodGet, "/_sandbox/callbacks", nil)
	do(http.MethodPost, "/_sandbox/callbacks/wait", map[string]any{"timeout": "1s"})
	var page struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	r := do(http.MethodGet, "/_sandbox/console/api/callbacks?limit=5", nil)
	require.NoError(t, json.Unmarshal(r.Body, &page))
	require.NotEmpty(t, page.Items)
	do(http.MethodGet, "/_sandbox/console/api/callbacks/"+page.Items[0].ID, nil)
	do(http.MethodPost, "/_sandbox/callbacks/"+page.Items[0].ID+"/redeliver", nil)
	do(http.MethodGet, "/_sandbox/scenarios", nil)
	do(http.MethodPost, "/_sandbox/scenarios?name=happy-path", nil)
	do(http.MethodDelete, "/_sandbox/scenarios/happy-path", nil)
	do(http.MethodDelete, "/_sandbox/scenarios/happy-path", nil)
	state := do(http.MethodGet, "/_sandbox/state", nil)
	do(http.MethodPut, "/_sandbox/state", state.Body)
	var mails struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	r = do(http.MethodGet, "/_sandbox/console/api/emails", nil)
	require.NoError(t, json.Unmarshal(r.Body, &mails))
	require.NotEmpty(t, mails.Items)
	do(http.MethodGet, "/_sandbox/console/api/emails/"+mails.Items[0].ID, nil)
	do(http.MethodGet, "/_sandbox/console/api/emails/nope", nil)
	do(http.MethodGet, "/_sandbox/console/api/emails?q=kind:signature_request", nil)
	do(http.MethodGet, "/_sandbox/emails/"+mails.Items[0].ID, nil)
	do(http.MethodGet, "/_sandbox/emails/"+mails.Items[0].ID+"/html", nil)
	do(http.MethodGet, "/_sandbox/emails/"+mails.Items[0].ID+"/text", nil)
	do(http.MethodGet, "/_sandbox/emails/nope", nil)
	do(http.MethodGet, "/_sandbox/emails/nope/html", nil)
	do(http.MethodGet, "/_sandbox/emails/nope/text", nil)
	do(http.MethodPatch, "/_sandbox/emails/"+mails.Items[0].ID, map[string]any{"read": true})
	do(http.MethodPatch, "/_sandbox/emails/"+mails.Items[0].ID, map[string]any{})
	do(http.MethodPatch, "/_sandbox/emails/nope", map[string]any{"read": false})
	do(http.MethodGet, "/_sandbox/emails?q=is:read", nil)
	do(http.MethodGet, "/_sandbox/console/api/changes", nil)
	do(http.MethodGet, "/_sandbox/console/api/changes?since=999999", nil)
	do(http.MethodGet, "/_sandbox/console/api/counts", nil)
	do(http.MethodGet, "/_sandbox/console/api/world_actions", nil)
	srv.DoAs("", http.MethodGet, "/_sandbox/worlds", nil)
	do(http.MethodGet, "/_sandbox/worlds", nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests?q=status%3Asigned", nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests?q=nofield%3Ax", nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests?q=described", nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests?cursor=x", nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests/"+id, nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests/nope", nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests/"+id+"/documents/0", nil)
	do(http.MethodGet, "/_sandbox/console/api/signature_requests/"+id+"/documents/5", nil)
	do(http.MethodGet, "/_sandbox/console/api/oauth_tokens", nil)
	do(http.MethodGet, "/_sandbox/console/api/objects/account", nil)
	do(http.MethodGet, "/_sandbox/console/api/objects/signature_request/"+id, nil)
	do(http.MethodGet, "/_sandbox/console/api/objects/nothing", nil)
	var keys struct {
		APIKeys []struct {
			Key     string `json:"key"`
			Primary bool   `json:"primary"`
		} `json:"api_keys"`
	}
	do(http.MethodGet, "/_sandbox/api_keys", nil)
	do(http.MethodGet, "/_sandbox/api_keys?account_id=nope", nil)
	r = do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"name": "second"})
	require.NoError(t, json.Unmarshal(r.Body, &keys))
	do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": "short"})
	for _, k := range keys.APIKeys {
		do(http.MethodPatch, "/_sandbox/api_keys/"+k.Key, map[string]any{"name": "renamed"})
	}
	do(http.MethodPatch, "/_sandbox/api_keys/"+srv.APIKey, map[string]any{"name": " "})
	do(http.MethodPatch, "/_sandbox/api_keys/"+srv.APIKey, map[string]any{"nom": "x"})
	do(http.MethodPatch, "/_sandbox/api_keys/nope", map[string]any{"name": "x"})
	for _, k := range keys.APIKeys {
		if !k.Primary {
			do(http.MethodPost, "/_sandbox/api_keys/"+k.Key+"/primary", nil)
			do(http.MethodPost, "/_sandbox/api_keys/"+srv.APIKey+"/primary", nil)
			do(http.MethodDelete, "/_sandbox/api_keys/"+srv.APIKey, nil)
			do(http.MethodDelete, "/_sandbox/api_keys/"+k.Key, nil)
		}
	}
	do(http.MethodDelete, "/_sandbox/api_keys/nope", nil)
	do(http.MethodPost, "/_sandbox/api_keys/nope/primary", nil)
	do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{})
	do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": "nope", "state": "s"})
	do(http.MethodPost, "/_sandbox/oauth/tokens/nope/revoke", nil)
	do(http.MethodPost, "/_sandbox/accounts/nope/confirm", nil)
	do(http.MethodPost, "/_sandbox/teams", map[string]any{"name": "Sub"})
	do(http.MethodPost, "/_sandbox/teams", map[string]any{})
	_, sigs3 := sendRequest(t, srv, srv.APIKey, simpleFields("Failed", "fay"), "f.pdf")
	do(http.MethodPost, "/_sandbox/signatures/"+sigs3[0]+"/eid_incomplete", map[string]any{"reason": "no id"})
	do(http.MethodPost, "/_sandbox/signatures/nope/eid_incomplete", map[string]any{})
	do(http.MethodPost, "/_sandbox/signature_requests/"+id+"/fail", map[string]any{})
	do(http.MethodPost, "/_sandbox/signature_requests/nope/fail", map[string]any{})
	do(http.MethodPost, "/_sandbox/templates/nope/finish_draft", map[string]any{})
	tpl := createTemplate(t, srv, srv.APIKey)
	do(http.MethodGet, "/_sandbox/templates/"+tpl+"/fields", nil)
	do(http.MethodGet, "/_sandbox/templates/nope/fields", nil)
	do(http.MethodPut, "/_sandbox/templates/"+tpl+"/fields", map[string]any{"fields": []map[string]any{
		{"api_id": "sig", "type": "signature", "document_index": 0, "page": 1, "x": 50, "y": 60, "width": 180, "height": 40, "required": true, "signer": "Client"},
	}})
	do(http.MethodPut, "/_sandbox/templates/"+tpl+"/fields", map[string]any{"fields": []map[string]any{{"api_id": "x", "type": "text", "signer": "Nobody"}}})
	do(http.MethodGet, "/_sandbox/templates/"+tpl+"/documents/0", nil)
	do(http.MethodGet, "/_sandbox/templates/"+tpl+"/documents/9", nil)
	do(http.MethodGet, "/_sandbox/unclaimed_drafts/nope", nil)
	do(http.MethodPost, "/_sandbox/unclaimed_drafts/nope/claim", map[string]any{})
	do(http.MethodGet, "/_sandbox/record", nil)
	do(http.MethodPost, "/_sandbox/record/stop", nil)
	do(http.MethodPost, "/_sandbox/record/start", map[string]any{"name": "described"})
	do(http.MethodPost, "/_sandbox/record/start", map[string]any{"name": "described"})
	do(http.MethodGet, "/_sandbox/health", nil)
	do(http.MethodGet, "/_sandbox/record", nil)
	do(http.MethodPost, "/_sandbox/record/stop", nil)
	do(http.MethodGet, "/_sandbox/operations", nil)
	do(http.MethodGet, "/_sandbox/ready", nil)
	do(http.MethodGet, "/_sandbox/metrics", nil)
	// The pages behind the links the sandbox hands out.
	pagePath := func(raw string) string {
		u, err := url.Parse(raw)
		require.NoError(t, err)
		return u.Path
	}
	var emb struct {
		SignatureRequest struct {
			ID         string `json:"signature_request_id"`
			Signatures []struct {
				ID string `json:"signature_id"`
			} `json:"signatures"`
		} `json:"signature_request"`
	}
	require.NoError(t, json.Unmarshal(postFile(t, srv, srv.APIKey, "/v3/signature_request/create_embedded", map[string]string{
		"client_id": fixtureClientID, "test_mode": "1", "signers[0][name]": "Pia", "signers[0][email_address]": "pia@example.com",
	}, "p.pdf"), &emb))
	srv.Advance(time.Minute)
	var signURL struct {
		Embedded struct {
			SignURL string `json:"sign_url"`
		} `json:"embedded"`
	}
	r = do(http.MethodGet, "/v3/embedded/sign_url/"+emb.SignatureRequest.Signatures[0].ID, nil)
	require.NoError(t, json.Unmarshal(r.Body, &signURL), "%s", r.Body)
	sign := pagePath(signURL.Embedded.SignURL)
	world := strings.Split(strings.TrimPrefix(sign, "/_sandbox/w/"), "/")[0]
	do(http.MethodGet, sign, nil)
	do(http.MethodGet, sign+"/documents/0", nil)
	do(http.MethodGet, sign+"/documents/1", nil) // the appended signature page
	do(http.MethodGet, sign+"/documents/7", nil)
	do(http.MethodGet, sign+"/logo", nil)
	do(http.MethodPost, sign, map[string]any{"action": "dance"})
	do(http.MethodPost, sign, map[string]any{"action": "sign"})
	do(http.MethodGet, "/_sandbox/w/"+world+"/sign/nope", nil)
	do(http.MethodGet, "/_sandbox/w/"+world+"/requests/"+emb.SignatureRequest.ID, nil)
	do(http.MethodGet, "/_sandbox/w/"+world+"/requests/nope", nil)
	do(http.MethodGet, "/_sandbox/w/"+world+"/requests/"+emb.SignatureRequest.ID+"/logo", nil)
	var draft struct {
		Template struct {
			EditURL string `json:"edit_url"`
		} `json:"template"`
	}
	require.NoError(t, json.Unmarshal(postFile(t, srv, srv.APIKey, "/v3/template/create_embedded_draft", map[string]string{
		"client_id": fixtureClientID, "test_mode": "1", "signer_roles[0][name]": "Client",
	}, "e.pdf"), &draft))
	editor := pagePath(draft.Template.EditURL)
	do(http.MethodGet, editor, nil)
	do(http.MethodGet, editor+"/documents/0", nil)
	do(http.MethodGet, editor+"/logo", nil)
	do(http.MethodPost, editor, nil)
	do(http.MethodGet, editor, nil)
	var unclaimed struct {
		Draft struct {
			ClaimURL string `json:"claim_url"`
		} `json:"unclaimed_draft"`
	}
	require.NoError(t, json.Unmarshal(postFile(t, srv, srv.APIKey, "/v3/unclaimed_draft/create_embedded", map[string]string{
		"client_id": fixtureClientID, "test_mode": "1", "requester_email_address": "owner@sandbox.example",
		"signers[0][name]": "Cleo", "signers[0][email_address]": "cleo@example.com",
	}, "c.pdf"), &unclaimed))
	claim := pagePath(unclaimed.Draft.ClaimURL)
	do(http.MethodGet, claim, nil)
	do(http.MethodGet, claim+"/documents/0", nil)
	do(http.MethodGet, claim+"/logo", nil)
	do(http.MethodPost, claim, nil)
	do(http.MethodGet, claim, nil)
	do(http.MethodGet, "/_sandbox/pages/docview.mjs", nil)
	do(http.MethodGet, "/_sandbox/pages/pages.css", nil)
	do(http.MethodGet, "/_sandbox/pages/nope.js", nil)

	// The successful answers of calls refused above.
	var code struct {
		Code string `json:"code"`
	}
	r = do(http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": fixtureClientID, "state": "s"})
	require.NoError(t, json.Unmarshal(r.Body, &code), "%s", r.Body)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	r = srv.DoAs("", http.MethodPost, "/oauth/token", map[string]any{"client_id": fixtureClientID, "client_secret": fixtureClientSecret,
		"code": code.Code, "grant_type": "authorization_code", "state": "s"})
	require.NoError(t, json.Unmarshal(r.Body, &tok), "%s", r.Body)
	require.NotEmpty(t, tok.AccessToken, "%s", r.Body)
	r = do(http.MethodPost, "/_sandbox/oauth/tokens/"+tok.AccessToken+"/revoke", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var acct struct {
		Account struct {
			AccountID string `json:"account_id"`
		} `json:"account"`
	}
	r = do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "newcomer@example.com"})
	require.NoError(t, json.Unmarshal(r.Body, &acct), "%s", r.Body)
	require.NotEmpty(t, acct.Account.AccountID, "%s", r.Body)
	r = do(http.MethodPost, "/_sandbox/accounts/"+acct.Account.AccountID+"/confirm", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var draft2 struct {
		Template struct {
			ID string `json:"template_id"`
		} `json:"template"`
	}
	require.NoError(t, json.Unmarshal(postFile(t, srv, srv.APIKey, "/v3/template/create_embedded_draft", map[string]string{
		"client_id": fixtureClientID, "test_mode": "1", "signer_roles[0][name]": "Client",
	}, "f.pdf"), &draft2))
	r = do(http.MethodPost, "/_sandbox/templates/"+draft2.Template.ID+"/finish_draft", map[string]any{"title": "Finished"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	// The pages people open from links: the console and its assets, this
	// description, a file URL, a report's CSV and a team invitation.
	for _, path := range []string{"/_sandbox/openapi.yaml", "/_sandbox/console", "/_sandbox/console/", "/_sandbox/console/app.js",
		"/_sandbox/console/nothing.js", "/_sandbox/console/vendor/pdfjs/pdf.min.mjs"} {
		srv.DoAs("", http.MethodGet, path, nil)
	}
	srv.Advance(time.Minute)
	var fileURL struct {
		FileURL string `json:"file_url"`
	}
	r = do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil)
	require.NoError(t, json.Unmarshal(r.Body, &fileURL), "%s", r.Body)
	require.NotEmpty(t, fileURL.FileURL, "%s", r.Body)
	filePath := strings.TrimPrefix(fileURL.FileURL, srv.URL)
	srv.DoAs("", http.MethodGet, filePath, nil)
	srv.DoAs("", http.MethodHead, filePath, nil)
	srv.DoAs("", http.MethodGet, filePath+"x", nil)
	r = do(http.MethodPost, "/v3/report/create", map[string]any{"start_date": "12/01/2024", "end_date": "01/01/2025", "report_type": []string{"user_activity"}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Advance(time.Minute)
	reports := srv.Emails("kind=report")
	require.NotEmpty(t, reports)
	srv.DoAs("", http.MethodGet, strings.TrimPrefix(reports[len(reports)-1].Link, srv.URL), nil)
	r = do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "described.invitee@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	invites := srv.Emails("kind=team_invite")
	require.NotEmpty(t, invites)
	invite := strings.TrimPrefix(invites[len(invites)-1].Link, srv.URL)
	r = srv.DoAs("", http.MethodGet, invite, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.DoAs("", http.MethodPost, invite, nil)
	require.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)
	do(http.MethodDelete, "/_sandbox/emails", map[string]any{"all": true})
	do(http.MethodDelete, "/_sandbox/emails", nil)
	do(http.MethodPost, "/_sandbox/reset", nil)
	srv.DoAs(other.APIKey, http.MethodDelete, "/_sandbox/world", nil)
	do(http.MethodDelete, "/_sandbox/world", nil)
	srv.Advance(time.Second)

	var missing []string
	for _, id := range spec.OperationIDs() {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "described operations this test never called")
}
