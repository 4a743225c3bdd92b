package apitest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestNewServerAnswersAndChecks: the server answers the API and the
// control plane (both checked against their descriptions), and ErrorOf
// reads the official envelope.
func TestNewServerAnswersAndChecks(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var clock map[string]any
	srv.Control(http.MethodGet, "/clock", nil, &clock)
	assert.NotEmpty(t, clock)

	r = srv.Do(http.MethodGet, "/v3/signature_request/0000000000000000000000000000000000000000", nil)
	e := apitest.ErrorOf(t, r)
	assert.Equal(t, "not_found", e.Name)
	assert.NotEmpty(t, e.Msg)
}
