package edge_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/edge"
)

type worldList struct {
	Worlds []struct {
		WorldID string `json:"world_id"`
		APIKey  string `json:"api_key"`
		Clock   string `json:"clock"`
		Default bool   `json:"default"`
	} `json:"worlds"`
}

// GET /_sandbox/worlds lists the worlds with their keys to whoever could
// make them: on a server without an admin token, a caller without
// credentials under a loopback name (never under another, never with a
// world's key, which opens one world only); with a token, its holder.
func TestWorldListAnswersOnlyTheAdministrator(t *testing.T) {
	srv := newServer(t)
	r := send(t, srv, http.MethodPost, "/_sandbox/worlds", "", `{"clock":"real"}`, nil)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	var made struct {
		WorldID string `json:"world_id"`
		APIKey  string `json:"api_key"`
	}
	require.NoError(t, jsonUnmarshal(r.body, &made))

	r = send(t, srv, http.MethodGet, "/_sandbox/worlds", "", "", nil)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var list worldList
	require.NoError(t, jsonUnmarshal(r.body, &list))
	require.Len(t, list.Worlds, 2)
	assert.True(t, list.Worlds[0].Default, "the default world comes first")
	assert.False(t, list.Worlds[1].Default)
	assert.Equal(t, made.WorldID, list.Worlds[1].WorldID)
	assert.Equal(t, made.APIKey, list.Worlds[1].APIKey)
	assert.Equal(t, "real", list.Worlds[1].Clock)

	key := map[string]string{"Authorization": "Basic " + basic(made.APIKey)}
	r = send(t, srv, http.MethodGet, "/_sandbox/worlds", "", "", key)
	assert.Equal(t, http.StatusForbidden, r.status, "a world's key never lists the other worlds: %s", r.body)
	assert.NotContains(t, string(r.body), list.Worlds[0].APIKey)
	r = send(t, srv, http.MethodGet, "/_sandbox/worlds", "evil.example", "", nil)
	assert.Equal(t, http.StatusForbidden, r.status, "a rebinding page is refused")
	assert.NotContains(t, string(r.body), made.APIKey)

	const token = "team-admin-token"
	shared := newServer(t, sandbox.WithAdminToken(token))
	r = send(t, shared, http.MethodGet, "/_sandbox/worlds", "", "", nil)
	assert.Equal(t, http.StatusUnauthorized, r.status, "%s", r.body)
	r = send(t, shared, http.MethodGet, "/_sandbox/worlds", "", "", map[string]string{edge.AdminHeader: token + "x"})
	assert.Equal(t, http.StatusUnauthorized, r.status)
	r = send(t, shared, http.MethodGet, "/_sandbox/worlds", "team.example", "", map[string]string{edge.AdminHeader: token})
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	require.NoError(t, jsonUnmarshal(r.body, &list))
	assert.Len(t, list.Worlds, 1)
}
