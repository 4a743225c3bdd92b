package legacy_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/legacy"
)

var lgPathParam = regexp.MustCompile(`\{[a-z_]+\}`)

// Every legacy alias routes to its operation, and every official method and
// path still routes to its own operation: the aliases shadow nothing.
func TestLegacyAliasesRouteToTheirOperations(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, op := range sandbox.Operations() {
		path := lgPathParam.ReplaceAllString(op.Path, "0123456789abcdef")
		req := httptest.NewRequest(op.Method, sandbox.APIPrefix+path, nil)
		assert.Equal(t, op.ID, srv.Sandbox.OperationID(req), "%s %s", op.Method, op.Path)
	}
	require.NotEmpty(t, legacy.Aliases)
	for _, a := range legacy.Aliases {
		path := lgPathParam.ReplaceAllString(a.Path, "0123456789abcdef")
		req := httptest.NewRequest(a.Method, sandbox.APIPrefix+path, nil)
		assert.Equal(t, a.OperationID, srv.Sandbox.OperationID(req), "%s %s", a.Method, a.Path)
	}
	// The brief's list, spelled out.
	for _, want := range []legacy.Alias{
		{Method: "POST", Path: "/account", OperationID: "accountUpdate"},
		{Method: "POST", Path: "/team", OperationID: "teamUpdate"},
		{Method: "POST", Path: "/team/add_member", OperationID: "teamAddMember"},
		{Method: "POST", Path: "/team/destroy", OperationID: "teamDelete"},
	} {
		assert.Contains(t, legacy.Aliases, want)
	}
	req := httptest.NewRequest(http.MethodPost, sandbox.APIPrefix+"/team/remove_member", nil)
	assert.Equal(t, "teamRemoveMember", srv.Sandbox.OperationID(req), "POST is still the official method")
}

// The legacy update verbs answer what the official ones answer.
func TestLegacyUpdateVerbsAnswerAsTheOfficialOnes(t *testing.T) {
	cases := []struct {
		name, path, official string
		fields               []lgField
	}{
		{"account", "/v3/account", http.MethodPut, []lgField{{Name: "callback_url", Value: "https://hooks.example.com/old-sdk"}}},
		{"team", "/v3/team", http.MethodPut, []lgField{{Name: "name", Value: "Renamed by an old client"}}},
		{"team add_member", "/v3/team/add_member", http.MethodPut, []lgField{{Name: "email_address", Value: "invitee@example.com"}}},
		{"api app", "/v3/api_app/" + apitest.ClientID, http.MethodPut, []lgField{{Name: "name", Value: "Old SDK App"}, {Name: "domain", Value: "old.example.com"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			official := apitest.NewServer(t)
			want := lgForm(t, official, official.APIKey, tc.official, tc.path, tc.fields...)
			require.Equal(t, http.StatusOK, want.Status, "%s", want.Body)
			srv := apitest.NewServer(t)
			got := lgForm(t, srv, srv.APIKey, http.MethodPost, tc.path, tc.fields...)
			require.Equal(t, http.StatusOK, got.Status, "%s", got.Body)
			assert.JSONEq(t, string(want.Body), string(got.Body))
		})
	}
}

func TestLegacyTeamDestroyWithPOST(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/team/create", map[string]any{"name": "Short-lived"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/team/destroy", nil), http.StatusForbidden, "forbidden", "")
	r = srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/team/destroy", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body)
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/team", nil), http.StatusNotFound, "not_found", "")
}

func TestLegacyAccountValidate(t *testing.T) {
	srv := apitest.NewServer(t)
	r := lgForm(t, srv, srv.APIKey, http.MethodPost, "/v3/account/validate", lgField{Name: "email_address", Value: apitest.TeammateMail})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, apitest.TeammateMail, r.Map()["account"].(map[string]any)["email_address"])
}

// GET /embedded/edit_url reads its options from the query string; POST
// /embedded/sign_url is the GET; GET final_copy is the files as a PDF.
func TestLegacyEmbeddedAndFinalCopy(t *testing.T) {
	srv := apitest.NewServer(t)
	f := apitest.StandardTemplate()
	f["client_id"] = apitest.ClientID
	id := apitest.CreateTemplate(t, srv, srv.APIKey, f)
	srv.Advance(apitest.TemplatePrepDelay)
	r := srv.Do(http.MethodGet, "/v3/embedded/edit_url/"+id+"?test_mode=1&cc_roles%5B0%5D=Auditor", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.NotEmpty(t, r.Map()["embedded"].(map[string]any)["edit_url"])
	r = srv.Do(http.MethodGet, "/v3/embedded/edit_url/"+id+"?merge_fields=nonsense", nil)
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "merge_fields[0]")

	sr := apitest.CreateEmbeddedRequest(t, srv)
	r = srv.Do(http.MethodPost, "/v3/embedded/sign_url/"+apitest.SignatureID(sr, 0), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, r.Map()["embedded"].(map[string]any)["sign_url"], "http")

	sent := apitest.SendRequest(t, srv, apitest.TwoSigners())
	r = srv.Do(http.MethodGet, "/v3/signature_request/final_copy/"+sent["signature_request_id"].(string), nil)
	if r.Status == http.StatusConflict {
		srv.Advance(apitest.TemplatePrepDelay)
		r = srv.Do(http.MethodGet, "/v3/signature_request/final_copy/"+sent["signature_request_id"].(string), nil)
	}
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "%PDF", string(r.Body[:4]))
}

// Node's Reports resource: GET /get_report with the parameters in the query.
func TestLegacyGetReport(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/get_report?start_date=12%2F01%2F2024&end_date=01%2F01%2F2025&report_type=user_activity", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "12/01/2024", r.Map()["report"].(map[string]any)["start_date"])
	apitest.WantError(t, srv.Do(http.MethodGet, "/v3/get_report", nil), http.StatusBadRequest, "bad_request", "")
}

// Java's bulk job path has a double slash (/bulk_send_job//{id}); like any
// unclean path it is redirected to the clean one, which a client following
// redirects then reads.
func TestLegacyDoubleSlashPathRedirects(t *testing.T) {
	srv := apitest.NewServer(t)
	job := apitest.BulkJob(t, srv, "bulk_send_with_template", apitest.BulkBody(apitest.BulkTemplate(t, srv)))
	id := job["bulk_send_job_id"].(string)
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/v3/bulk_send_job//"+id, nil)
	require.NoError(t, err)
	req.SetBasicAuth(srv.APIKey, "")
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, "/v3/bulk_send_job/"+id, resp.Header.Get("Location"))
	r := srv.Do(http.MethodGet, "/v3/bulk_send_job//"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, id, r.Map()["bulk_send_job"].(map[string]any)["bulk_send_job_id"])
}

// A scenario rule on an operation applies to its legacy alias too: the alias
// is the operation, not a look-alike.
func TestLegacyAliasMatchesScenarioRules(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	apitest.LoadScenarioOK(t, srv, srv.APIKey, `name: teams-down
rules:
  - match: {operation: teamUpdate}
    respond: {status: 503}
`)
	assert.Equal(t, http.StatusServiceUnavailable, lgForm(t, srv, srv.APIKey, http.MethodPost, "/v3/team", lgField{Name: "name", Value: "X"}).Status)
	assert.Equal(t, http.StatusServiceUnavailable, lgForm(t, srv, srv.APIKey, http.MethodPut, "/v3/team", lgField{Name: "name", Value: "X"}).Status)
	assert.Equal(t, 2, apitest.Scenarios(t, srv, srv.APIKey).Scenarios[0].Rules[0].Fired)
}
