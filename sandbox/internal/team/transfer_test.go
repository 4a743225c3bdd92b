package team_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// ttList lists the request ids of GET /signature_request/list as key.
func ttList(t *testing.T, srv *sandboxtest.Server, key string) []string {
	t.Helper()
	ids, _ := apitest.ListRequestIDs(t, srv, key, nil)
	return ids
}

// TestTeamRemoveMemberTransfersRequestsAndTemplates pins what
// new_owner_email_address moves besides API apps: the requests the removed
// member sent (requester, list access, management) and the templates they
// own (owner, access), in the queued transfer job.
func TestTeamRemoveMemberTransfersRequestsAndTemplates(t *testing.T) {
	srv := apitest.NewServer(t)
	sent := apitest.CreateRequest(t, srv, apitest.TeammateKey, "send", apitest.TwoSigners())
	require.Equal(t, http.StatusOK, sent.Status, "%s", sent.Body)
	sentID := sent.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	self := apitest.TwoSigners()
	self["signers"] = []map[string]any{{"name": "Tess Teammate", "email_address": apitest.TeammateMail}}
	signs := apitest.CreateRequest(t, srv, apitest.TeammateKey, "send", self)
	require.Equal(t, http.StatusOK, signs.Status, "%s", signs.Body)
	signsID := signs.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	mine := apitest.SendRequest(t, srv, apitest.TwoSigners())["signature_request_id"].(string)

	tplID := apitest.CreateTemplate(t, srv, apitest.TeammateKey, apitest.StandardTemplate())
	srv.Advance(apitest.TemplatePrepDelay)
	require.Equal(t, http.StatusOK, srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/template/add_user/"+tplID, map[string]any{"account_id": apitest.OwnerID}).Status)

	assert.Equal(t, []string{mine}, ttList(t, srv, srv.APIKey))
	assert.ElementsMatch(t, []string{sentID, signsID}, ttList(t, srv, apitest.TeammateKey))

	r := srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"account_id": apitest.TeammateID, "new_owner_email_address": "owner@sandbox.example"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	r = apitest.GetRequest(t, srv, apitest.TeammateKey, sentID)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, apitest.TeammateMail, r.Map()["signature_request"].(map[string]any)["requester_email_address"], "the transfer is queued")
	apitest.WantError(t, apitest.GetRequest(t, srv, srv.APIKey, sentID), http.StatusNotFound, "not_found", "")
	srv.Advance(10 * time.Second)

	for _, id := range []string{sentID, signsID} {
		assert.Equal(t, "owner@sandbox.example", apitest.GetRequestOK(t, srv, id)["requester_email_address"])
	}
	assert.Equal(t, []string{mine, signsID, sentID}, ttList(t, srv, srv.APIKey), "the new owner lists them in creation order, newest first")
	assert.Equal(t, []string{signsID}, ttList(t, srv, apitest.TeammateKey), "the removed member keeps what they sign")
	apitest.WantError(t, apitest.GetRequest(t, srv, apitest.TeammateKey, sentID), http.StatusNotFound, "not_found", "")
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+sentID, nil).Status, "the new owner manages it")

	tpl := apitest.GetTemplate(t, srv, srv.APIKey, tplID)
	assert.Equal(t, true, tpl["is_creator"])
	assert.Equal(t, true, tpl["can_edit"])
	assert.Contains(t, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""), tplID)
	assert.Equal(t, http.StatusNotFound, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/template/"+tplID, nil).Status)
	assert.NotContains(t, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, ""), tplID)
	apitest.SendWithTemplate(t, srv, srv.APIKey, apitest.TemplateSendBody(tplID))
}
