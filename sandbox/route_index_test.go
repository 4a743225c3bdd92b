package sandbox_test

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

// routeTestMethods are the methods every test path is tried with: the
// router's own, the ones no route has, and a lower-case one.
var routeTestMethods = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions, "PROPFIND", "get",
}

// routeVariablePattern finds the variables of a path template.
var routeVariablePattern = regexp.MustCompile(`\{[^}]*\}`)

// routeTestPaths are the paths of every registered route with its variables
// filled in several ways, and near misses of each: a trailing slash, a
// missing or extra segment, another case, another version, an empty or
// slashed variable, the query markers of the OAuth routes.
func routeTestPaths(routes []sandbox.RegisteredRouteForTest, values ...string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, rt := range routes {
		for _, v := range values {
			p := routeVariablePattern.ReplaceAllString(rt.Path, v)
			for _, q := range []string{"", "?refresh", "?refresh=1", "?x=1"} {
				add(p + q)
			}
			add(p + "/")
			add(p + "/extra")
			add(p + "//")
			add("/" + p)
			add(strings.ToUpper(p))
			add(strings.Replace(p, "/v3/", "/v2/", 1))
			add(strings.Replace(p, "/v3/", "/", 1))
			add("/v3" + p)
			add(strings.TrimSuffix(p, ".csv") + ".csvx")
			if i := strings.LastIndex(p, "/"); i > 0 {
				add(p[:i])
				add(p[:i+1])
			}
			if i := strings.IndexByte(p[1:], '/'); i > 0 {
				add(p[i+1:])
			}
		}
	}
	for _, p := range []string{"", "/", "//", "*", "v3/account", "/v3", "/v3/", "/_sandbox", "/_sandbox/", "/oauth", "/oauth/"} {
		add(p)
	}
	return out
}

// randomRoutePaths builds paths from the segments of the templates and a
// few others, of up to seven segments, from a fixed seed.
func randomRoutePaths(routes []sandbox.RegisteredRouteForTest, n int) []string {
	vocabulary := map[string]bool{"": true, "x": true, "1": true, "a.csv": true}
	for _, rt := range routes {
		for _, seg := range strings.Split(rt.Path, "/") {
			vocabulary[routeVariablePattern.ReplaceAllString(seg, "v")] = true
		}
	}
	words := make([]string, 0, len(vocabulary))
	for w := range vocabulary {
		words = append(words, w)
	}
	// Sorted, so that the seed gives the same paths on every run.
	sortStrings(words)
	rng := rand.New(rand.NewPCG(11, 1))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			b.WriteString("/" + words[rng.IntN(len(words))])
		}
		if rng.IntN(8) == 0 {
			b.WriteString("/")
		}
		out[i] = b.String()
	}
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// routeTestRequest is a request for a path as the router sees it (decoded,
// with its query), however odd the path.
func routeTestRequest(method, target string) *http.Request {
	path, query, _ := strings.Cut(target, "?")
	return &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}, Header: http.Header{}, Host: "localhost"}
}

// TestRouteIndexAnswersAsMux: the router's index routes every path as
// gorilla/mux's Router.Match does (the same route, path variables and
// error, so the same 404 and 405), for every registered route with every
// method, their near misses, and random paths made of their segments.
func TestRouteIndexAnswersAsMux(t *testing.T) {
	sb, err := sandbox.New()
	require.NoError(t, err)
	t.Cleanup(sb.Close)
	routes := sandbox.RegisteredRoutesForTest(sb)
	near := routeTestPaths(routes, "abc123", "a.csv", "", "a/b", "..")
	random := randomRoutePaths(routes, 1500)
	matched, notAllowed, notFound := 0, 0, 0
	check := func(paths []string, methods []string) {
		for _, p := range paths {
			for _, method := range methods {
				viaRouter, viaIndex, okRouter, okIndex := sandbox.RouteMatchesForTest(sb, routeTestRequest(method, p))
				if okRouter != okIndex || viaRouter.Route != viaIndex.Route || viaRouter.MatchErr != viaIndex.MatchErr ||
					!reflect.DeepEqual(viaRouter.Vars, viaIndex.Vars) || (viaRouter.Handler == nil) != (viaIndex.Handler == nil) {
					t.Fatalf("%s %q: router %v %+v, index %v %+v", method, p, okRouter, viaRouter, okIndex, viaIndex)
				}
				switch {
				case viaRouter.Route != nil:
					matched++
				case viaRouter.MatchErr != nil && viaRouter.MatchErr.Error() == "method is not allowed":
					notAllowed++
				default:
					notFound++
				}
			}
		}
	}
	check(near, routeTestMethods)
	check(random, routeTestMethods[:6])
	// The paths reach every kind of answer, so the comparison means something.
	require.Greater(t, matched, 2*len(routes))
	require.Greater(t, notAllowed, len(routes))
	require.Greater(t, notFound, len(near))
	t.Logf("%d near misses, %d random paths: %d matched, %d 405, %d 404", len(near), len(random), matched, notAllowed, notFound)
}

// TestRouteIndexServesAsMux: through the whole handler (edge included),
// the sandbox answers the near misses of every route, none of which
// reaches a handler, with the same status, headers and body as when
// gorilla/mux alone routes them.
func TestRouteIndexServesAsMux(t *testing.T) {
	sb, err := sandbox.New()
	require.NoError(t, err)
	t.Cleanup(sb.Close)
	routes := sandbox.RegisteredRoutesForTest(sb)
	plain := sandbox.RouterOnlyForTest(sb)
	served := 0
	for _, p := range routeTestPaths(routes, "abc123", "", "a/b") {
		for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodDelete, "PROPFIND"} {
			probe := routeTestRequest(method, p)
			if viaRouter, _, _, _ := sandbox.RouteMatchesForTest(sb, probe); viaRouter.Route != nil {
				continue // a handler would act; TestRouteIndexAnswersAsMux compares the match
			}
			target := (&url.URL{Path: p}).EscapedPath()
			if _, q, ok := strings.Cut(p, "?"); ok {
				target = (&url.URL{Path: strings.SplitN(p, "?", 2)[0]}).EscapedPath() + "?" + q
			}
			if !strings.HasPrefix(target, "/") {
				continue
			}
			a, b := httptest.NewRecorder(), httptest.NewRecorder()
			sb.ServeHTTP(a, httptest.NewRequest(method, target, nil))
			plain.ServeHTTP(b, httptest.NewRequest(method, target, nil))
			if a.Code >= 300 && a.Code < 400 {
				continue // the edge redirected before routing
			}
			require.Equal(t, b.Code, a.Code, "%s %s", method, target)
			require.Equal(t, b.Header(), a.Header(), "%s %s", method, target)
			require.Equal(t, b.Body.String(), a.Body.String(), "%s %s", method, target)
			served++
		}
	}
	require.Greater(t, served, len(routes))
}
