package console_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// payloads are what a hostile caller puts in every value it controls.
var payloads = []string{`<script>window.__xss=1</script>`, `"><img src=x onerror="window.__xss=1">`}

// hostileRequest sends a request whose title, subject, message, signer
// names, metadata and file name all carry payload p.
func hostileRequest(t *testing.T, srv *sandboxtest.Server, p string) string {
	f := map[string]string{
		"title": "T " + p, "subject": "S " + p, "message": "M " + p, "test_mode": "1",
		"signers[0][name]": "N " + p, "signers[0][email_address]": "xss@example.com",
		"metadata[k]": "V " + p,
	}
	id, _ := sendRequest(t, srv, srv.APIKey, f, "f"+strings.NewReplacer("/", "", "\"", "").Replace(p)+".pdf")
	return id
}

// TestConsoleEscapesEveryCallerValue: the data the console reads carries
// hostile values only as JSON strings with <, > and & escaped (so no answer
// can be sniffed or parsed as markup), the server-rendered 404 page escapes
// the path it echoes, and the page's script never hands data to an HTML
// parser: it builds the page with textContent and DOM properties only, and
// follows only http(s) and in-page links. The browser test in
// e2e/browser/console runs the same payloads in Chromium.
func TestConsoleEscapesEveryCallerValue(t *testing.T) {
	srv := newServer(t)
	var ids []string
	for _, p := range payloads {
		ids = append(ids, hostileRequest(t, srv, p))
	}
	srv.Advance(time.Minute)
	paths := []string{base + "/api/signature_requests", base + "/api/emails", base + "/api/callbacks",
		base + "/api/objects/signature_request", base + "/api/signature_requests?q=script"}
	for _, id := range ids {
		paths = append(paths, base+"/api/signature_requests/"+id, base+"/api/callbacks?object_id="+id)
	}
	for _, path := range paths {
		r := srv.DoAs("", http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, r.Status, path)
		body := string(r.Body)
		assert.Contains(t, r.Header.Get("Content-Type"), "application/json", path)
		assert.NotContains(t, body, "<script", path)
		assert.NotContains(t, body, "<img", path)
		if !strings.Contains(path, "callbacks") {
			assert.Contains(t, body, `\u003c`, path+": the payload is there, escaped")
		}
	}

	for _, p := range payloads {
		r := srv.DoAs("", http.MethodGet, base+"/x"+strings.ReplaceAll(p, "/", "%2F")+".html", nil)
		require.Equal(t, http.StatusNotFound, r.Status)
		assert.NotContains(t, string(r.Body), "<script>window", "the 404 page escapes the path")
		assert.NotContains(t, string(r.Body), "<img src=x", "the 404 page escapes the path")
	}

	js, err := os.ReadFile("assets/app.js")
	require.NoError(t, err)
	for _, sink := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute(\"on"} {
		assert.NotContains(t, string(js), sink, "app.js must not use %s", sink)
	}
	// One HTML document is parsed: an e-mail's HTML part, the sandbox's own
	// composition, in a frame sandboxed without scripts and without its
	// origin (mailFrame), so that even markup that slipped in could run
	// nothing and reach neither the console nor its key.
	assert.Equal(t, 1, strings.Count(string(js), ".srcdoc"), "one srcdoc: the e-mail frame's")
	assert.Regexp(t, regexp.MustCompile(`sandbox: "allow-popups allow-popups-to-escape-sandbox"`), string(js))
	assert.NotContains(t, string(js), "allow-scripts")
	assert.NotContains(t, string(js), "allow-same-origin")
	// The only setAttribute calls take fixed attribute names, never an on*
	// handler: handlers are added with addEventListener.
	assert.Regexp(t, regexp.MustCompile(`k\.startsWith\("on"\)\) n\.addEventListener`), string(js))
	html, err := os.ReadFile("assets/index.html")
	require.NoError(t, err)
	assert.NotRegexp(t, regexp.MustCompile(`<script>[^<]`), string(html), "no inline script")
}

// TestConsoleCrossSite: a page of another origin cannot drive the console's
// world. The console's calls carry a custom header (and, for a world other
// than the default, Authorization), so a browser must ask first (CORS
// preflight); the sandbox never approves one, so the call is never sent.
// The console's own routes answer no CORS headers either, so another origin
// cannot read them.
func TestConsoleCrossSite(t *testing.T) {
	srv := newServer(t)
	before := srv.Now()
	for _, path := range []string{"/_sandbox/clock/advance", "/_sandbox/reset", base + "/api/signature_requests", "/_sandbox/state"} {
		req, err := http.NewRequest(http.MethodOptions, srv.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, x-sandbox-console, content-type")
		req.Header.Set("X-Sandboxtest-No-Auth", "1")
		r := srv.Send(req)
		assert.NotEqual(t, http.StatusNoContent, r.Status, path)
		assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"), path)
		assert.Empty(t, r.Header.Get("Access-Control-Allow-Headers"), path)
		assert.Empty(t, r.Header.Get("Access-Control-Allow-Methods"), path)
	}
	r := srv.DoAs("", http.MethodGet, base+"/api/counts", nil)
	assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "DENY", srv.DoAs("", http.MethodGet, base+"/", nil).Header.Get("X-Frame-Options"), "no clickjacking")
	assert.Equal(t, before, srv.Now(), "nothing moved the clock")

	js, err := os.ReadFile("assets/app.js")
	require.NoError(t, err)
	assert.Contains(t, string(js), `"X-Sandbox-Console": "1"`, "every console call carries the header that forces a preflight")
	assert.Contains(t, string(js), `credentials: "omit"`, "the console sends no cookies")
	assert.Contains(t, string(js), "sessionStorage", "the key lives in the session")
	assert.NotContains(t, string(js), "localStorage", "the key never outlives the session")
}

// fixtureClientID is the default world's API app (fixtures), which embedded
// templates and drafts are made with.
const fixtureClientID = "7d1043473d55bfa90e8530d35801d4e3"

// fixtureClientSecret is that app's secret (fixtures).
const fixtureClientSecret = "5e4b2b4c9d4f4a0e8f7c6b5a49382716"

// postMultipart makes an object through the API with one PDF named
// fileName and answers the JSON answer.
func postMultipart(t *testing.T, srv *sandboxtest.Server, path string, fields map[string]string, fileName string) map[string]any {
	t.Helper()
	var out map[string]any
	require.NoError(t, json.Unmarshal(postFile(t, srv, srv.APIKey, path, fields, fileName), &out))
	return out
}

var (
	inlineScriptRE = regexp.MustCompile(`<script>`)
	scriptSrcRE    = regexp.MustCompile(`<script[^>]*\ssrc="([^"]*)"`)
)

// checkPageEscapes: a page shows the payloads only escaped, runs no script
// but its protocol script and the sandbox's own files, and sends a policy
// that runs nothing else.
func checkPageEscapes(t *testing.T, name string, r *sandboxtest.Response) {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "%s: %s", name, r.Body)
	body := string(r.Body)
	assert.NotContains(t, body, "<script>window.__xss", name)
	assert.NotContains(t, body, "<img src=x", name)
	assert.NotContains(t, body, `" onerror=`, name)
	assert.True(t, strings.Contains(body, "&lt;script&gt;window.__xss") || strings.Contains(body, "&lt;img src=x") ||
		strings.Contains(body, `\u003cscript`) || strings.Contains(body, `\u003cimg`), "%s shows the payload, escaped", name)
	assert.LessOrEqual(t, len(inlineScriptRE.FindAllString(body, -1)), 1, "%s: at most the protocol's inline script", name)
	for _, m := range scriptSrcRE.FindAllStringSubmatch(body, -1) {
		assert.True(t, strings.HasPrefix(m[1], "/_sandbox/"), "%s loads only the sandbox's scripts: %s", name, m[1])
	}
	csp := r.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "script-src 'self'", name)
	assert.NotContains(t, csp, "unsafe-inline", name)
}

// TestPagesEscapeEveryCallerValue: the signing page behind an e-mail link,
// a request's details page, the template editor and the claim page show
// hostile titles, subjects, messages, names, role names and file names as
// text, and their scripts (shared with the console) hand no data to an
// HTML parser.
func TestPagesEscapeEveryCallerValue(t *testing.T) {
	srv := newServer(t)
	for _, p := range payloads {
		id := hostileRequest(t, srv, p)
		srv.Advance(time.Minute)
		var mails struct {
			Emails []struct {
				Link string `json:"link"`
			} `json:"emails"`
		}
		getJSON(t, srv, "", "/_sandbox/emails?signature_request_id="+id, http.StatusOK, &mails)
		signLink := ""
		for _, m := range mails.Emails {
			if strings.Contains(m.Link, "/sign/") {
				signLink = m.Link
			}
		}
		require.NotEmpty(t, signLink, "the signer's e-mail links to the signing page")
		u, err := url.Parse(signLink)
		require.NoError(t, err)
		checkPageEscapes(t, "signing page", srv.DoAs("", http.MethodGet, u.Path, nil))
		world := strings.Split(strings.TrimPrefix(u.Path, "/_sandbox/w/"), "/")[0]
		checkPageEscapes(t, "details page", srv.DoAs("", http.MethodGet, "/_sandbox/w/"+world+"/requests/"+id, nil))

		tpl := postMultipart(t, srv, "/v3/template/create_embedded_draft", map[string]string{
			"client_id": fixtureClientID, "test_mode": "1", "title": "T " + p, "subject": "S " + p, "message": "M " + p,
			"signer_roles[0][name]": "R " + p, "cc_roles[0]": "C " + p,
		}, "t"+strings.NewReplacer("/", "", "\"", "").Replace(p)+".pdf")
		editURL, err := url.Parse(tpl["template"].(map[string]any)["edit_url"].(string))
		require.NoError(t, err)
		checkPageEscapes(t, "template editor", srv.DoAs("", http.MethodGet, editURL.Path, nil))

		draft := postMultipart(t, srv, "/v3/unclaimed_draft/create_embedded", map[string]string{
			"client_id": fixtureClientID, "test_mode": "1", "requester_email_address": "owner@sandbox.example",
			"title": "T " + p, "subject": "S " + p, "message": "M " + p,
			"signers[0][name]": "N " + p, "signers[0][email_address]": "xss@example.com",
		}, "d"+strings.NewReplacer("/", "", "\"", "").Replace(p)+".pdf")
		claimURL, err := url.Parse(draft["unclaimed_draft"].(map[string]any)["claim_url"].(string))
		require.NoError(t, err)
		checkPageEscapes(t, "claim page", srv.DoAs("", http.MethodGet, claimURL.Path, nil))
	}

	dir := "../signpage/assets"
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".mjs") {
			continue
		}
		js, err := os.ReadFile(dir + "/" + e.Name())
		require.NoError(t, err)
		for _, sink := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute(\"on", "srcdoc"} {
			assert.NotContains(t, string(js), sink, "%s must not use %s", e.Name(), sink)
		}
	}
}
