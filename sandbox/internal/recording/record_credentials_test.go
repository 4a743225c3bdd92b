package recording_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// worldCredentials lists every credential the world of key holds (its
// exported state's keys, secrets, codes, tokens and URL tokens).
func worldCredentials(t *testing.T, srv *sandboxtest.Server, key string) []string {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	creds, err := credentialsOfState(r.Body)
	require.NoError(t, err)
	require.NotEmpty(t, creds)
	return creds
}

// assertNoCredentials fails when the recording holds one of the
// credentials, as it is or as a client sends it (Basic, in base64).
func assertNoCredentials(t *testing.T, recording []byte, creds ...string) {
	t.Helper()
	doc := string(recording)
	for _, c := range creds {
		for _, form := range []string{c, base64.StdEncoding.EncodeToString([]byte(c + ":"))} {
			if strings.Contains(doc, form) {
				i := strings.Index(doc, form)
				t.Errorf("the recording holds the credential %s…: %q", c[:min(8, len(c))], doc[max(0, i-120):min(len(doc), i+len(form)+40)])
			}
		}
	}
}

// credentialSession makes calls that hand out, use or show every kind of
// credential: API keys (made by the world and chosen by the caller),
// OAuth client secrets, codes, access and refresh tokens, the tokens of
// signing links, embedded sign URLs, claim, editor and file URLs, and the
// whole exported state.
func credentialSession(t *testing.T, srv *sandboxtest.Server) {
	t.Helper()
	var keys struct {
		APIKeys []struct {
			Key  string `json:"key"`
			Name string `json:"name"`
		} `json:"api_keys"`
	}
	srv.Control(http.MethodPost, "/api_keys", map[string]any{"name": "CI"}, &keys)
	require.Len(t, keys.APIKeys, 2)
	for _, k := range keys.APIKeys {
		require.Equal(t, http.StatusOK, srv.DoAs(k.Key, http.MethodGet, "/v3/account", nil).Status)
	}
	srv.Control(http.MethodGet, "/api_keys", nil, nil)
	srv.Control(http.MethodGet, "/scenarios", nil, nil)

	secret := apitest.ClientSecret(t, srv)
	code := apitest.Authorize(t, srv, map[string]any{"state": "s1"})
	tok := apitest.DecodeToken(t, apitest.Exchange(t, srv, "/oauth/token", code, secret, "s1"))
	require.Equal(t, http.StatusOK, apitest.Bearer(t, srv, tok.AccessToken, http.MethodGet, "/v3/account", "").Status)
	r := srv.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": tok.RefreshToken})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	id, _ := apitest.QuickSend(t, srv, srv.APIKey, "Links", "link@example.com")
	sr := apitest.CreateEmbeddedRequest(t, srv)
	require.Equal(t, http.StatusOK, apitest.SignURL(t, srv, apitest.SignatureID(sr, 0)).Status)
	srv.Control(http.MethodPost, "/clock/advance", map[string]any{"duration": "1m"}, nil)
	srv.Do(http.MethodGet, sandbox.ControlPrefix+"/emails", nil)
	r = srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	page := func(u string) {
		t.Helper()
		p, err := url.Parse(u)
		require.NoError(t, err)
		r := srv.DoAs("", http.MethodGet, p.RequestURI(), nil)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", u, r.Body)
	}
	page(r.Map()["file_url"].(string))
	page(apitest.Draft(t, srv, "create", apitest.DraftBody())["claim_url"].(string))
	fields := map[string]any{"title": "Editable", "client_id": apitest.ClientID, "test_mode": true}
	r = apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create_embedded_draft", fields, apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	page(r.Map()["template"].(map[string]any)["edit_url"].(string))
	srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)

	// A key of the caller's choosing, used. Its replay gives it a fresh
	// value (the recording does not know it), so this comes after the
	// state export, whose api_keys are in the order of their values.
	srv.Control(http.MethodPost, "/api_keys", map[string]any{"name": "Mine", "key": "my-own-key-0123456789"}, &keys)
	require.Equal(t, http.StatusOK, srv.DoAs("my-own-key-0123456789", http.MethodGet, "/v3/account", nil).Status)
	srv.Control(http.MethodGet, "/api_keys", nil, nil)
}

// A recording keeps no credential of the world it recorded: not the keys
// it started with, not those the session made or chose, nor any secret,
// code, token or URL token. It still replays byte for byte, its
// placeholders resolved to the replay world's own credentials.
func TestRecordingsLeaveTheWorldsCredentialsOut(t *testing.T) {
	srv := apitest.ScenarioServer(t)
	srv.Control(http.MethodPost, "/record/start", map[string]any{}, nil)
	credentialSession(t, srv)
	r := srv.Do(http.MethodPost, sandbox.ControlPrefix+"/record/stop?format=yaml", nil)
	require.Equal(t, http.StatusOK, r.Status)
	doc := r.Body
	creds := worldCredentials(t, srv, srv.APIKey)
	assert.GreaterOrEqual(t, len(creds), 10)
	assertNoCredentials(t, doc, creds...)
	assertNoCredentials(t, doc, "my-own-key-0123456789")
	assert.Contains(t, string(doc), "${credentials.seq")
	assert.Contains(t, string(doc), "key: ${credentials.other")
	res := runDoc(t, "creds.yaml", doc)
	assert.True(t, res.OK(), "%+v", res)

	// Kept on request: the same session, with its credentials.
	srv2 := apitest.ScenarioServer(t)
	srv2.Control(http.MethodPost, "/record/start", map[string]any{"keep_credentials": true}, nil)
	credentialSession(t, srv2)
	r = srv2.Do(http.MethodPost, sandbox.ControlPrefix+"/record/stop?format=yaml", nil)
	assert.Contains(t, string(r.Body), srv2.APIKey)
	assert.NotContains(t, string(r.Body), "${credentials.")
	res = runDoc(t, "kept.yaml", r.Body)
	assert.True(t, res.OK(), "%+v", res)
}

// The recording proxy leaves out the credentials of the traffic it
// forwards (a sandbox upstream's, here) and of the upstream's state, and
// its file replays byte for byte.
func TestRecordingProxyLeavesCredentialsOut(t *testing.T) {
	upstream := apitest.ScenarioServer(t)
	out := filepath.Join(t.TempDir(), "proxied.yaml")
	proxy, err := sandbox.NewRecordingProxy(upstream.URL, out, nil)
	require.NoError(t, err)
	ps := httptest.NewServer(proxy)
	t.Cleanup(ps.Close)
	client := apitest.NewControlCheckedServer(t)
	client.URL, client.APIKey = ps.URL, upstream.APIKey
	client.Client = &http.Client{Timeout: time.Minute}
	credentialSession(t, client)
	require.NoError(t, proxy.Err())
	doc, err := os.ReadFile(out)
	require.NoError(t, err)
	assertNoCredentials(t, doc, worldCredentials(t, upstream, upstream.APIKey)...)
	assertNoCredentials(t, doc, "my-own-key-0123456789")
	res := runDoc(t, "proxied.yaml", doc)
	assert.True(t, res.OK(), "%+v", res)
}

// In front of the real service (an upstream without a control plane, so
// without a start state), the recording proxy still leaves out what the
// traffic carries: the API key of each call's Basic header, the OAuth
// client secret and code sent for a token, the access and refresh tokens
// the answers hand out and the calls use, and the token of an embedded
// sign URL. The file is well formed and its placeholders resolve: its
// steps run as the replay world's own account. With KeepCredentials (the
// flag --keep-credentials of signsandbox record) the key stays.
func TestRecordingProxyLeavesTheRealServicesCredentialsOut(t *testing.T) {
	upstream := apitest.ScenarioServer(t, sandbox.WithOfflineFiles())
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, sandbox.ControlPrefix) {
			http.NotFound(w, r)
			return
		}
		upstream.Sandbox.ServeHTTP(w, r)
	}))
	t.Cleanup(foreign.Close)
	realKey := upstream.APIKey
	secret := apitest.ClientSecret(t, upstream)
	session := func(keep bool) []byte {
		t.Helper()
		out := filepath.Join(t.TempDir(), "real.yaml")
		proxy, err := sandbox.NewRecordingProxy(foreign.URL, out, nil)
		require.NoError(t, err)
		proxy.KeepCredentials = keep
		ps := httptest.NewServer(proxy)
		t.Cleanup(ps.Close)
		client := apitest.NewControlCheckedServer(t)
		client.URL, client.APIKey, client.Client = ps.URL, realKey, &http.Client{Timeout: time.Minute}

		require.Equal(t, http.StatusOK, client.Do(http.MethodGet, "/v3/account", nil).Status)
		code := apitest.Authorize(t, upstream, map[string]any{"state": "s1"})
		tok := apitest.DecodeToken(t, apitest.Exchange(t, client, "/oauth/token", code, secret, "s1"))
		require.Equal(t, http.StatusOK, apitest.Bearer(t, client, tok.AccessToken, http.MethodGet, "/v3/account", "").Status)
		r := client.DoAs("", http.MethodPost, "/oauth/token?refresh", map[string]any{"grant_type": "refresh_token", "refresh_token": tok.RefreshToken})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		sr := apitest.CreateEmbeddedRequest(t, client)
		r = apitest.SignURL(t, client, apitest.SignatureID(sr, 0))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.NoError(t, proxy.Close())
		require.NoError(t, proxy.Err())
		doc, err := os.ReadFile(out)
		require.NoError(t, err)
		assert.NotContains(t, string(doc), "format: signsandbox-state/1", "the real service has no start state")
		return doc
	}

	doc := session(false)
	creds := worldCredentials(t, upstream, upstream.APIKey)
	assertNoCredentials(t, doc, creds...)
	assertNoCredentials(t, doc, realKey, secret)
	assert.Contains(t, string(doc), "key: ${credentials.other")
	assert.Contains(t, string(doc), "auth: Bearer ${credentials.")
	res := runDoc(t, "real.yaml", doc)
	assert.Empty(t, res.Error, "the placeholders resolve")
	require.NotEmpty(t, res.Failures, "a replay of the real service is a fidelity check")
	assert.NotContains(t, res.Failures[0], "step 1:", "the first call runs as the replay world's own account and answers alike")

	kept := session(true)
	assert.Contains(t, string(kept), "auth: Basic "+base64.StdEncoding.EncodeToString([]byte(realKey+":")))
	assert.NotContains(t, string(kept), "${credentials.")
}
