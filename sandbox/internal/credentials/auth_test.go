package credentials_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// TestAPIKeyInURLUserInfo is what clients that put the key in the URL do
// (http://KEY:@host/v3/...): Go's client turns user-info into HTTP Basic.
func TestAPIKeyInURLUserInfo(t *testing.T) {
	srv := apitest.NewServer(t)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	u.User = url.UserPassword(srv.APIKey, "")
	resp, err := http.Get(u.String() + "/v3/account")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	u.User = url.User("not-a-key")
	resp, err = http.Get(u.String() + "/v3/account")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

func TestBasicAuthVariants(t *testing.T) {
	srv := apitest.NewServer(t)
	send := func(header string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v3/account", nil)
		req.Header.Set("Authorization", header)
		return srv.Send(req).Status
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	assert.Equal(t, http.StatusOK, send("Basic "+b64(srv.APIKey+":")))
	assert.Equal(t, http.StatusOK, send("Basic "+b64(srv.APIKey+":ignored-password")), "the password is ignored")
	assert.Equal(t, http.StatusOK, send("basic "+b64(srv.APIKey+":")), "the scheme is case-insensitive")
	assert.Equal(t, http.StatusOK, send("Basic "+b64(srv.APIKey)), "a key without a colon is still the user name")
	assert.Equal(t, http.StatusUnauthorized, send("Basic "+b64(srv.APIKey[:10]+":")))
	assert.Equal(t, http.StatusUnauthorized, send("Bearer "+srv.APIKey), "an API key is not a bearer token")
}

func TestAPIKeysControl(t *testing.T) {
	srv := apitest.NewServer(t)
	keys := apitest.APIKeys(t, srv, srv.APIKey)
	require.Len(t, keys, 1)
	assert.True(t, keys[0].Primary)
	assert.Equal(t, srv.APIKey, keys[0].Key)
	assert.Equal(t, srv.Now().Unix(), keys[0].CreatedAt)

	// Add a generated key: it authenticates as the same account.
	r := srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"name": "CI"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	keys = apitest.APIKeys(t, srv, srv.APIKey)
	require.Len(t, keys, 2)
	second := keys[1]
	assert.Equal(t, "CI", second.Name)
	assert.False(t, second.Primary)
	assert.Regexp(t, `^[0-9a-f]{64}$`, second.Key)
	acct := srv.DoAs(second.Key, http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusOK, acct.Status)
	assert.Equal(t, second.AccountID, acct.Map()["account"].(map[string]any)["account_id"])

	// A chosen key value; bad values and values in use are refused.
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": "my-fixed-test-key"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	for _, bad := range []string{"short", "has:colon-key", "has space-key"} {
		r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": bad})
		assert.Equal(t, http.StatusBadRequest, r.Status, bad)
		_, _, p := apitest.ErrorParts(t, r.Body)
		assert.Equal(t, "key", p)
	}
	other := srv.NewWorld()
	r = srv.DoAs(other.APIKey, http.MethodPost, "/_sandbox/api_keys", map[string]any{"key": "my-fixed-test-key"})
	assert.Equal(t, http.StatusConflict, r.Status, "a key in use by another world is refused")

	// Make the third key primary: exactly one primary remains.
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys/my-fixed-test-key/primary", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	keys = apitest.APIKeys(t, srv, srv.APIKey)
	assert.Equal(t, "my-fixed-test-key", apitest.PrimaryKey(keys))
	n := 0
	for _, k := range keys {
		if k.Primary {
			n++
		}
	}
	assert.Equal(t, 1, n)

	// Up to four keys per account.
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"primary": true})
	require.Equal(t, http.StatusCreated, r.Status)
	keys = apitest.APIKeys(t, srv, srv.APIKey)
	require.Len(t, keys, 4)
	assert.Equal(t, keys[3].Key, apitest.PrimaryKey(keys), "primary: true moves the primary mark")
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Contains(t, msg, "at most 4")

	// The primary key cannot be deleted; another can, and stops working.
	r = srv.Do(http.MethodDelete, "/_sandbox/api_keys/"+keys[3].Key, nil)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, http.StatusOK, srv.DoAs(second.Key, http.MethodGet, "/v3/account", nil).Status, "warm the credential cache")
	r = srv.Do(http.MethodDelete, "/_sandbox/api_keys/"+second.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, apitest.APIKeys(t, srv, srv.APIKey), 3)
	assert.Equal(t, http.StatusUnauthorized, srv.DoAs(second.Key, http.MethodGet, "/v3/account", nil).Status)
	r = srv.Do(http.MethodDelete, "/_sandbox/api_keys/"+second.Key, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)

	// A key of another world is not found from this one.
	r = srv.Do(http.MethodDelete, "/_sandbox/api_keys/"+other.APIKey, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)

	// Keys of another account of the world, by account_id.
	teammate := "6ff46ba9ed6e43517c09f9b4d2db2a081f1d5ab0"
	r = srv.Do(http.MethodGet, "/_sandbox/api_keys?account_id="+teammate, nil)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Contains(t, string(r.Body), teammate)
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"account_id": "nope"})
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = srv.Do(http.MethodPost, "/_sandbox/api_keys", map[string]any{"acount_id": teammate})
	assert.Equal(t, http.StatusBadRequest, r.Status, "typos are refused")
}
