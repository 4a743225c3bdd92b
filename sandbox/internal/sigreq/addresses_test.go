package sigreq

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// TestAddressesAreSharedPerWorldAndBase: calls through the same base get
// the same copies of the base and world address (which begins with the
// base); a call through another base gets its own, right values.
func TestAddressesAreSharedPerWorldAndBase(t *testing.T) {
	w, err := world.New(world.Options{ID: "default", Seed: "addresses", Mode: world.ClockFake})
	require.NoError(t, err)
	t.Cleanup(w.Close)
	host := &api.Host{}
	call := func(hostname string) *api.Call {
		r := httptest.NewRequest(http.MethodPost, "/v3/signature_request/send", nil)
		r.Host = hostname
		return &api.Call{Host: host, World: w, Request: r}
	}
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

	base, addr := addresses(call("sandbox.test:8080"))
	assert.Equal(t, "http://sandbox.test:8080", base)
	assert.Equal(t, "http://sandbox.test:8080/_sandbox/w/default", addr)
	assert.True(t, same(base, addr[:len(base)]), "the base is the start of the world address")

	base2, addr2 := addresses(call("sandbox.test:8080"))
	assert.True(t, same(base, base2) && same(addr, addr2), "a second call shares the first one's copies")

	c := call("other:1")
	other, otherAddr := addresses(c)
	assert.Equal(t, c.BaseURL(), other)
	assert.Equal(t, c.WorldURL(""), otherAddr+"/")
	assert.Equal(t, "http://other:1/_sandbox/w/default", otherAddr)
}
