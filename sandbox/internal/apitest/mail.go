package apitest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// E-mails: a world that sends one of every kind.

// SendToSigners sends a request for signature with file_urls (offline) and
// returns its id and signature ids.
func SendToSigners(t *testing.T, srv *sandboxtest.Server, fields map[string]any, signers ...string) (string, []string) {
	t.Helper()
	body := map[string]any{"test_mode": true, "file_urls": []string{"https://example.com/doc.pdf"}}
	for k, v := range fields {
		body[k] = v
	}
	var list []map[string]any
	for _, s := range signers {
		name, addr, _ := strings.Cut(s, " <")
		list = append(list, map[string]any{"name": name, "email_address": strings.TrimSuffix(addr, ">")})
	}
	body["signers"] = list
	r := srv.Do(http.MethodPost, "/v3/signature_request/send", body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sr := Obj(t, r.Map(), "signature_request")
	var sigs []string
	for _, s := range sr["signatures"].([]any) {
		sigs = append(sigs, s.(map[string]any)["signature_id"].(string))
	}
	return sr["signature_request_id"].(string), sigs
}

// WantOK fails t unless r is a 2xx.
func WantOK(t *testing.T, r *sandboxtest.Response) {
	t.Helper()
	require.True(t, r.Status/100 == 2, "%d %s", r.Status, r.Body)
}

// SendEveryEmailKind makes the world send an e-mail of every kind.
func SendEveryEmailKind(t *testing.T, srv *sandboxtest.Server) {
	t.Helper()
	a, sigs := SendToSigners(t, srv, map[string]any{"title": "Lease", "subject": "Your lease", "message": "Hello,\nplease sign the lease.",
		"allow_reassign": true}, "Jack Example <jack@example.com>", "Jill Example <jill@example.com>")
	srv.Advance(time.Minute)
	srv.Advance(2 * time.Hour)
	WantOK(t, srv.Do(http.MethodPost, "/v3/signature_request/remind/"+a, map[string]any{"email_address": "jack@example.com"}))
	WantOK(t, srv.SignerAction(sigs[1], "reassign", map[string]any{"name": "Kim New", "email_address": "kim@example.com", "reason": "Kim signs for us"}))
	WantOK(t, srv.SignerAction(sigs[0], "sign", map[string]any{}))
	var req map[string]any
	srv.Control(http.MethodGet, "/emails?kind=signature_request&to=kim@example.com", nil, &req)
	kim := req["emails"].([]any)[0].(map[string]any)["signature_id"].(string)
	WantOK(t, srv.SignerAction(kim, "sign", map[string]any{}))

	_, sigs = SendToSigners(t, srv, map[string]any{"title": "Declined deal", "allow_decline": true}, "Lou Example <lou@example.com>")
	srv.Advance(time.Minute)
	WantOK(t, srv.SignerAction(sigs[0], "decline", map[string]any{"reason": "The price is wrong"}))

	c, _ := SendToSigners(t, srv, map[string]any{"title": "Canceled deal"}, "Mo Example <mo@example.com>")
	srv.Advance(time.Minute)
	WantOK(t, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+c, nil))
	srv.Advance(time.Minute)

	tpl := ReadyTemplate(t, srv)
	WantOK(t, srv.Do(http.MethodPost, "/v3/template/add_user/"+tpl, map[string]any{"email_address": "teammate@sandbox.example"}))
	WantOK(t, srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "invitee@example.com"}))
	WantOK(t, srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "newcomer@example.com"}))
	WantOK(t, srv.Do(http.MethodPost, "/v3/report/create", map[string]any{"start_date": "12/01/2024", "end_date": "01/01/2025", "report_type": []string{"user_activity"}}))
	WantOK(t, SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "fay@example.com", "title": "Signed pages", "test_mode": "true"}))
	srv.Advance(time.Minute)
}

// WorldExport is the caller's world as GET /_sandbox/state shows it.
func WorldExport(t *testing.T, srv *sandboxtest.Server, key string) string {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return string(r.Body)
}
