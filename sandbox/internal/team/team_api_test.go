package team_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestTeamGet(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/team", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	team := apitest.Obj(t, r.Map(), "team")
	assert.Equal(t, "Sandbox Team", team["name"])
	accounts := apitest.List(t, team, "accounts")
	require.Len(t, accounts, 2)
	assert.Equal(t, apitest.OwnerID, accounts[0]["account_id"])
	assert.Equal(t, "a", accounts[0]["role_code"])
	assert.Equal(t, "m", accounts[1]["role_code"])
	assert.Contains(t, accounts[0], "quotas")
	assert.NotContains(t, accounts[0], "settings", "team answers show the subset of the official examples")
	assert.Empty(t, team["invited_accounts"])
	assert.Empty(t, team["invited_emails"])

	// An account without a team: the documented 404.
	msg := apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/team", nil), http.StatusNotFound, "not_found", "")
	assert.Equal(t, "Team does not exist", msg)
}

func TestTeamUpdate(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPut, "/v3/team", map[string]any{"name": "Renamed"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "Renamed", apitest.Obj(t, r.Map(), "team")["name"])
	assert.Equal(t, "Renamed", apitest.Obj(t, srv.Do(http.MethodGet, "/v3/team", nil).Map(), "team")["name"])

	apitest.WantErrorMsg(t, srv.Do(http.MethodPut, "/v3/team", map[string]any{"name": ""}), http.StatusBadRequest, "bad_request", "name")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodPut, "/v3/team", map[string]any{"name": "Mine"}), http.StatusForbidden, "forbidden", "")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodPut, "/v3/team", map[string]any{"name": "Mine"}), http.StatusNotFound, "not_found", "")
}

func TestTeamCreateAndDelete(t *testing.T) {
	srv := apitest.NewServer(t)
	apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/team/create", map[string]any{"name": "Second"}), http.StatusForbidden, "forbidden", "")

	r := srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/team/create", map[string]any{})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	team := apitest.Obj(t, r.Map(), "team")
	assert.Equal(t, "Untitled Team", team["name"], "the documented default name")
	accounts := apitest.List(t, team, "accounts")
	require.Len(t, accounts, 1)
	assert.Equal(t, apitest.OutsiderID, accounts[0]["account_id"])
	assert.Equal(t, "a", accounts[0]["role_code"])
	acct := apitest.Obj(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/account", nil).Map(), "account")
	assert.Equal(t, "a", acct["role_code"])
	assert.Len(t, acct["team_id"], 40)

	// Deleting: only an admin who is the only member.
	apitest.WantErrorMsg(t, srv.Do(http.MethodDelete, "/v3/team/destroy", nil), http.StatusForbidden, "forbidden", "")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodDelete, "/v3/team/destroy", nil), http.StatusForbidden, "forbidden", "")
	r = srv.DoAs(apitest.OutsiderKey, http.MethodDelete, "/v3/team/destroy", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body, "teamDelete answers 200 without content")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/team", nil), http.StatusNotFound, "not_found", "")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodDelete, "/v3/team/destroy", nil), http.StatusNotFound, "not_found", "")
	acct = apitest.Obj(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/account", nil).Map(), "account")
	assert.Nil(t, acct["team_id"])
	assert.Nil(t, acct["role_code"])
}

func TestTeamAddMemberInvitesAndAccepts(t *testing.T) {
	srv := apitest.NewServer(t)
	// An address without an account: an invitation, listed in invited_emails.
	r := srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "new.person@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	team := apitest.Obj(t, r.Map(), "team")
	assert.Equal(t, []any{"new.person@example.com"}, team["invited_emails"])
	assert.Len(t, apitest.List(t, team, "accounts"), 2, "an invitee is not a member yet")

	// An account without a team (account_id prevails over email_address).
	r = srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"account_id": apitest.OutsiderID, "email_address": "ignored@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	team = apitest.Obj(t, r.Map(), "team")
	invited := apitest.List(t, team, "invited_accounts")
	require.Len(t, invited, 1)
	assert.Equal(t, "outsider@elsewhere.example", invited[0]["email_address"])
	assert.NotContains(t, invited[0], "role_code")

	// Adding again does not invite twice.
	r = srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "OUTSIDER@elsewhere.example"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, apitest.List(t, apitest.Obj(t, r.Map(), "team"), "invited_accounts"), 1)

	// The invitee sees the invitation; the admin sees invitations to the team.
	r = srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/team/invites", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	invites := apitest.List(t, r.Map(), "team_invites")
	require.Len(t, invites, 1)
	assert.Equal(t, apitest.TeamID, invites[0]["team_id"])
	assert.Equal(t, "Member", invites[0]["role"])
	assert.EqualValues(t, srv.Now().Unix(), invites[0]["sent_at"])
	assert.EqualValues(t, srv.Now().Add(30*24*time.Hour).Unix(), invites[0]["expires_at"])
	assert.NotContains(t, invites[0], "redeemed_at")
	r = srv.Do(http.MethodGet, "/v3/team/invites?email_address=new.person@example.com", nil)
	assert.Len(t, apitest.List(t, r.Map(), "team_invites"), 1)
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/team/invites?email_address=nope", nil), http.StatusBadRequest, "bad_request", "email_address")

	// Each invitation was e-mailed with its acceptance link.
	mails := apitest.Emails(t, srv, "kind=team_invite")
	require.Len(t, mails, 2)
	assert.Equal(t, "new.person@example.com", mails[0]["to"])
	link := mails[1]["link"].(string)
	resp, err := http.Post(link, "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Post(link, "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "an invitation is used once")

	team = apitest.Obj(t, srv.Do(http.MethodGet, "/v3/team", nil).Map(), "team")
	accounts := apitest.List(t, team, "accounts")
	require.Len(t, accounts, 3)
	assert.Equal(t, apitest.OutsiderID, accounts[2]["account_id"])
	assert.Equal(t, "m", accounts[2]["role_code"])
	assert.Empty(t, team["invited_accounts"])
	assert.Empty(t, apitest.List(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/team/invites", nil).Map(), "team_invites"))

	// The address without an account signs up by accepting.
	resp, err = http.Get(mails[0]["link"].(string))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r = srv.Do(http.MethodGet, "/v3/account?email_address=new.person@example.com", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, apitest.TeamID, apitest.Obj(t, r.Map(), "account")["team_id"])
}

func TestTeamAddMemberErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := []struct {
		name   string
		key    string
		query  string
		body   map[string]any
		status int
		err    string
		path   string
	}{
		{"neither account_id nor email_address", "", "", map[string]any{}, 400, "bad_request", "account_id"},
		{"invalid email", "", "", map[string]any{"email_address": "not-an-email"}, 400, "bad_request", "email_address"},
		{"unknown account_id", "", "", map[string]any{"account_id": "0000000000000000000000000000000000000000"}, 404, "not_found", "account_id"},
		{"unknown role", "", "?team_id=" + apitest.TeamID, map[string]any{"email_address": "a@example.com", "role": "Boss"}, 400, "bad_request", "role"},
		{"unknown team_id", "", "?team_id=nope", map[string]any{"email_address": "a@example.com"}, 404, "not_found", "team_id"},
		{"member role cannot add", apitest.TeammateKey, "", map[string]any{"email_address": "a@example.com"}, 403, "forbidden", ""},
		{"caller without team", apitest.OutsiderKey, "", map[string]any{"email_address": "a@example.com"}, 404, "not_found", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := tc.key
			if key == "" {
				key = srv.APIKey
			}
			apitest.WantErrorMsg(t, srv.DoAs(key, http.MethodPut, "/v3/team/add_member"+tc.query, tc.body), tc.status, tc.err, tc.path)
		})
	}

	t.Run("member of another team", func(t *testing.T) {
		require.Equal(t, http.StatusOK, srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/team/create", map[string]any{"name": "Other"}).Status)
		apitest.WantErrorMsg(t, srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"account_id": apitest.OutsiderID}),
			http.StatusForbidden, "team_invite_failed", "")
	})

	t.Run("role without team_id is ignored with a warning", func(t *testing.T) {
		r := srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "w@example.com", "role": "Admin"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		warnings := apitest.List(t, r.Map(), "warnings")
		require.Len(t, warnings, 1)
		assert.Equal(t, "parameter_ignored", warnings[0]["warning_name"])
		invites := apitest.List(t, srv.Do(http.MethodGet, "/v3/team/invites?email_address=w@example.com", nil).Map(), "team_invites")
		require.Len(t, invites, 1)
		assert.Equal(t, "Member", invites[0]["role"])
	})
}

func TestTeamRemoveMember(t *testing.T) {
	srv := apitest.NewServer(t)
	apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/team/remove_member", map[string]any{"account_id": apitest.OwnerID}), http.StatusForbidden, "forbidden", "")
	apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{}), http.StatusBadRequest, "bad_request", "account_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"account_id": apitest.OwnerID}), http.StatusBadRequest, "bad_request", "account_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"account_id": apitest.OutsiderID}), http.StatusNotFound, "not_found", "account_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"email_address": "teammate@sandbox.example", "new_role": "Chief"}),
		http.StatusBadRequest, "bad_request", "new_role")

	r := srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"email_address": "teammate@sandbox.example"})
	require.Equal(t, http.StatusCreated, r.Status, "the official description declares 201: %s", r.Body)
	accounts := apitest.List(t, apitest.Obj(t, r.Map(), "team"), "accounts")
	require.Len(t, accounts, 1)
	apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/team", nil), http.StatusNotFound, "not_found", "")

	// Removing someone with an outstanding invitation expires it.
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "later@example.com"}).Status)
	r = srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"email_address": "later@example.com"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	assert.Empty(t, apitest.Obj(t, r.Map(), "team")["invited_emails"])
	link := apitest.Emails(t, srv, "kind=team_invite")[0]["link"].(string)
	resp, err := http.Post(link, "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusGone, resp.StatusCode)
}

func TestTeamRemoveMemberTransfersApps(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "Teammate app", "domains": []string{"example.com"}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	clientID := apitest.Obj(t, r.Map(), "api_app")["client_id"].(string)

	apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/team/remove_member",
		map[string]any{"account_id": apitest.TeammateID, "new_owner_email_address": "outsider@elsewhere.example"}),
		http.StatusBadRequest, "bad_request", "new_owner_email_address")

	r = srv.Do(http.MethodPost, "/v3/team/remove_member",
		map[string]any{"account_id": apitest.TeammateID, "new_owner_email_address": "owner@sandbox.example"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	// The transfer is queued: the app still belongs to the removed member.
	owner := apitest.Obj(t, apitest.Obj(t, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/api_app/"+clientID, nil).Map(), "api_app"), "owner_account")
	assert.Equal(t, apitest.TeammateID, owner["account_id"])

	jobs := srv.Advance(10 * time.Second)
	require.NotEmpty(t, jobs)
	assert.Equal(t, "team.transfer_ownership", jobs[0].Kind)
	r = srv.Do(http.MethodGet, "/v3/api_app/"+clientID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	owner = apitest.Obj(t, apitest.Obj(t, r.Map(), "api_app"), "owner_account")
	assert.Equal(t, apitest.OwnerID, owner["account_id"])
	assert.Equal(t, "owner@sandbox.example", owner["email_address"])
}

func TestSubTeams(t *testing.T) {
	srv := apitest.NewServer(t)
	var sub struct {
		TeamID string `json:"team_id"`
	}
	srv.Control(http.MethodPost, "/teams", map[string]any{"name": "Sub A"}, &sub)
	require.Len(t, sub.TeamID, 40)
	var sub2 struct {
		TeamID string `json:"team_id"`
	}
	srv.Control(http.MethodPost, "/teams", map[string]any{"name": "Sub B"}, &sub2)

	r := srv.Do(http.MethodGet, "/v3/team/info", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	info := apitest.Obj(t, r.Map(), "team")
	assert.Equal(t, apitest.TeamID, info["team_id"])
	assert.EqualValues(t, 2, info["num_members"])
	assert.EqualValues(t, 2, info["num_sub_teams"])
	assert.Nil(t, info["team_parent"], "a root team has a null parent")

	r = srv.Do(http.MethodGet, "/v3/team/info?team_id="+sub.TeamID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	info = apitest.Obj(t, r.Map(), "team")
	assert.Equal(t, map[string]any{"team_id": apitest.TeamID, "name": "Sandbox Team"}, info["team_parent"])
	assert.EqualValues(t, 0, info["num_members"])

	r = srv.Do(http.MethodGet, "/v3/team/sub_teams/"+apitest.TeamID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	subs := apitest.List(t, r.Map(), "sub_teams")
	require.Len(t, subs, 2)
	assert.Equal(t, "Sub A", subs[0]["name"])
	r = srv.Do(http.MethodGet, "/v3/team/sub_teams/"+apitest.TeamID+"?page=2&page_size=1", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "Sub B", apitest.List(t, r.Map(), "sub_teams")[0]["name"])
	assert.Equal(t, map[string]any{"num_pages": 2.0, "num_results": 2.0, "page": 2.0, "page_size": 1.0}, r.Map()["list_info"])

	// add_member with team_id moves a member of the organisation at once,
	// with the role given.
	r = srv.Do(http.MethodPut, "/v3/team/add_member?team_id="+sub.TeamID, map[string]any{"account_id": apitest.TeammateID, "role": "Developer"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.Do(http.MethodGet, "/v3/team/members/"+sub.TeamID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	members := apitest.List(t, r.Map(), "team_members")
	require.Len(t, members, 1)
	assert.Equal(t, map[string]any{"account_id": apitest.TeammateID, "email_address": "teammate@sandbox.example", "role": "Developer"}, members[0])

	// remove_member with new_team_id moves them back with new_role.
	r = srv.Do(http.MethodPost, "/v3/team/remove_member", map[string]any{"account_id": apitest.TeammateID, "new_team_id": apitest.TeamID, "new_role": "Team Manager"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	r = srv.Do(http.MethodGet, "/v3/team/members/"+apitest.TeamID, nil)
	members = apitest.List(t, r.Map(), "team_members")
	require.Len(t, members, 2)
	assert.Equal(t, "Admin", members[0]["role"])
	assert.Equal(t, "Team Manager", members[1]["role"])

	// Access and paging errors.
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/team/info?team_id="+apitest.TeamID, nil), http.StatusForbidden, "forbidden", "team_id")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/team/members/"+apitest.TeamID, nil), http.StatusForbidden, "forbidden", "team_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/team/members/0000", nil), http.StatusNotFound, "not_found", "team_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/team/sub_teams/0000", nil), http.StatusNotFound, "not_found", "team_id")
	for _, q := range []string{"page_size=0", "page_size=101", "page=0", "page=x"} {
		r := srv.Do(http.MethodGet, "/v3/team/members/"+apitest.TeamID+"?"+q, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", q, r.Body)
	}
	apitest.WantErrorMsg(t, srv.Do(http.MethodDelete, "/v3/team/destroy", nil), http.StatusForbidden, "forbidden", "")
}

func TestTeamIDsAreDeterministic(t *testing.T) {
	create := func() string {
		srv := apitest.NewServer(t)
		r := srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/team/create", map[string]any{"name": "Same"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return apitest.Obj(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/account", nil).Map(), "account")["team_id"].(string)
	}
	assert.Equal(t, create(), create())
}

// Teams, invitations, sub-teams, apps with white labeling, fax lines, faxes
// and reports survive an export and import of the world byte for byte.
func TestOrgObjectsRoundTripThroughState(t *testing.T) {
	srv := apitest.NewServer(t)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "x@example.com"}).Status)
	srv.Control(http.MethodPost, "/teams", map[string]any{"name": "Sub"}, nil)
	require.Equal(t, http.StatusCreated, srv.Do(http.MethodPost, "/v3/api_app", map[string]any{"name": "A", "domains": []string{"example.com"},
		"white_labeling_options": map[string]any{"link_color": "#123456"}}).Status)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": 415, "country": "US"}).Status)
	require.Equal(t, http.StatusOK, apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "16690000001"}).Status)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/report/create", map[string]any{
		"start_date": "01/01/2024", "end_date": "12/31/2024", "report_type": []string{"user_activity", "sms_activity"}}).Status)
	srv.Advance(time.Minute)

	first := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, first.Status)
	for _, table := range []string{`"team_invites"`, `"fax_lines"`, `"faxes"`, `"reports"`} {
		assert.Contains(t, string(first.Body), table)
	}
	r := srv.Do(http.MethodPut, "/_sandbox/state", first.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	second := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	assert.Equal(t, string(first.Body), string(second.Body))
}

// An invitee who creates an account after the invitation moves from
// invited_emails to invited_accounts.
func TestTeamInviteeWhoSignsUpBecomesAnInvitedAccount(t *testing.T) {
	srv := apitest.NewServer(t)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/team/add_member", map[string]any{"email_address": "late@example.com"}).Status)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "late@example.com"}).Status)
	team := apitest.Obj(t, srv.Do(http.MethodGet, "/v3/team", nil).Map(), "team")
	assert.Empty(t, team["invited_emails"])
	invited := apitest.List(t, team, "invited_accounts")
	require.Len(t, invited, 1)
	assert.Equal(t, "late@example.com", invited[0]["email_address"])
}
