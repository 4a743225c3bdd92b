package sandboxtest_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// exampleT stands in for the *testing.T a real test passes to NewServer
// (examples have none); it runs the cleanups when the example ends.
type exampleT struct{ cleanups []func() }

func (t *exampleT) Helper()                        {}
func (t *exampleT) Fatalf(format string, a ...any) { panic(fmt.Sprintf(format, a...)) }
func (t *exampleT) Cleanup(fn func())              { t.cleanups = append(t.cleanups, fn) }
func (t *exampleT) done() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// ExampleNewServer shows a test's use of the server: in a test, pass its
// *testing.T (srv := sandboxtest.NewServer(t)) and the server closes itself
// when the test ends.
func ExampleNewServer() {
	t := &exampleT{}
	defer t.done()

	srv := sandboxtest.NewServer(t)

	// srv.Client adds Basic auth with srv.APIKey to every request.
	resp, err := srv.Client.Get(srv.URL + "/v3/account")
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("X-RateLimit-Limit"))

	// Do sends JSON bodies and decodes the answer.
	r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": "fr-FR"})
	fmt.Println(r.Status, r.Map()["account"].(map[string]any)["locale"])

	// The clock is fake, at sandboxtest.Start, until advanced.
	fmt.Println(srv.Now().Equal(sandboxtest.Start))
	srv.Advance(90 * time.Minute)
	fmt.Println(srv.Now().Format(time.RFC3339))

	// Each world is isolated, with its own key.
	w := srv.NewWorld()
	r = srv.DoAs(w.APIKey, http.MethodGet, "/v3/account", nil)
	fmt.Println(r.Status, r.Map()["account"].(map[string]any)["locale"])
	// Output:
	// 200 100
	// 200 fr-FR
	// true
	// 2025-01-01T01:30:00Z
	// 200 en-US
}
