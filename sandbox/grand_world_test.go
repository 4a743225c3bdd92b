package sandbox_test

// The grand round trip: a world holding every kind of object in many
// states is exported, imported into a fresh sandbox and exported again
// (byte for byte the same), and then the original and the imported world
// are driven through the same calls and clock moves: their answers and
// their exports afterwards must be identical. Anything a world keeps
// outside its tables, or a table that does not round-trip through JSON,
// shows up here.

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// grandBase is the public base URL of both sandboxes of the round trip, so
// that the URLs they hand out (and store) are the same.
const grandBase = "https://sandbox.example"

// srTagsPDF is a letter page with a signature text tag for each of two
// signers.
func srTagsPDF() []byte {
	return pdftest.MakePDF(pdftest.Letter("Alice: [sig|req|signer1||alice_sig]   Bob: [sig|req|signer2||bob_sig]"))
}

func grandServer(t *testing.T) *sandboxtest.Server {
	t.Helper()
	return apitest.NewCheckedServer(t, true, sandbox.WithBaseURL(grandBase), sandbox.WithOfflineFiles())
}

// grandIDs are the objects of the grand world that the continuation acts
// on (ids are the same in the imported world).
type grandIDs struct {
	partial, partialNext  string // a request one signer signed: the next signature
	held                  string // on_hold_by_requester
	toCancel              string // sent, canceled during the continuation
	processing            string // still processing at export
	embeddedSig           string // a signature of an embedded request
	remindEmail, remindID string // a request whose signer can be reminded
	pendingAccount        string // created through the app, unconfirmed
	refreshToken          string
	accessToken           string
	templatePreparing     string
	claimURL              string // an unclaimed draft's claim page
	editURL               string // an embedded template draft's editor page
	complete              string // a completed request
	fax                   string
	ready                 string // a ready template
	updateSig             string // a signature whose signer the requester updates
	extraKey              string // an API key added through the control plane
}

// grandWorld builds the world in srv; receivers get the callbacks.
func grandWorld(t *testing.T, srv *sandboxtest.Server) grandIDs {
	t.Helper()
	var ids grandIDs
	ok := sandboxtest.NewReceiver(t)
	failing := sandboxtest.NewReceiver(t)
	failing.Answer(http.StatusInternalServerError, "receiver is failing")
	down := sandboxtest.NewReceiver(t)
	down.Close()
	must := func(r *sandboxtest.Response, status int) map[string]any {
		t.Helper()
		require.Equal(t, status, r.Status, "%s", r.Body)
		return r.Map()
	}
	send := func(body map[string]any) map[string]any {
		t.Helper()
		return apitest.SendRequest(t, srv, body)
	}
	reqID := func(sr map[string]any) string { return sr["signature_request_id"].(string) }
	process := func() { srv.AdvanceAndWait(time.Minute) }

	// Callbacks that are given up after about three days.
	apitest.SetCallbackURL(t, srv, srv.APIKey, failing.URL)
	send(apitest.TwoSigners())
	process()
	srv.AdvanceAndWait(4 * 24 * time.Hour)
	// From now on: the owner's deliveries succeed, the teammate's keep
	// failing (pending, with attempts), the app's receiver is down.
	apitest.SetCallbackURL(t, srv, srv.APIKey, ok.URL)
	apitest.SetCallbackURL(t, srv, apitest.TeammateKey, failing.URL)
	must(srv.Do(http.MethodPut, "/v3/api_app/"+apitest.ClientID, map[string]any{"callback_url": down.URL + "/app"}), http.StatusOK)

	// Accounts created through the app: one confirmed, one not.
	for _, email := range []string{"confirmed@example.com", "pending@example.com"} {
		a := must(srv.Do(http.MethodPost, "/v3/account/create", map[string]any{
			"email_address": email, "client_id": apitest.ClientID, "client_secret": apitest.AppSecret}), http.StatusOK)
		id := a["account"].(map[string]any)["account_id"].(string)
		if email == "confirmed@example.com" {
			srv.Control(http.MethodPost, "/accounts/"+id+"/confirm", nil, nil)
		} else {
			ids.pendingAccount = id
		}
	}
	// Keys, apps, OAuth.
	ids.extraKey = "grand-world-extra-key"
	srv.Control(http.MethodPost, "/api_keys", map[string]any{"name": "ci", "account_id": apitest.TeammateID, "key": ids.extraKey}, nil)
	must(srv.Do(http.MethodPost, "/v3/api_app", map[string]any{
		"name": "Second app", "domains": []string{"example.com"}, "callback_url": ok.URL + "/second",
		"oauth":                  map[string]any{"callback_url": "https://example.com/oauth", "scopes": []string{"basic_account_info", "request_signature"}},
		"white_labeling_options": map[string]any{"link_color": "#123456"},
	}), http.StatusCreated)

	// Teams: an invitation and a sub-team.
	team := must(srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "invitee@example.com"}), http.StatusOK)
	require.NotEmpty(t, team["team"].(map[string]any)["invited_emails"])
	srv.Control(http.MethodPost, "/teams", map[string]any{"name": "Sub team"}, nil)

	// Scenario rules: a respond rule that has fired, a template failure
	// (leaves a mark), and a rule still waiting.
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: grand
rules:
  - name: flaky-team
    match: {operation: teamGet}
    respond: {status: 503}
    times: 1
  - name: doomed
    match: {operation: templateCreate, fields: {title: Doomed}}
    fail_template: {message: "Cannot prepare."}
  - name: later
    match: {signer: "*@declines.example"}
    signer_action: {do: decline, after: 1h, reason: Scripted}
`)
	srv.Do(http.MethodGet, "/v3/team", nil)

	// Templates: ready and shared, in error (a broken file and a rule),
	// an embedded draft with its edit URL; the one still preparing is made
	// last.
	ready := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "scan.pdf", Data: []byte("not a PDF")})
	doomed := apitest.StandardTemplate()
	doomed["title"] = "Doomed"
	apitest.CreateTemplate(t, srv, srv.APIKey, doomed)
	draft := apitest.StandardTemplate()
	for _, k := range []string{"signer_roles", "form_fields_per_document", "form_field_groups", "attachments"} {
		delete(draft, k)
	}
	draft["client_id"] = apitest.ClientID
	ids.ready = ready
	single := apitest.BulkTemplate(t, srv) // prepares the templates above too
	must(srv.Do(http.MethodPost, "/v3/template/add_user/"+ready, map[string]any{"email_address": apitest.TeammateMail}), http.StatusOK)

	// Signature requests in every state.
	complete := send(apitest.TwoSigners())
	removed := send(apitest.TwoSigners())
	declining := apitest.TwoSigners()
	declining["allow_decline"] = true
	declined := send(declining)
	canceled := send(apitest.TwoSigners())
	expiring := apitest.TwoSigners()
	expiring["expires_at"] = srv.Now().Add(36 * time.Hour).Unix()
	expired := send(expiring)
	partial := send(apitest.TwoSigners())
	reassigning := apitest.TwoSigners()
	reassigning["allow_reassign"] = true
	reassigned := send(reassigning)
	toCancel := send(apitest.TwoSigners())
	unknown := send(apitest.TwoSigners())
	send(apitest.PlacementBody(apitest.SignatureField("lost", 100, 900, 120, 30))) // error_component_position
	must(apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send", apitest.TwoSigners(),
		apitest.PDFFile{Name: "broken.pdf", Data: []byte("%PDF-1.7 truncated")}), http.StatusOK) // error_file
	scripted := apitest.TwoSigners()
	scripted["allow_decline"] = true
	scripted["signers"] = []map[string]any{{"name": "Dee", "email_address": "dee@declines.example"}}
	send(scripted)
	eid := apitest.PlacementBody()
	eid["test_mode"], eid["is_eid"] = false, true
	eidReq := send(eid)
	edited := send(apitest.TwoSigners())
	embedded := apitest.CreateEmbeddedRequest(t, srv)
	withTemplate := must(srv.Do(http.MethodPost, "/v3/signature_request/send_with_template", map[string]any{
		"template_ids": []string{single}, "test_mode": true, "metadata": map[string]any{"n": 12345678901234567, "f": 0.1},
		"signers":       []map[string]any{{"role": "Client", "name": "Cy", "email_address": "cy@example.com"}},
		"ccs":           []map[string]any{{"role": "Accounting", "email_address": "acc@example.com"}},
		"custom_fields": []map[string]any{{"name": "company", "value": "ACME"}},
	}), http.StatusOK)["signature_request"].(map[string]any)
	held := apitest.EmbeddedDraftBody()
	held["hold_request"] = true
	heldDraft := apitest.Draft(t, srv, "create_embedded", held)
	ids.held = heldDraft["signature_request_id"].(string)
	srv.ClaimDraft(ids.held, nil)
	process()

	srv.View(apitest.SignatureID(complete, 0))
	srv.Sign(apitest.SignatureID(complete, 0), map[string]any{})
	srv.Sign(apitest.SignatureID(complete, 1), nil)
	srv.Sign(apitest.SignatureID(removed, 0), nil)
	srv.Sign(apitest.SignatureID(removed, 1), nil)
	srv.Decline(apitest.SignatureID(declined, 0), "No thanks.")
	must(srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+reqID(canceled), nil), http.StatusOK)
	srv.Sign(apitest.SignatureID(partial, 0), nil)
	ids.partial, ids.partialNext = reqID(partial), apitest.SignatureID(partial, 1)
	srv.Reassign(apitest.SignatureID(reassigned, 0), "Jo", "jo@example.com", "On leave.")
	srv.Bounce(apitest.SignatureID(toCancel, 0))
	srv.FailRequest(reqID(unknown), "error_unknown", "")
	srv.EIDIncomplete(apitest.SignatureID(eidReq, 0), "")
	srv.Sign(apitest.SignatureID(withTemplate, 0), nil)
	must(srv.Do(http.MethodPost, "/v3/signature_request/remind/"+reqID(toCancel), map[string]any{"email_address": "jack@example.com"}), http.StatusOK)
	ids.toCancel, ids.remindID, ids.remindEmail = reqID(toCancel), reqID(toCancel), "jack@example.com"
	r := must(apitest.SignURL(t, srv, apitest.SignatureID(embedded, 0)), http.StatusOK)
	require.NotEmpty(t, r["embedded"].(map[string]any)["sign_url"])
	ids.embeddedSig = apitest.SignatureID(embedded, 0)
	ids.complete, ids.updateSig = reqID(complete), apitest.SignatureID(toCancel, 1)
	edit := apitest.TwoSigners()
	edit["signers"] = []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}
	must(apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPut, "/v3/signature_request/edit/"+reqID(edited), edit, apitest.PDFFile{Name: "v2.pdf", Data: apitest.PDF(1)}), http.StatusOK)
	process()
	must(srv.Do(http.MethodPost, "/v3/signature_request/remove/"+reqID(removed), nil), http.StatusOK)
	must(srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+reqID(complete), nil), http.StatusOK)
	must(srv.Do(http.MethodGet, "/v3/signature_request/files_as_data_uri/"+reqID(complete), nil), http.StatusOK)

	// Documents that carry their own fields (text tags), every field type
	// with groups and rules, a template overlay, a deleted template, a
	// changed configuration, seeded objects.
	tagged := apitest.SendFiles(t, srv, apitest.TextTagsBody(), apitest.PDFUpload("tags.pdf", srTagsPDF()))
	rich := send(apitest.FieldsBody())
	srv.AdvanceAndWait(time.Minute)
	srv.Sign(apitest.SignatureID(tagged["signature_request"].(map[string]any), 0), nil)
	srv.Sign(apitest.SignatureID(rich, 0), nil)
	overlay := apitest.UpdateTemplateFiles(t, srv, ready, apitest.SamplePDF(t))
	_ = overlay
	broken := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "bad.pdf", Data: []byte("nope")})
	srv.AdvanceAndWait(time.Minute)
	must(srv.Do(http.MethodPost, "/v3/template/delete/"+broken, nil), http.StatusOK)
	srv.Control(http.MethodPatch, "/config", map[string]any{"reminder_interval": "2h", "sign_url_ttl": "3h"}, nil)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: seeded
seed:
  templates:
    - ref: tpl
      body:
        title: Seeded template
        signer_roles: [{name: Client}]
        form_fields_per_document:
          - {document_index: 0, api_id: s1, name: Sig, type: signature, x: 100, y: 100, width: 120, height: 30, required: true, signer: 0, page: 1}
      documents: [{name: seeded.txt, text: "A seeded template."}]
  signature_requests:
    - ref: bad-address
      body: {title: Seeded failure, test_mode: true, signers: [{name: Ann, email_address: ann@example.com}]}
      documents: [{name: r.txt, text: "Hello."}]
      state: error_invalid_email
      message: No such mailbox.
    - ref: signed
      operation: signatureRequestSendWithTemplate
      templates: [tpl]
      body: {test_mode: true, signers: [{role: Client, name: Cat, email_address: cat@example.com}]}
      state: completed
`)

	// Bulk send, faxes and fax lines, a report.
	apitest.BulkJob(t, srv, "bulk_send_with_template", apitest.BulkBody(single))
	line := must(srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": 415, "country": "US"}), http.StatusOK)
	must(srv.Do(http.MethodPut, "/v3/fax_line/add_user", map[string]any{"number": line["fax_line"].(map[string]any)["number"], "email_address": apitest.TeammateMail}), http.StatusOK)
	ids.fax = must(apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "16690000001", "test_mode": "true"}), http.StatusOK)["fax"].(map[string]any)["fax_id"].(string)
	must(srv.Do(http.MethodPost, "/v3/report/create", map[string]any{
		"start_date": "01/01/2025", "end_date": "12/31/2025", "report_type": []string{"user_activity", "document_status"}}), http.StatusOK)
	srv.AdvanceAndWait(2 * 24 * time.Hour) // expiry, cancelation, bulk requests, the scripted decline

	// Pending work at the moment of the export: a request processing, a
	// cancelation queued, a template preparing, a bulk job queued,
	// deliveries waiting for their next attempt.
	ids.processing = reqID(send(apitest.TwoSigners()))
	must(srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+reqID(expired), nil), http.StatusBadRequest)
	queued := send(apitest.TwoSigners())
	_ = queued
	ids.templatePreparing = apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	apitest.BulkJob(t, srv, "bulk_send_with_template", apitest.BulkBody(single))
	// Pages and tokens that live an hour: an unclaimed draft's claim URL,
	// an embedded template draft's editor, OAuth tokens (and a code never
	// exchanged).
	ids.claimURL = apitest.Draft(t, srv, "create", apitest.DraftBody())["claim_url"].(string)
	tplDraft := must(apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create_embedded_draft", draft, apitest.PDFFile{Name: "d.pdf", Data: apitest.PDF(1)}), http.StatusOK)
	ids.editURL = tplDraft["template"].(map[string]any)["edit_url"].(string)
	secret := apitest.ClientSecret(t, srv)
	tok := apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", apitest.Authorize(t, srv, map[string]any{"state": "a"}), secret, "a"))
	ids.accessToken, ids.refreshToken = tok.AccessToken, tok.RefreshToken
	apitest.Authorize(t, srv, map[string]any{"state": "unused"})
	srv.WaitCallbacks()
	return ids
}

// grandContinue drives a world on from the grand state, recording every
// answer (status and body; headers carry rate-limit counters, which are
// not part of a world's state).
func grandContinue(t *testing.T, srv *sandboxtest.Server, ids grandIDs) []string {
	t.Helper()
	var log []string
	rec := func(label string, r *sandboxtest.Response) {
		body := string(r.Body)
		if ct := r.Header.Get("Content-Type"); !strings.Contains(ct, "json") && !strings.HasPrefix(ct, "text/") {
			body = fmt.Sprintf("%x", sha256.Sum256(r.Body)) // binary: its digest
		}
		log = append(log, fmt.Sprintf("%s -> %d %s %s", label, r.Status, grandHeaders(r.Header), body))
	}
	// page opens a URL the sandbox handed out, without credentials, as a
	// browser does (form: a POST).
	page := func(u string, form url.Values) *sandboxtest.Response {
		require.True(t, strings.HasPrefix(u, grandBase), u)
		method, body := http.MethodGet, ""
		if form != nil {
			method, body = http.MethodPost, form.Encode()
		}
		req, err := http.NewRequest(method, srv.URL+strings.TrimPrefix(u, grandBase), strings.NewReader(body))
		require.NoError(t, err)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("X-Sandboxtest-No-Auth", "1")
		r := srv.Send(req)
		rec(method+" "+u, r)
		return r
	}
	emailLink := func(kind string) string {
		var out struct {
			Emails []struct {
				Link string `json:"link"`
			} `json:"emails"`
		}
		srv.Control(http.MethodGet, "/emails?kind="+kind, nil, &out)
		require.NotEmpty(t, out.Emails, kind)
		return out.Emails[len(out.Emails)-1].Link
	}
	do := func(method, path string, body any) {
		rec(method+" "+path, srv.Do(method, path, body))
	}
	control := func(method, path string, body any) {
		rec(method+" "+path, srv.Do(method, sandbox.ControlPrefix+path, body))
	}
	advance := func(d time.Duration) {
		control(http.MethodPost, "/clock/advance", map[string]any{"duration": d.String()})
		control(http.MethodPost, "/callbacks/wait", map[string]any{"timeout": "30s"})
	}
	// The rate-limit windows start again (they are not exported).
	advance(2 * time.Minute)
	for _, p := range []string{"/v3/account", "/v3/signature_request/list?page_size=100", "/v3/template/list?page_size=100",
		"/v3/team", "/v3/team/invites", "/v3/api_app/list", "/v3/fax_line/list", "/v3/fax/list", "/v3/bulk_send_job/list",
		"/v3/signature_request/" + ids.partial, "/v3/signature_request/" + ids.processing, "/v3/template/" + ids.templatePreparing} {
		do(http.MethodGet, p, nil)
	}
	control(http.MethodPost, "/signatures/"+ids.partialNext+"/sign", map[string]any{})
	do(http.MethodPost, "/v3/signature_request/release_hold/"+ids.held, nil)
	do(http.MethodPost, "/v3/signature_request/remind/"+ids.remindID, map[string]any{"email_address": ids.remindEmail})
	do(http.MethodPost, "/v3/signature_request/update/"+ids.remindID, map[string]any{"signature_id": ids.updateSig, "email_address": "jill.new@example.com"})
	do(http.MethodPost, "/v3/signature_request/cancel/"+ids.toCancel, nil)
	signURL := srv.Do(http.MethodGet, "/v3/embedded/sign_url/"+ids.embeddedSig, nil)
	rec("sign_url", signURL)
	u := signURL.Map()["embedded"].(map[string]any)["sign_url"].(string)
	page(u, nil)
	page(u, url.Values{"action": {"sign"}})
	page(ids.claimURL, nil)
	page(ids.editURL, nil)
	page(emailLink("team_invite"), nil)
	page(emailLink("report"), nil)
	fileURL := srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+ids.complete, nil)
	rec("file_url", fileURL)
	page(fileURL.Map()["file_url"].(string), nil)
	for _, p := range []string{"/v3/signature_request/files/" + ids.complete, "/v3/signature_request/files/" + ids.complete + "?file_type=zip",
		"/v3/template/files/" + ids.ready, "/v3/fax/files/" + ids.fax, "/v3/fax/" + ids.fax} {
		do(http.MethodGet, p, nil)
	}
	control(http.MethodPost, "/accounts/"+ids.pendingAccount+"/confirm", nil)
	// Credentials that only the world's tables hold work in both.
	for label, r := range map[string]*sandboxtest.Response{
		"bearer account": apitest.Bearer(t, srv, ids.accessToken, http.MethodGet, "/v3/account", ""),
		"added key":      srv.DoAs(ids.extraKey, http.MethodGet, "/v3/account", nil),
	} {
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", label, r.Body)
	}
	rec("bearer account", apitest.Bearer(t, srv, ids.accessToken, http.MethodGet, "/v3/account", ""))
	rec("added key", srv.DoAs(ids.extraKey, http.MethodGet, "/v3/account", nil))
	rec("refresh", srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": ids.refreshToken}))
	do(http.MethodPost, "/v3/signature_request/send", map[string]any{
		"title": "After import", "test_mode": true, "file_urls": []string{"https://example.com/after.pdf"},
		"signers": []map[string]any{{"name": "Al", "email_address": "al@example.com"}}})
	advance(time.Minute)
	do(http.MethodGet, "/v3/signature_request/"+ids.processing, nil)
	do(http.MethodGet, "/v3/template/"+ids.templatePreparing, nil)
	do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+ids.partial, nil)
	advance(3 * 24 * time.Hour)
	do(http.MethodGet, "/v3/signature_request/list?page_size=100", nil)
	do(http.MethodGet, "/v3/bulk_send_job/list", nil)
	for _, p := range []string{"/callbacks", "/emails", "/scenarios", "/clock", "/api_keys"} {
		control(http.MethodGet, p, nil)
	}
	return log
}

// grandHeaders renders the headers of an answer that depend on the world:
// all but the transport's Date and the rate-limit counters (rate windows
// are not part of a world's state; an import starts them afresh).
func grandHeaders(h http.Header) string {
	var keys []string
	for k := range h {
		if k != "Date" && !strings.HasPrefix(strings.ToLower(k), "x-ratelimit-") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%q ", k, h[k])
	}
	return b.String()
}

// grandExport answers the world's export.
func grandExport(t *testing.T, srv *sandboxtest.Server) []byte {
	t.Helper()
	r := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Body
}

func TestGrandRoundTrip(t *testing.T) {
	orig := grandServer(t)
	ids := grandWorld(t, orig)
	first := grandExport(t, orig)

	var ws struct {
		Tables map[string][]json.RawMessage `json:"tables"`
	}
	require.NoError(t, json.Unmarshal(first, &ws))
	for _, name := range state.TableNames() {
		assert.NotEmpty(t, ws.Tables[name], "the grand world has rows in %s", name)
	}

	copied := grandServer(t)
	r := copied.Do(http.MethodPut, sandbox.ControlPrefix+"/state", first)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	second := grandExport(t, copied)
	requireSameJSON(t, first, second, "export, import, export")

	a, b := grandContinue(t, orig, ids), grandContinue(t, copied, ids)
	require.Equal(t, len(a), len(b))
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("answer %d differs after import:\noriginal: %.2000s\nimported: %.2000s", i, a[i], b[i])
		}
	}
	requireSameJSON(t, grandExport(t, orig), grandExport(t, copied), "the two worlds after the same calls")
}

// requireSameJSON compares two exports byte for byte and, when they
// differ, names the first rows that do.
func requireSameJSON(t *testing.T, a, b []byte, what string) {
	t.Helper()
	if string(a) == string(b) {
		return
	}
	var wa, wb struct {
		Clock  any                          `json:"clock"`
		Tables map[string][]json.RawMessage `json:"tables"`
	}
	require.NoError(t, json.Unmarshal(a, &wa))
	require.NoError(t, json.Unmarshal(b, &wb))
	assert.Equal(t, wa.Clock, wb.Clock, "%s: clock", what)
	var diffs []string
	for name, rows := range wa.Tables {
		other := wb.Tables[name]
		if len(rows) != len(other) {
			diffs = append(diffs, fmt.Sprintf("%s: %d rows vs %d", name, len(rows), len(other)))
			continue
		}
		for i := range rows {
			if string(rows[i]) != string(other[i]) {
				diffs = append(diffs, fmt.Sprintf("%s row %d:\n  %.1500s\n  %.1500s", name, i, rows[i], other[i]))
				break
			}
		}
	}
	t.Fatalf("%s: the exports differ:\n%s", what, strings.Join(diffs, "\n"))
}
