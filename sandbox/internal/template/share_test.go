package template_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestTemplateSharingWithinTheTeam(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)

	// A team member sees the template but is not its creator.
	tm := apitest.GetTemplate(t, srv, apitest.TeammateKey, id)
	assert.Equal(t, false, tm["is_creator"])
	assert.Equal(t, false, tm["can_edit"])
	assert.Nil(t, tm["is_embedded"], "null when the viewer is not the creator")
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, ""))

	r := srv.Do(http.MethodPost, "/v3/template/add_user/"+id, map[string]any{"email_address": "Teammate@sandbox.example"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	accounts := r.Map()["template"].(map[string]any)["accounts"].([]any)
	require.Len(t, accounts, 2)
	assert.Equal(t, apitest.TeammateID, accounts[1].(map[string]any)["account_id"])
	assert.Equal(t, []string{id}, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, ""), "shared templates appear in the member's list")

	var mails struct {
		Emails []map[string]any `json:"emails"`
	}
	srv.Control(http.MethodGet, "/emails?kind=template_shared", nil, &mails)
	require.Len(t, mails.Emails, 1)
	assert.Equal(t, "teammate@sandbox.example", mails.Emails[0]["to"])
	assert.Equal(t, id, mails.Emails[0]["template_id"])

	// Sharing again changes nothing and sends nothing.
	r = srv.Do(http.MethodPost, "/v3/template/add_user/"+id, map[string]any{"account_id": apitest.TeammateID})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, r.Map()["template"].(map[string]any)["accounts"], 2)

	// A member it is shared with cannot manage it.
	r = srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/template/remove_user/"+id, map[string]any{"account_id": apitest.TeammateID})
	assert.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)

	// account_id prevails over email_address.
	r = srv.Do(http.MethodPost, "/v3/template/remove_user/"+id, map[string]any{"account_id": apitest.TeammateID, "email_address": "outsider@elsewhere.example"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, r.Map()["template"].(map[string]any)["accounts"], 1)
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, ""), "withdrawn")

	r = srv.Do(http.MethodPost, "/v3/template/add_user/"+id, map[string]any{"email_address": "teammate@sandbox.example", "skip_notification": true})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.Control(http.MethodGet, "/emails?kind=template_shared", nil, &mails)
	assert.Len(t, mails.Emails, 1, "skip_notification sends no e-mail")
}

func TestTemplateSharingBadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	cases := []struct {
		name        string
		key, op, id string
		body        map[string]any
		status      int
		errName     string
		path        string
	}{
		{"neither account_id nor email", srv.APIKey, "add_user", id, map[string]any{}, 400, "bad_request", "account_id"},
		{"invalid email", srv.APIKey, "add_user", id, map[string]any{"email_address": "not-an-email"}, 400, "bad_request", "email_address"},
		{"unknown account", srv.APIKey, "add_user", id, map[string]any{"email_address": "nobody@example.com"}, 404, "not_found", "email_address"},
		{"unknown account id", srv.APIKey, "remove_user", id, map[string]any{"account_id": "ffff"}, 404, "not_found", "account_id"},
		{"account outside the team", srv.APIKey, "add_user", id, map[string]any{"email_address": "outsider@elsewhere.example"}, 403, "forbidden", ""},
		{"not the owner", apitest.TeammateKey, "add_user", id, map[string]any{"email_address": "teammate@sandbox.example"}, 403, "forbidden", ""},
		{"outsider", apitest.OutsiderKey, "add_user", id, map[string]any{"email_address": "outsider@elsewhere.example"}, 404, "not_found", ""},
		{"unknown template", srv.APIKey, "add_user", "0123456789abcdef0123456789abcdef01234567", map[string]any{"account_id": apitest.TeammateID}, 404, "not_found", ""},
		{"remove the owner", srv.APIKey, "remove_user", id, map[string]any{"account_id": apitest.OwnerID}, 400, "bad_request", "account_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.DoAs(tc.key, http.MethodPost, "/v3/template/"+tc.op+"/"+tc.id, tc.body)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			name, _, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.errName, name)
			assert.Equal(t, tc.path, path)
		})
	}
}

func TestTemplateQuota(t *testing.T) {
	srv := apitest.NewServer(t)
	assert.EqualValues(t, 100, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])
	id := apitest.ReadyTemplate(t, srv)
	q := apitest.Quotas(t, srv, srv.APIKey)
	assert.EqualValues(t, 99, q["templates_left"], "a creation takes one")
	assert.EqualValues(t, 100, q["templates_total"], "the allowance does not change")

	// test_mode templates are outside the quota and locked.
	f := apitest.StandardTemplate()
	f["test_mode"] = true
	locked := apitest.CreateTemplate(t, srv, srv.APIKey, f)
	srv.Advance(apitest.TemplatePrepDelay)
	assert.EqualValues(t, 99, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])
	assert.Equal(t, true, apitest.GetTemplate(t, srv, srv.APIKey, locked)["is_locked"])
	assert.Equal(t, false, apitest.GetTemplate(t, srv, srv.APIKey, id)["is_locked"])

	// An overlay is a new template and takes one more.
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/update_files/"+id, map[string]any{},
		apitest.PDFFile{Name: "v2.pdf", Data: apitest.SamplePDF(t)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.EqualValues(t, 98, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])

	// Deleting a locked template gives nothing back; deleting a counted one
	// does.
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/template/delete/"+locked, nil).Status)
	assert.EqualValues(t, 98, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/template/delete/"+id, nil).Status)
	assert.EqualValues(t, 99, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])

	// An exhausted quota: the outsider's templates_left is 0.
	r = apitest.SendPDFs(t, srv, apitest.OutsiderKey, http.MethodPost, "/v3/template/create", apitest.StandardTemplate(),
		apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
	require.Equal(t, http.StatusPaymentRequired, r.Status, "%s", r.Body)
	name, _, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "payment_required", name)
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, apitest.OutsiderKey, ""), "nothing created")
	f = apitest.StandardTemplate()
	f["test_mode"] = "1"
	out := apitest.CreateTemplate(t, srv, apitest.OutsiderKey, f)
	assert.Equal(t, true, apitest.GetTemplate(t, srv, apitest.OutsiderKey, out)["is_locked"], "test_mode works without quota")
	assert.EqualValues(t, 0, apitest.Quotas(t, srv, apitest.OutsiderKey)["templates_left"])
}
