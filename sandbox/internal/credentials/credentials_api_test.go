package credentials_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// createWorldWith posts body to /_sandbox/worlds and decodes the answer.
func createWorldWith(t *testing.T, srv *sandboxtest.Server, body map[string]any) sandboxtest.World {
	t.Helper()
	r := srv.DoAs("", http.MethodPost, "/_sandbox/worlds", body)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var w sandboxtest.World
	require.NoError(t, json.Unmarshal(r.Body, &w))
	return w
}

func TestTwoServersGiveDifferentKeysToTheirFirstWorld(t *testing.T) {
	srvA := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials())
	srvB := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials())
	a, b := srvA.NewWorld(), srvB.NewWorld()
	newApp := func(srv *sandboxtest.Server, key string) string {
		r := srv.DoAs(key, http.MethodPost, "/v3/api_app", map[string]any{"name": "same", "domains": []string{"example.com"}})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		var out struct {
			APIApp struct {
				ClientID string `json:"client_id"`
			} `json:"api_app"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &out))
		return out.APIApp.ClientID
	}
	assert.Equal(t, newApp(srvA, a.APIKey), newApp(srvB, b.APIKey), "ids of objects made at run time still follow the seed")
	assert.NotEqual(t, a.APIKey, b.APIKey, "the same flags never give the same key twice")
	assert.NotEqual(t, a.ClientSecret, b.ClientSecret)
	assert.Regexp(t, `^[0-9a-f]{64}$`, a.APIKey, "random keys keep the official format")
	assert.Equal(t, a.WorldID, b.WorldID)
	assert.Equal(t, a.AccountID, b.AccountID, "IDs still follow the seed")
	assert.Equal(t, a.ClientID, b.ClientID)

	seeded := apitest.NewControlCheckedServer(t).NewWorld()
	assert.Equal(t, seeded.APIKey, apitest.NewControlCheckedServer(t).NewWorld().APIKey, "without the option the Go API keeps its seeded default")
}

func TestExplicitSeedGivesFixedCredentials(t *testing.T) {
	srv1 := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials())
	srv2 := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials())
	a := createWorldWith(t, srv1, map[string]any{"seed": "team-test"})
	b := createWorldWith(t, srv2, map[string]any{"seed": "team-test"})
	assert.Equal(t, a.APIKey, b.APIKey, "an explicit seed fixes the credentials")
	assert.Equal(t, a.ClientSecret, b.ClientSecret)

	r := srv1.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"seed": "team-test"})
	assert.Equal(t, http.StatusConflict, r.Status, "a second world with the same seed would share the keys: %s", r.Body)
	r = srv1.DoAs("", http.MethodPost, "/_sandbox/worlds", map[string]any{"seed": strings.Repeat("x", 201)})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, string(r.Body), `"error_path":"seed"`)
}

func TestAWorldsKeyCannotOpenAnotherWorld(t *testing.T) {
	srv := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials())
	a, b := srv.NewWorld(), srv.NewWorld()

	r := srv.DoAs(b.APIKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "B's app", "domains": []string{"b.example.com"}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var created struct {
		APIApp struct {
			ClientID string `json:"client_id"`
		} `json:"api_app"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &created))
	assert.Equal(t, http.StatusOK, srv.DoAs(b.APIKey, http.MethodGet, "/v3/api_app/"+created.APIApp.ClientID, nil).Status)
	assert.Equal(t, http.StatusNotFound, srv.DoAs(a.APIKey, http.MethodGet, "/v3/api_app/"+created.APIApp.ClientID, nil).Status, "A's key does not see B's objects")

	var info sandboxtest.World
	require.NoError(t, json.Unmarshal(srv.DoAs(a.APIKey, http.MethodGet, "/_sandbox/world", nil).Body, &info))
	assert.Equal(t, a.WorldID, info.WorldID, "the control plane acts on the world of the key")
	assert.Equal(t, http.StatusOK, srv.DoAs(a.APIKey, http.MethodDelete, "/_sandbox/world", nil).Status)
	assert.Equal(t, http.StatusUnauthorized, srv.DoAs(a.APIKey, http.MethodGet, "/v3/account", nil).Status)
	assert.Equal(t, http.StatusOK, srv.DoAs(b.APIKey, http.MethodGet, "/v3/account", nil).Status, "deleting A leaves B")
	assert.Equal(t, http.StatusUnauthorized, srv.DoAs(strings.Repeat("0", 64), http.MethodGet, "/_sandbox/world", nil).Status)
}

// Servers behind one router are started alike but for their tags: the
// objects their worlds make get ids of their own, so that no id of one
// world is also another's; the same tag still gives the same ids.
func TestShardsKeepObjectIDsApart(t *testing.T) {
	firstApp := func(shard string) string {
		srv := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials(), sandbox.WithShard(shard))
		r := srv.DoAs(srv.NewWorld().APIKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "same", "domains": []string{"example.com"}})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		var out struct {
			APIApp struct {
				ClientID string `json:"client_id"`
			} `json:"api_app"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &out))
		return out.APIApp.ClientID
	}
	a := firstApp("a1")
	assert.NotEqual(t, a, firstApp("b2"), "the first worlds of two shards make different ids")
	assert.Equal(t, a, firstApp("a1"), "ids still follow the seed")
}

func TestShardTagStartsEveryRandomCredential(t *testing.T) {
	srv := apitest.NewControlCheckedServer(t, sandbox.WithRandomCredentials(), sandbox.WithShard("a1"))
	w := srv.NewWorld()
	assert.Equal(t, "a1-w1", w.WorldID, "world ids, in page and file URLs, carry the tag too")
	assert.True(t, strings.HasPrefix(w.APIKey, "a1"), w.APIKey)
	assert.True(t, strings.HasPrefix(w.ClientSecret, "a1"), w.ClientSecret)

	r := srv.DoAs(w.APIKey, http.MethodPost, "/_sandbox/oauth/authorize", map[string]any{"client_id": w.ClientID, "state": "s"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var auth struct {
		Code string `json:"code"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &auth))
	assert.True(t, strings.HasPrefix(auth.Code, "a1"), "OAuth codes carry the tag: %s", r.Body)

	_, err := sandbox.New(sandbox.WithShard("XYZ"))
	assert.Error(t, err)
}
