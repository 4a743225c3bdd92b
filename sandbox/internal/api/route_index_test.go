package api

// The router's fast path in front of gorilla/mux: from each route's path
// template it knows which routes cannot match a path and asks mux only
// about the others, answering exactly as mux's Router.Match would.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testRouter registers templates as NewRouter does (path first, then the
// method), each route answering its own name, and one route the index is
// not told about.
func testRouter(withFallbacks bool) (*mux.Router, *routeIndex) {
	r := mux.NewRouter()
	templates := map[*mux.Route]string{}
	add := func(method, tpl string, known bool) {
		name := method + " " + tpl
		rt := r.Handle(tpl, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			fmt.Fprintf(w, "%s %v", name, mux.Vars(req))
		})).Methods(method)
		if known {
			templates[rt] = tpl
		}
	}
	add("GET", "/v3/account", true)
	add("POST", "/v3/account", true)
	add("GET", "/v3/signature_request/list", true)
	add("GET", "/v3/signature_request/{id}", true)
	add("POST", "/v3/signature_request/cancel/{id}", true)
	add("GET", "/v3/template/files/{id}/{kind}", true)
	add("GET", "/v3/{anything}", true)                // variable in the second segment: loose
	add("GET", "/_sandbox/files/{path:.*}", true)     // own pattern: loose
	add("GET", "/_sandbox/unindexed/{id}", false)     // not told: loose
	add("DELETE", "/v3/signature_request/{id}", true) // same path, other method
	if withFallbacks {
		r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(404) })
		r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(405) })
	}
	return r, newRouteIndex(r, templates)
}

// TestMatchAnswersAsMux: for every path and method, the index finds the
// route mux finds, with the same variables and the same error (405 before
// 404), with and without the router's fallback handlers.
func TestMatchAnswersAsMux(t *testing.T) {
	paths := []string{
		"/v3/account", "/v3/account/", "/v3/accounts", "/v3",
		"/v3/signature_request/list", "/v3/signature_request/abc", "/v3/signature_request/",
		"/v3/signature_request/cancel/abc", "/v3/signature_request/cancel/", "/v3/signature_request/cancel/abc/x",
		"/v3/signature_request/remove/abc",
		"/v3/template/files/t1/pdf", "/v3/template/files/t1", "/v3/template/other/t1/pdf",
		"/_sandbox/files/a/b/c", "/_sandbox/files/", "/_sandbox/unindexed/7", "/_sandbox/unindexed",
		"/", "", "nothing", "/v4/account",
	}
	for _, fallbacks := range []bool{false, true} {
		r, x := testRouter(fallbacks)
		for _, method := range []string{"GET", "POST", "PUT", "DELETE"} {
			for _, p := range paths {
				req := httptest.NewRequest(method, "/", nil)
				req.URL.Path = p
				var want, got mux.RouteMatch
				wantOK := r.Match(req, &want)
				gotOK := x.Match(req, &got)
				name := fmt.Sprintf("fallbacks=%v %s %q", fallbacks, method, p)
				assert.Equal(t, wantOK, gotOK, name)
				assert.Equal(t, want.Route, got.Route, name)
				assert.Equal(t, want.Vars, got.Vars, name)
				assert.Equal(t, want.MatchErr, got.MatchErr, name)
				assert.Equal(t, want.Handler == nil, got.Handler == nil, name)
			}
		}
	}
}

// TestServeHTTPPassesVariables: the handler reads the path variables
// through mux.Vars; what the index does not settle, mux answers.
func TestServeHTTPPassesVariables(t *testing.T) {
	_, x := testRouter(true)
	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/v3/signature_request/abc", "GET /v3/signature_request/{id} map[id:abc]", 200},
		{"DELETE", "/v3/signature_request/abc", "DELETE /v3/signature_request/{id} map[id:abc]", 200},
		{"GET", "/v3/account", "GET /v3/account map[]", 200},
		{"GET", "/_sandbox/files/a/b", "GET /_sandbox/files/{path:.*} map[path:a/b]", 200},
		{"PUT", "/v3/account", "", 405},
		{"GET", "/nowhere/at/all", "", 404},
	} {
		w := httptest.NewRecorder()
		x.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, nil))
		assert.Equal(t, tc.status, w.Code, "%s %s", tc.method, tc.path)
		assert.Equal(t, tc.body, w.Body.String(), "%s %s", tc.method, tc.path)
	}
}

// TestReadTemplate: which templates the index can bucket, and which it
// must try for every path.
func TestReadTemplate(t *testing.T) {
	r := mux.NewRouter()
	for _, tc := range []struct {
		tpl      string
		known    bool
		loose    bool
		static   bool
		key      bucketKey
		literals []literalSegment
	}{
		{tpl: "/v3/account", known: true, static: true, key: bucketKey{2, "v3", "account"}},
		{tpl: "/v3/signature_request/cancel/{id}", known: true, key: bucketKey{4, "v3", "signature_request"},
			literals: []literalSegment{{2, "cancel"}}},
		{tpl: "/v3/a/{x}/b/{y}", known: true, key: bucketKey{5, "v3", "a"},
			literals: []literalSegment{{3, "b"}}},
		{tpl: "/v3", known: true, static: true, key: bucketKey{1, "v3", ""}},
		{tpl: "/v3/{id}", known: true, loose: true},
		{tpl: "/files/{p:.*}", known: true, loose: true},
		{tpl: "/v3/account", known: false, loose: true},
	} {
		rt := r.NewRoute().Path(tc.tpl)
		got := readTemplate(rt, tc.tpl, tc.known)
		assert.Equal(t, tc.loose, got.loose, tc.tpl)
		if !tc.loose {
			assert.Equal(t, tc.static, got.static, tc.tpl)
			assert.Equal(t, tc.key, got.key, tc.tpl)
			assert.Equal(t, tc.literals, got.literals, tc.tpl)
		}
	}
	// A template that is not the route's own is not trusted.
	rt := r.NewRoute().Path("/v3/account")
	assert.True(t, readTemplate(rt, "/v3/other", true).loose)
}

// TestPathKey buckets a path by its slashes and first two segments.
func TestPathKey(t *testing.T) {
	for path, want := range map[string]bucketKey{
		"/":                    {1, "", ""},
		"/v3":                  {1, "v3", ""},
		"/v3/account":          {2, "v3", "account"},
		"/v3/account/":         {3, "v3", "account"},
		"/v3/template/files/x": {4, "v3", "template"},
	} {
		got, ok := pathKey(path)
		require.True(t, ok, path)
		assert.Equal(t, want, got, path)
	}
	_, ok := pathKey("v3/account")
	assert.False(t, ok)
}
