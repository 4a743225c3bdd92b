package team_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestInviteAcceptRemove: the admin invites an address (an e-mail with
// the acceptance link), the invitation is listed, the person creates an
// account and follows the link and is a member; the admin removes them,
// and cannot remove themselves. Every answer is checked against the
// official description.
func TestInviteAcceptRemove(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/team", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	r = srv.Do(http.MethodPut, "/v3/team", map[string]any{"name": "Renamed Team"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), `"name":"Renamed Team"`)

	const invitee = "invitee@example.com"
	r = srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": invitee, "role": "Developer"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), `"invited_emails":["`+invitee+`"]`, "an address without an account is invited")

	var mails struct {
		Emails []struct {
			Link string `json:"link"`
		} `json:"emails"`
	}
	srv.Control(http.MethodGet, "/emails?to="+invitee, nil, &mails)
	require.Len(t, mails.Emails, 1)
	link := mails.Emails[0].Link
	require.Contains(t, link, "/team_invites/")

	r = srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": invitee})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.DoAs("", http.MethodPost, strings.TrimPrefix(link, srv.URL), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.DoAs("", http.MethodPost, strings.TrimPrefix(link, srv.URL), nil)
	assert.Equal(t, http.StatusConflict, r.Status, "an invitation is accepted once: %s", r.Body)

	r = srv.Do(http.MethodGet, "/v3/team", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var team struct {
		Team struct {
			Accounts []struct {
				Email    string `json:"email_address"`
				RoleCode string `json:"role_code"`
			} `json:"accounts"`
			InvitedEmails []string `json:"invited_emails"`
		} `json:"team"`
	}
	require.NoError(t, r.JSON(&team))
	assert.Empty(t, team.Team.InvitedEmails)
	assert.Contains(t, team.Team.Accounts, struct {
		Email    string `json:"email_address"`
		RoleCode string `json:"role_code"`
	}{invitee, "m"}, "a Member: role applies only with team_id, as documented")

	r = srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"email_address": invitee})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	r = srv.Do(http.MethodGet, "/v3/team", nil)
	assert.NotContains(t, string(r.Body), invitee)

	var me struct {
		Account struct {
			Email string `json:"email_address"`
		} `json:"account"`
	}
	require.NoError(t, srv.Do(http.MethodGet, "/v3/account", nil).JSON(&me))
	e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"email_address": me.Account.Email}))
	assert.Equal(t, "email_address", e.Path, e.Msg)
}

// TestMemberErrors name the parameter at fault.
func TestMemberErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, tc := range []struct {
		method, path string
		body         map[string]any
		errName      string
		errPath      string
	}{
		{http.MethodPut, "/v3/team/add_member", map[string]any{}, "bad_request", "account_id"},
		{http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "nope"}, "bad_request", "email_address"},
		{http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "x@example.com", "role": "Boss"}, "bad_request", "role"},
		{http.MethodPut, "/v3/team/add_member", map[string]any{"account_id": "0000000000000000000000000000000000000000"}, "not_found", "account_id"},
		{http.MethodPost, "/v3/team/remove_member", map[string]any{"email_address": "stranger@example.com"}, "not_found", "email_address"},
		{http.MethodPut, "/v3/team", map[string]any{"name": ""}, "bad_request", "name"},
	} {
		e := apitest.ErrorOf(t, srv.Do(tc.method, tc.path, tc.body))
		assert.Equal(t, tc.errName, e.Name, "%s %v: %s", tc.path, tc.body, e.Msg)
		assert.Equal(t, tc.errPath, e.Path, "%s %v: %s", tc.path, tc.body, e.Msg)
	}
}
