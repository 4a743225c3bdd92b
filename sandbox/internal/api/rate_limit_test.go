package api_test

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// rawGet sends a GET over a fresh TCP connection and returns the status line
// and header lines exactly as they came over the wire (Go's client would
// canonicalize X-Ratelimit-Reset's spelling away).
func rawGet(t *testing.T, srv *sandboxtest.Server, path, key string) (status string, headers []string) {
	t.Helper()
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
	req := "GET " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nConnection: close\r\n"
	if key != "" {
		req += "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(key+":")) + "\r\n"
	}
	_, err = io.WriteString(conn, req+"\r\n")
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	status, err = br.ReadString('\n')
	require.NoError(t, err)
	for {
		line, err := br.ReadString('\n')
		require.NoError(t, err)
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		headers = append(headers, line)
	}
	return strings.TrimSpace(status), headers
}

// rateHeaders picks the three rate-limit header lines, keyed by their exact
// spelling on the wire.
func rateHeaders(headers []string) map[string]string {
	out := map[string]string{}
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ": ")
		if strings.HasPrefix(strings.ToLower(name), "x-ratelimit-") {
			out[name] = value
		}
	}
	return out
}

func TestRateLimitHeadersExactSpellingOnTheWire(t *testing.T) {
	srv := apitest.NewServer(t)
	status, headers := rawGet(t, srv, "/v3/account", srv.APIKey)
	require.Equal(t, "HTTP/1.1 200 OK", status)
	reset := srv.Now().Add(time.Minute).Unix()
	assert.Equal(t, map[string]string{
		"X-RateLimit-Limit":     "100",
		"X-RateLimit-Remaining": "99",
		"X-Ratelimit-Reset":     strconv.FormatInt(reset, 10),
	}, rateHeaders(headers), "the official spelling, including the lower-case l of X-Ratelimit-Reset")

	// Errors carry none: the headers belong to successful answers.
	status, headers = rawGet(t, srv, "/v3/account", "")
	require.Equal(t, "HTTP/1.1 401 Unauthorized", status)
	assert.Empty(t, rateHeaders(headers))
	status, headers = rawGet(t, srv, "/v3/account?account_id=unknown", srv.APIKey)
	require.Equal(t, "HTTP/1.1 404 Not Found", status)
	assert.Empty(t, rateHeaders(headers))

	status, headers = rawGet(t, srv, "/_sandbox/health", "")
	require.Equal(t, "HTTP/1.1 200 OK", status)
	assert.Empty(t, rateHeaders(headers), "the control plane is not rate limited")
}

func TestRateLimitCountsPerAccountOnTheWorldClock(t *testing.T) {
	srv := apitest.NewServer(t)
	teammateKey := "2ab813278759db81e3e1be162c230d3c32d49629a29e0545c2ffc8708e6e00db"
	get := func(key string) *sandboxtest.Response {
		r := srv.DoAs(key, http.MethodGet, "/v3/account", nil)
		require.Equal(t, http.StatusOK, r.Status)
		return r
	}
	for i := 1; i <= 3; i++ {
		r := get(srv.APIKey)
		assert.Equal(t, strconv.Itoa(100-i), r.Header.Get("X-RateLimit-Remaining"))
	}
	r := get(teammateKey)
	assert.Equal(t, "99", r.Header.Get("X-RateLimit-Remaining"), "each account has its own window")

	// Control calls do not count.
	srv.Control(http.MethodGet, "/clock", nil, nil)
	start := srv.Now()
	r = get(srv.APIKey)
	assert.Equal(t, "96", r.Header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, strconv.FormatInt(start.Add(time.Minute).Unix(), 10), r.Header.Get("X-Ratelimit-Reset"))

	// The window is on the world clock: it ends when the clock passes Reset.
	srv.Advance(59 * time.Second)
	assert.Equal(t, "95", get(srv.APIKey).Header.Get("X-RateLimit-Remaining"))
	srv.Advance(time.Second)
	r = get(srv.APIKey)
	assert.Equal(t, "99", r.Header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, strconv.FormatInt(srv.Now().Add(time.Minute).Unix(), 10), r.Header.Get("X-Ratelimit-Reset"))
}

func TestRateLimitEnforcementIsOffByDefaultAndPerWorld(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.Control(http.MethodPatch, "/config", map[string]any{"rate_limit": map[string]any{"limit": 2}}, nil)
	for i := 0; i < 4; i++ {
		r := srv.Do(http.MethodGet, "/v3/account", nil)
		require.Equal(t, http.StatusOK, r.Status, "not enforced by default")
		want := 1 - i
		if want < 0 {
			want = 0
		}
		assert.Equal(t, strconv.Itoa(want), r.Header.Get("X-RateLimit-Remaining"))
	}

	w := srv.NewWorld()
	r := srv.DoAs(w.APIKey, http.MethodPatch, "/_sandbox/config", map[string]any{"rate_limit": map[string]any{"enforce": true, "limit": 1}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, http.StatusOK, srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Status)
	r = srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil)
	require.Equal(t, http.StatusTooManyRequests, r.Status)
	name, msg, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "exceeded_rate", name)
	assert.Equal(t, "Too many requests.", msg)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/account", nil).Status, "the other world does not enforce")

	// Switching enforcement off again lets requests through at once.
	r = srv.DoAs(w.APIKey, http.MethodPatch, "/_sandbox/config", map[string]any{"rate_limit": map[string]any{"enforce": false}})
	require.Equal(t, http.StatusOK, r.Status)
	assert.Equal(t, http.StatusOK, srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil).Status)
}

func TestRateLimitConfigValidation(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, body := range []map[string]any{
		{"rate_limit": map[string]any{"limit": 0}},
		{"rate_limit": map[string]any{"window": "-1s"}},
		{"rate_limit": map[string]any{"window": "soon"}},
		{"rate_limit": map[string]any{"enforce": "maybe"}},
		{"rate_limt": map[string]any{}},
	} {
		r := srv.Do(http.MethodPatch, "/_sandbox/config", body)
		assert.Equal(t, http.StatusBadRequest, r.Status, fmt.Sprint(body))
		apitest.ErrorParts(t, r.Body)
	}
}
