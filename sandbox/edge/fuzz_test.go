package edge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"path"
	"strings"
	"testing"
)

// FuzzCheckTarget: any path the target check lets through is one a router
// that cleaned paths would leave alone (so none can be redirected or
// reach another resource), and whose segments hold no "/"; a redirect goes
// to such a path, with the same non-empty segments.
func FuzzCheckTarget(f *testing.F) {
	for _, s := range []string{"/v3/account", "/v3/template/..%2F..%2Fv3%2Faccount", "//v3", "/a/./b", "/a/%2e%2E/b", "/a/", "/", "/a%2fb", "/%zz", "/a//", "/v3/signature_request/send", "/v3/a/b/", "/.", "/a/..", "/a/.b", "//"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.ParseRequestURI(raw)
		if err != nil || u.Opaque != "" || u.Scheme != "" || u.Host != "" {
			return
		}
		if plainPath(u.EscapedPath()) {
			// The shortcut lets through only what the full check lets
			// through unchanged.
			if e, redirect := checkPath(u.EscapedPath(), u.RawQuery); e != nil || redirect != "" {
				t.Fatalf("%q is taken for a plain path, but the full check answers %v %q", raw, e, redirect)
			}
		}
		r := &http.Request{Method: http.MethodGet, URL: u, RequestURI: raw}
		e, redirect := checkTarget(r)
		if e != nil {
			return
		}
		if redirect != "" {
			to, err := url.ParseRequestURI(redirect)
			if err != nil {
				t.Fatalf("%q redirects to %q: %v", raw, redirect, err)
			}
			if e, again := checkTarget(&http.Request{Method: http.MethodGet, URL: to, RequestURI: redirect}); e != nil || again != "" {
				t.Fatalf("%q redirects to %q, which is not a plain path", raw, redirect)
			}
			if nonEmpty(to.EscapedPath()) != nonEmpty(u.EscapedPath()) || to.RawQuery != u.RawQuery {
				t.Fatalf("%q redirects to %q, another resource", raw, redirect)
			}
			return
		}
		p := u.Path
		clean := path.Clean(p)
		if strings.HasSuffix(p, "/") && clean != "/" {
			clean += "/"
		}
		if clean != p {
			t.Fatalf("%q passed, but a cleaning router would turn its path %q into %q", raw, p, clean)
		}
		for _, seg := range strings.Split(u.EscapedPath(), "/") {
			if dec, err := url.PathUnescape(seg); err != nil || strings.Contains(dec, "/") {
				t.Fatalf("%q passed with the segment %q", raw, seg)
			}
		}
	})
}

// FuzzRewriteCanned: whatever is written to a connection, a rewrite is a
// well-formed HTTP answer whose body is the official envelope, and
// anything longer than a canned answer is left alone.
func FuzzRewriteCanned(f *testing.F) {
	f.Add([]byte("HTTP/1.1 400 Bad Request" + cannedHeaders + "400 Bad Request"))
	f.Add([]byte("HTTP/1.1 431 Request Header Fields Too Large" + cannedHeaders + "431 Request Header Fields Too Large"))
	f.Add([]byte("HTTP/1.1 501 Not Implemented" + cannedHeaders + "Unsupported transfer encoding"))
	f.Add([]byte("HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version" + cannedHeaders + "505 HTTP Version Not Supported: unsupported protocol version"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
	f.Fuzz(func(t *testing.T, p []byte) {
		out, ok := rewriteCanned(p)
		if !ok {
			return
		}
		if len(p) > maxCanned {
			t.Fatalf("rewrote %d bytes", len(p))
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
		if err != nil {
			t.Fatalf("rewrite of %q is not an HTTP answer: %v\n%s", p, err, out)
		}
		defer resp.Body.Close()
		if resp.StatusCode < 400 || resp.StatusCode > 499 {
			t.Fatalf("rewrite of %q answers %d", p, resp.StatusCode)
		}
		var e struct {
			Error map[string]string `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Error["error_name"] != "bad_request" || e.Error["error_msg"] == "" {
			t.Fatalf("rewrite of %q has no envelope: %v\n%s", p, err, out)
		}
	})
}

// nonEmpty is a raw path's non-empty segments, joined.
func nonEmpty(raw string) string {
	var out []string
	for _, s := range strings.Split(raw, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}
