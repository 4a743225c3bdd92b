package control_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func TestDeleteWorld(t *testing.T) {
	srv := apitest.NewServer(t)
	w := srv.NewWorld()
	r := srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusOK, r.Status)

	r = srv.DoAs(w.APIKey, http.MethodDelete, "/_sandbox/world", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil)
	assert.Equal(t, http.StatusUnauthorized, r.Status, "a deleted world's key stops working")

	r = srv.Do(http.MethodDelete, "/_sandbox/world", nil)
	assert.Equal(t, http.StatusBadRequest, r.Status, "the default world is reset, not deleted")
	r = srv.Do(http.MethodGet, "/v3/account", nil)
	assert.Equal(t, http.StatusOK, r.Status)
}

func TestWorldLimit(t *testing.T) {
	srv := apitest.NewServer(t, sandbox.WithMaxWorlds(2))
	a := srv.NewWorld()
	srv.NewWorld()
	r := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{})
	assert.Equal(t, http.StatusConflict, r.Status)
	name, _, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "conflict", name)

	srv.DoAs(a.APIKey, http.MethodDelete, "/_sandbox/world", nil)
	r = srv.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{})
	assert.Equal(t, http.StatusCreated, r.Status, "deleting a world frees its place")
}

// TestControlCallsTakeJSONFromCurl: `curl -d '{...}'` labels JSON as a form;
// control calls read it as JSON, API operations do not.
func TestControlCallsTakeJSONFromCurl(t *testing.T) {
	srv := apitest.NewServer(t)
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/_sandbox/clock/advance", strings.NewReader(`{"duration":"1h"}`))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r := srv.Send(req)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, sandboxtest.Start.Add(time.Hour), srv.Now())
}
