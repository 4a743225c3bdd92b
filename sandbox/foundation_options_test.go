package sandbox

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// optDo sends one request straight to the handler (no network).
func optDo(t *testing.T, s *Sandbox, key, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	// As a local client sends it: calls without credentials are answered
	// only under loopback names (package edge), and httptest's default
	// Host is example.com.
	req.Host = "127.0.0.1"
	if key != "" {
		req.SetBasicAuth(key, "")
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func optSandbox(t *testing.T, opts ...Option) *Sandbox {
	t.Helper()
	s, err := New(opts...)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

func optClock(t *testing.T, s *Sandbox) (int64, string) {
	t.Helper()
	rec := optDo(t, s, "", http.MethodGet, "/_sandbox/clock", "")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var c struct {
		Now  int64  `json:"now"`
		Mode string `json:"mode"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &c))
	return c.Now, c.Mode
}

func TestWithClockUsesTheGivenFakeClock(t *testing.T) {
	fc := clockwork.NewFakeClockAt(time.Date(2031, 7, 1, 0, 0, 0, 0, time.UTC))
	s := optSandbox(t, WithClock(fc))
	now, mode := optClock(t, s)
	assert.Equal(t, fc.Now().Unix(), now)
	assert.Equal(t, "fake", mode)

	// The embedding test moves the clock: the world sees it.
	fc.Advance(time.Hour)
	now, _ = optClock(t, s)
	assert.Equal(t, fc.Now().Unix(), now)

	// The control plane moves the same clock.
	rec := optDo(t, s, "", http.MethodPost, "/_sandbox/clock/advance", `{"duration":"2h"}`)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	assert.Equal(t, time.Date(2031, 7, 1, 3, 0, 0, 0, time.UTC), fc.Now())

	// Worlds created later get clocks of their own.
	rec = optDo(t, s, "", http.MethodPost, "/_sandbox/worlds", `{}`)
	require.Equal(t, http.StatusCreated, rec.Code)
	var w WorldInfo
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &w))
	assert.Equal(t, world.DefaultStart.Unix(), w.Now)
}

func TestWithClockRealAndFakeModes(t *testing.T) {
	s := optSandbox(t, WithClock(clockwork.NewRealClock()))
	_, mode := optClock(t, s)
	assert.Equal(t, "real", mode)

	s = optSandbox(t, WithRealClock())
	now, mode := optClock(t, s)
	assert.Equal(t, "real", mode)
	assert.InDelta(t, time.Now().Unix(), now, 60)

	at := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
	s = optSandbox(t, WithFakeClock(at))
	now, mode = optClock(t, s)
	assert.Equal(t, "fake", mode)
	assert.Equal(t, at.Unix(), now)

	s = optSandbox(t)
	now, _ = optClock(t, s)
	assert.Equal(t, world.DefaultStart.Unix(), now, "the package default is a fake clock at a fixed instant")
}

const optCustomFixtures = `{
  "accounts": [{"account_id": "1111111111111111111111111111111111111111", "email_address": "me@custom.example",
    "api_keys": [{"key": "custom-fixture-key", "name": "k", "primary": true}]}]
}`

func optAccountEmail(t *testing.T, s *Sandbox, key string) string {
	t.Helper()
	rec := optDo(t, s, key, http.MethodGet, "/v3/account", "")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var out struct {
		Account struct {
			Email string `json:"email_address"`
		} `json:"account"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	return out.Account.Email
}

func TestWithFixturesAndFixturesDir(t *testing.T) {
	s := optSandbox(t, WithFixtures(fstest.MapFS{"world.json": {Data: []byte(optCustomFixtures)}}))
	assert.Equal(t, "custom-fixture-key", s.DefaultAPIKey())
	assert.Equal(t, "me@custom.example", optAccountEmail(t, s, "custom-fixture-key"))

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "world.json"), []byte(optCustomFixtures), 0o600))
	s = optSandbox(t, WithFixturesDir(dir))
	assert.Equal(t, "me@custom.example", optAccountEmail(t, s, s.DefaultAPIKey()))

	_, err := New(WithFixturesDir(filepath.Join(dir, "missing")))
	require.Error(t, err)
	_, err = New(WithFixtures(fstest.MapFS{"world.json": {Data: []byte(`{"accounts":[]}`)}}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no accounts")
	_, err = New(WithFixtures(fstest.MapFS{}))
	require.Error(t, err)
}

func TestWithAPIKey(t *testing.T) {
	s := optSandbox(t, WithAPIKey("fixed-key-for-ci"))
	assert.Equal(t, "fixed-key-for-ci", s.DefaultAPIKey())
	assert.Equal(t, "owner@sandbox.example", optAccountEmail(t, s, "fixed-key-for-ci"))
	rec := optDo(t, s, "0b1a94ccae9d6301cd0b5fae223a4e6b9ad0d67861716ffcff2a2cd8f7d8381c", http.MethodGet, "/v3/account", "")
	assert.Equal(t, http.StatusUnauthorized, rec.Code, "the fixture key is replaced")
	// A reset keeps the fixed key.
	require.Equal(t, http.StatusOK, optDo(t, s, "fixed-key-for-ci", http.MethodPost, "/_sandbox/reset", "").Code)
	assert.Equal(t, "owner@sandbox.example", optAccountEmail(t, s, "fixed-key-for-ci"))
}

// TestWithHTTPClient: the given client's settings are kept and its
// transport is put under the destination rules (a clone without proxy);
// a RoundTripper of another kind is the program's own and kept as given.
func TestWithHTTPClient(t *testing.T) {
	tr := &http.Transport{Proxy: http.ProxyFromEnvironment, MaxIdleConns: 7}
	c := &http.Client{Timeout: time.Second, Transport: tr}
	s := optSandbox(t, WithHTTPClient(c))
	assert.Equal(t, time.Second, s.host.Client().Timeout)
	got, ok := s.host.Client().Transport.(*http.Transport)
	require.True(t, ok)
	assert.NotSame(t, tr, got, "the caller's transport is cloned, not changed")
	assert.Equal(t, 7, got.MaxIdleConns)
	assert.Nil(t, got.Proxy, "no proxy: its address would be checked instead of the target's")
	assert.NotNil(t, tr.Proxy)

	own := roundTripperFunc(func(*http.Request) (*http.Response, error) { return nil, nil })
	o := optSandbox(t, WithHTTPClient(&http.Client{Transport: own}))
	assert.NotNil(t, o.host.Client().Transport)
	_, isTransport := o.host.Client().Transport.(*http.Transport)
	assert.False(t, isTransport, "another RoundTripper is used as given")

	d := optSandbox(t)
	require.NotNil(t, d.host.Client())
	assert.NotNil(t, d.host.Client().CheckRedirect, "the default client does not follow redirects")
	dt, ok := d.host.Client().Transport.(*http.Transport)
	require.True(t, ok)
	assert.Nil(t, dt.Proxy)
	assert.NotNil(t, dt.DialContext)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestWithLogger(t *testing.T) {
	var buf bytes.Buffer
	s := optSandbox(t, WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	require.NoError(t, s.host.DefaultWorld().Store.Update(func(tx *state.Txn) error {
		_, err := state.Schedule(tx, "no.such.kind", "x", time.Second, nil)
		return err
	}))
	rec := optDo(t, s, "", http.MethodPost, "/_sandbox/clock/advance", `{"seconds":1}`)
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, buf.String(), "job failed")
	assert.Contains(t, buf.String(), "world=default")
}

func TestWithBaseURL(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "/v3/account", nil)
	req.Host = "sandbox.internal:8080"
	s := optSandbox(t, WithBaseURL("https://sign.example.com/"))
	assert.Equal(t, "https://sign.example.com", s.host.PublicBase(req))
	c := &api.Call{Host: s.host, Request: req, World: s.host.DefaultWorld()}
	assert.Equal(t, "https://sign.example.com/_sandbox/w/default/sign/abc", c.WorldURL("/sign/abc"))

	d := optSandbox(t)
	assert.Equal(t, "http://sandbox.internal:8080", d.host.PublicBase(req), "without the option the request's host is used")
	req.Header.Set("X-Forwarded-Proto", "https")
	assert.Equal(t, "https://sandbox.internal:8080", d.host.PublicBase(req))
}

// A base URL that would make broken links is refused when the sandbox is
// made, not discovered in the URLs it hands out.
func TestWithBaseURLRefusesWhatMakesBrokenLinks(t *testing.T) {
	for _, ok := range []string{"http://localhost:8080", "https://sign.example.com/", "https://example.com/sandbox", "http://[::1]:80"} {
		optSandbox(t, WithBaseURL(ok))
	}
	for _, bad := range []string{"not a url", "sign.example.com", "/relative", "ftp://example.com", "https://", "http://:8080",
		"https://example.com/?x=1", "https://example.com/#top", "https://user:pw@example.com", "http://exa mple.com"} {
		_, err := New(WithBaseURL(bad))
		assert.Error(t, err, bad)
	}
}

func TestWithMiddlewareOrder(t *testing.T) {
	var order []string
	mw := func(name string) func(http.Handler) http.Handler {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				order = append(order, name)
				next.ServeHTTP(w, r)
			})
		}
	}
	s := optSandbox(t, WithMiddleware(mw("outer")), WithMiddleware(mw("inner")))
	optDo(t, s, "", http.MethodGet, "/_sandbox/health", "")
	assert.Equal(t, []string{"outer", "inner"}, order)
}

func TestWithOfflineFiles(t *testing.T) {
	s := optSandbox(t, WithOfflineFiles())
	assert.False(t, s.host.DefaultWorld().Config().FetchFileURLs)
	w, err := s.host.CreateWorld(world.ClockFake, time.Time{})
	require.NoError(t, err)
	assert.False(t, w.Config().FetchFileURLs, "created worlds are offline too")
	assert.True(t, optSandbox(t).host.DefaultWorld().Config().FetchFileURLs)
}

func TestWithSeedDerivesWorldSeeds(t *testing.T) {
	assert.Equal(t, "3e3f1af45726d9b5376860a0c1e54a11", api.WorldSeed("a", 1), "the same base and number always give the same seed")
	assert.NotEqual(t, api.WorldSeed("a", 1), api.WorldSeed("a", 2))
	assert.NotEqual(t, api.WorldSeed("a", 1), api.WorldSeed("b", 1))
	s := optSandbox(t, WithSeed("my-seed"))
	assert.Equal(t, "my-seed", s.host.DefaultWorld().Seed)
}
