package sandbox_test

// The hostile suite's part about server-side request forgery (issue 29):
// a caller with one world's key points file_urls, callback URLs and
// redirects at the server's own network. A team server (admin token)
// reaches none of it and tells the caller nothing about it beyond
// "destination not allowed"; a local sandbox keeps reaching loopback
// fixtures and receivers; --allow-outbound opens what the operator names.
// Every refused address here is refused before a connection is made, so
// the addresses outside this machine (10.0.0.1, 169.254.169.254) are never
// really tried.

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// internalSecret is what the server's internal network holds.
const internalSecret = "INTERNAL-SECRET-TOKEN-42"

// internalServer stands for something on the server's own network: it
// serves internalSecret as a text file, redirects, acknowledges callbacks,
// and counts what reached it.
type internalServer struct {
	base    string // http://host:port
	port    string
	conns   atomic.Int64 // connections accepted
	secrets atomic.Int64 // requests for the secret
	calls   atomic.Int64 // every request
}

// startInternal listens on addr ("127.0.0.1:0", "[::1]:0"); nil when the
// machine has no such address.
func startInternal(t *testing.T, addr string) *internalServer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil
	}
	s := &internalServer{base: "http://" + ln.Addr().String()}
	_, s.port, _ = net.SplitHostPort(ln.Addr().String())
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.calls.Add(1)
			switch r.URL.Path {
			case "/redirect":
				http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
			case "/loop":
				http.Redirect(w, r, "/loop", http.StatusFound)
			case "/cb":
				_, _ = io.WriteString(w, sandboxtest.Acknowledgement)
			default:
				s.secrets.Add(1)
				w.Header().Set("Content-Type", "text/plain")
				_, _ = io.WriteString(w, internalSecret)
			}
		}),
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				s.conns.Add(1)
			}
		},
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// outboundServer is a sandbox whose log the test reads.
func outboundServer(t *testing.T, opts ...sandbox.Option) (*sandboxtest.Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	opts = append(opts, sandbox.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	return apitest.NewServer(t, opts...), logs
}

// teamServer is a server with an admin token: the README's advice for any
// sandbox others can reach.
func teamServer(t *testing.T, opts ...sandbox.Option) (*sandboxtest.Server, *logBuffer) {
	t.Helper()
	return outboundServer(t, append([]sandbox.Option{sandbox.WithAdminToken("outbound-admin-token")}, opts...)...)
}

// fileURLOutcome sends a request with one file URL and answers the first
// signature's status, the request's event types, its id, and the message
// of its file_error event, once its files are prepared.
func fileURLOutcome(t *testing.T, srv *sandboxtest.Server, u string) (status string, events []string, id, message string) {
	t.Helper()
	r := apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBodyWith(map[string]any{"file_urls": []string{u}, "title": "Outbound"}))
	require.Equal(t, http.StatusOK, r.Status, "a file URL is fetched later: the call itself succeeds (%s)", r.Body)
	id = r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	srv.Advance(6 * time.Second)
	for _, c := range srv.Callbacks(sandboxtest.ObjectID(id)) {
		events = append(events, c.EventType)
		if c.EventType == "file_error" {
			message = c.EventMessage
		}
	}
	return apitest.Statuses(apitest.GetRequestOK(t, srv, id))[0], events, id, message
}

// assertRefusedFile checks that a file URL failed as an unreachable one
// does (error_file, file_error), saying why without an address.
func assertRefusedFile(t *testing.T, srv *sandboxtest.Server, u string) string {
	t.Helper()
	status, events, id, msg := fileURLOutcome(t, srv, u)
	assert.Equal(t, "error_file", status, u)
	assert.Contains(t, events, "file_error", u)
	assert.Contains(t, msg, "could not be downloaded: destination not allowed", u)
	given, _ := url.QueryUnescape(u)
	for _, internal := range []string{"127.0.0.1", "::1", "169.254.169.254", "10.0.0.1"} {
		if !strings.Contains(given, internal) {
			assert.NotContains(t, msg, internal, "%s: the message names no address the caller did not give", u)
		}
	}
	return id
}

// assertNothingLeaked reads every answer a caller and the operator can
// see about the given requests, and the log, and looks for the secret.
func assertNothingLeaked(t *testing.T, srv *sandboxtest.Server, logs *logBuffer, ids ...string) {
	t.Helper()
	pages := map[string][]byte{}
	for _, id := range ids {
		pages["request "+id] = srv.Do(http.MethodGet, "/v3/signature_request/"+id, nil).Body
		d := apitest.GetDownloads(srv, id)
		pages["pdf "+id], pages["zip "+id], pages["data uri "+id], pages["file url "+id] = d.PDF.Body, d.ZIP.Body, d.DataURI.Body, d.FileURL.Body
		pages["console request "+id] = srv.Do(http.MethodGet, "/_sandbox/console/api/signature_requests/"+id, nil).Body
		if d.PDF.Status == http.StatusOK && pdftest.HavePdftoppm() {
			pages["pdf text "+id] = []byte(pdftest.Text(t, d.PDF.Body))
		}
	}
	for _, p := range []string{"/_sandbox/callbacks", "/_sandbox/emails", "/_sandbox/state", "/_sandbox/console/api/callbacks", "/_sandbox/console/api/emails"} {
		pages[p] = srv.Do(http.MethodGet, p, nil).Body
	}
	pages["server log"] = []byte(logs.String())
	for name, b := range pages {
		assert.NotContains(t, string(b), internalSecret, "%s holds the internal secret", name)
	}
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestOutboundTeamServerReachesNothingInternal is the attack of issue 29
// against a team server: file URLs on loopback (by address, by name, in
// IPv6 and IPv4-mapped spellings), on private, CGNAT, unspecified and
// metadata addresses (also behind NAT64), and callback URLs on loopback,
// private and metadata addresses, with a redelivery. Nothing is
// connected to, every file fails as an unreachable one does, every
// delivery fails with "destination not allowed", and no answer or log line
// holds the secret; the operator's log names the refused addresses.
func TestOutboundTeamServerReachesNothingInternal(t *testing.T) {
	v4 := startInternal(t, "127.0.0.1:0")
	require.NotNil(t, v4)
	v6 := startInternal(t, "[::1]:0")
	srv, logs := teamServer(t)

	targets := []string{
		v4.base + "/secret.txt",
		"http://localhost:" + v4.port + "/secret.txt",
		"http://[::ffff:127.0.0.1]:" + v4.port + "/secret.txt",
		"http://[::ffff:7f00:1]:" + v4.port + "/secret.txt",
		"http://0.0.0.0:" + v4.port + "/secret.txt",
		"http://10.0.0.1:" + v4.port + "/secret.txt",
		"http://100.100.100.200/latest/meta-data/",
		"http://169.254.169.254/latest/meta-data/iam/security-credentials/",
		"http://[::ffff:169.254.169.254]/latest/meta-data/",
		"http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
		"http://[fd00:ec2::254]/latest/meta-data/",
		"http://localhost:" + v4.port + "/redirect?to=" + url.QueryEscape("http://127.0.0.1:"+v4.port+"/secret.txt"),
	}
	if v6 != nil {
		targets = append(targets, v6.base+"/secret.txt")
	} else {
		t.Log("no IPv6 loopback here: the [::1] case is left out")
	}
	var ids []string
	for _, u := range targets {
		ids = append(ids, assertRefusedFile(t, srv, u))
	}

	// Callbacks: the account's on loopback, an app's on the metadata
	// address and then on a private one, and a redelivery.
	apitest.SetCallbackURL(t, srv, srv.APIKey, v4.base+"/cb")
	r := srv.Do(http.MethodPost, "/v3/api_app", map[string]any{
		"name": "Probe", "domains": []string{"example.com"}, "callback_url": "http://169.254.169.254/latest/meta-data/"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	clientID := r.Map()["api_app"].(map[string]any)["client_id"].(string)
	srv.WaitCallbacks()
	r = srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"callback_url": "http://10.0.0.1/cb"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srv.WaitCallbacks()
	tests := srv.Callbacks(sandboxtest.EventType("callback_test"))
	require.Len(t, tests, 3)
	srv.Redeliver(tests[0].ID)
	srv.WaitCallbacks()
	for _, ev := range srv.Callbacks(sandboxtest.EventType("callback_test")) {
		require.NotEmpty(t, ev.Deliveries)
		for _, d := range ev.Deliveries {
			require.NotEmpty(t, d.Attempts, d.URL)
			for _, a := range d.Attempts {
				assert.False(t, a.Delivered, d.URL)
				assert.Zero(t, a.Status, d.URL)
				assert.Empty(t, a.Body, d.URL)
				assert.Equal(t, "destination not allowed: this shared server connects only to public addresses", a.Error, d.URL)
			}
			assert.NotEqual(t, "delivered", d.State)
		}
	}
	acct := srv.Callbacks(sandboxtest.EventType("callback_test"))[0].Deliveries[0]
	assert.Len(t, acct.Attempts, 2, "the first attempt and the redelivery")
	assert.Contains(t, string(srv.Do(http.MethodGet, "/_sandbox/console/api/callbacks", nil).Body), "destination not allowed",
		"the console shows why")

	assert.Zero(t, v4.conns.Load(), "nothing connected to the internal server")
	if v6 != nil {
		assert.Zero(t, v6.conns.Load())
	}
	assertNothingLeaked(t, srv, logs, ids...)
	log := logs.String()
	assert.Contains(t, log, "file_urls destination not allowed")
	assert.Contains(t, log, "callback destination not allowed")
	assert.Contains(t, log, "localhost resolved to 127.0.0.1, a loopback address", "the operator's log names the address")
}

// TestOutboundLocalSandboxReachesLocalTargets: without an admin token the
// same loopback targets are fetched and called, as before; link-local and
// metadata addresses are refused there too; redirects stop after five.
func TestOutboundLocalSandboxReachesLocalTargets(t *testing.T) {
	v4 := startInternal(t, "127.0.0.1:0")
	require.NotNil(t, v4)
	v6 := startInternal(t, "[::1]:0")
	srv, _ := outboundServer(t)
	targets := []string{
		v4.base + "/secret.txt",
		"http://localhost:" + v4.port + "/secret.txt",
		"http://[::ffff:127.0.0.1]:" + v4.port + "/secret.txt",
		"http://localhost:" + v4.port + "/redirect?to=" + url.QueryEscape("http://127.0.0.1:"+v4.port+"/secret.txt"),
	}
	if v6 != nil {
		targets = append(targets, v6.base+"/secret.txt")
	}
	for _, u := range targets {
		status, _, id, _ := fileURLOutcome(t, srv, u)
		assert.Equal(t, "awaiting_signature", status, u)
		if pdftest.HavePdftoppm() {
			d := apitest.GetDownloads(srv, id)
			require.Equal(t, http.StatusOK, d.PDF.Status)
			assert.Contains(t, pdftest.Text(t, d.PDF.Body), internalSecret, "the check above would see a leak")
		}
	}
	for _, u := range []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://[::ffff:169.254.169.254]/latest/meta-data/",
		"http://0.0.0.0:" + v4.port + "/secret.txt",
	} {
		status, events, _, msg := fileURLOutcome(t, srv, u)
		assert.Equal(t, "error_file", status, u)
		assert.Contains(t, events, "file_error", u)
		assert.Contains(t, msg, "destination not allowed: link-local", u)
	}
	status, _, _, msg := fileURLOutcome(t, srv, v4.base+"/loop")
	assert.Equal(t, "error_file", status)
	assert.Contains(t, msg, "more than 5 redirects")

	apitest.SetCallbackURL(t, srv, srv.APIKey, v4.base+"/cb")
	st := srv.WaitCallbacks()
	assert.Equal(t, 1, st.Delivered, "a local receiver on loopback gets its callbacks")
}

// TestOutboundAllowedThroughAllowOutbound: a team server reaches what the
// operator allows, by name, address, CIDR or "private", and nothing
// more: a redirect from an allowed host to another internal address is
// refused at that hop.
func TestOutboundAllowedThroughAllowOutbound(t *testing.T) {
	v4 := startInternal(t, "127.0.0.1:0")
	require.NotNil(t, v4)
	byName, logs := teamServer(t, sandbox.WithAllowOutbound("localhost"))
	status, _, _, _ := fileURLOutcome(t, byName, "http://localhost:"+v4.port+"/secret.txt")
	assert.Equal(t, "awaiting_signature", status, "the allowed name is fetched")
	fetched := v4.secrets.Load()
	require.EqualValues(t, 1, fetched)

	var ids []string
	for _, to := range []string{
		"http://127.0.0.1:" + v4.port + "/secret.txt",
		"http://[::ffff:127.0.0.1]:" + v4.port + "/secret.txt",
		"http://169.254.169.254/latest/meta-data/",
	} {
		ids = append(ids, assertRefusedFile(t, byName, "http://localhost:"+v4.port+"/redirect?to="+url.QueryEscape(to)))
	}
	ids = append(ids, assertRefusedFile(t, byName, v4.base+"/secret.txt"))
	assert.Equal(t, fetched, v4.secrets.Load(), "no refused hop reached the secret")
	assertNothingLeaked(t, byName, logs, ids...)

	apitest.SetCallbackURL(t, byName, byName.APIKey, "http://localhost:"+v4.port+"/cb")
	assert.Equal(t, 1, byName.WaitCallbacks().Delivered, "a receiver under an allowed name gets its callbacks")

	for _, allow := range []string{"private", "127.0.0.0/8", "127.0.0.1"} {
		srv, _ := teamServer(t, sandbox.WithAllowOutbound(allow))
		status, _, _, _ := fileURLOutcome(t, srv, v4.base+"/secret.txt")
		assert.Equal(t, "awaiting_signature", status, allow)
		status, _, _, _ = fileURLOutcome(t, srv, "http://169.254.169.254/latest/meta-data/")
		assert.Equal(t, "error_file", status, "%s never opens link-local addresses", allow)
	}

	_, err := sandbox.New(sandbox.WithAllowOutbound("169.254.169.254"))
	assert.ErrorContains(t, err, "never connected to")
	_, err = sandbox.New(sandbox.WithAllowOutbound("http://files.internal"))
	assert.ErrorContains(t, err, "allow-outbound entry")
}

// TestOutboundHostNameResolvingInternally uses a dialer seam as the
// resolver: files.corp.test leads to the internal server. A team server
// refuses it once the connection shows where it leads (a dialer the
// sandbox did not make is checked after it connects: nothing is sent),
// unless the name is allowed.
func TestOutboundHostNameResolvingInternally(t *testing.T) {
	v4 := startInternal(t, "127.0.0.1:0")
	require.NotNil(t, v4)
	var d net.Dialer
	resolver := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, _, _ := net.SplitHostPort(addr); host == "files.corp.test" {
			addr = "127.0.0.1:" + v4.port
		}
		return d.DialContext(ctx, network, addr)
	}
	client := func() *http.Client { return &http.Client{Transport: &http.Transport{DialContext: resolver}} }

	srv, logs := teamServer(t, sandbox.WithHTTPClient(client()))
	id := assertRefusedFile(t, srv, "http://files.corp.test/secret.txt")
	assert.Zero(t, v4.calls.Load(), "nothing was sent")
	assertNothingLeaked(t, srv, logs, id)

	allowed, _ := teamServer(t, sandbox.WithHTTPClient(client()), sandbox.WithAllowOutbound("*.corp.test"))
	status, _, _, _ := fileURLOutcome(t, allowed, "http://files.corp.test/secret.txt")
	assert.Equal(t, "awaiting_signature", status)
	assert.EqualValues(t, 1, v4.secrets.Load())
}

// TestOutboundPublicOnlyWithoutAdminToken: WithPublicOutboundOnly gives
// an in-process server the team rules without an admin token.
func TestOutboundPublicOnlyWithoutAdminToken(t *testing.T) {
	v4 := startInternal(t, "127.0.0.1:0")
	require.NotNil(t, v4)
	srv, _ := outboundServer(t, sandbox.WithPublicOutboundOnly())
	assertRefusedFile(t, srv, v4.base+"/secret.txt")
	assert.Zero(t, v4.conns.Load())
}
