package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
)

// TestConsoleWaitEndsOnShutdown: a console waiting for a change does not
// hold up the graceful shutdown of the server (the binary stops with
// http.Server.Shutdown, which waits for every active request).
func TestConsoleWaitEndsOnShutdown(t *testing.T) {
	sb, err := sandbox.New()
	require.NoError(t, err)
	defer sb.Close()
	ts := httptest.NewServer(sb)
	defer ts.Close()
	// Should the wait outlive the shutdown, end it so that the test fails
	// instead of hanging in Close.
	defer ts.CloseClientConnections()

	resp, err := http.Get(ts.URL + base + "/api/changes")
	require.NoError(t, err)
	var v struct {
		Version uint64 `json:"version"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	resp.Body.Close()

	answered := make(chan int, 1)
	go func() {
		r, err := http.Get(ts.URL + base + "/api/changes?since=" + itoa(v.Version))
		if err != nil {
			answered <- 0
			return
		}
		r.Body.Close()
		answered <- r.StatusCode
	}()
	// Let the wait begin, then shut down as the binary does.
	time.Sleep(200 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	require.NoError(t, ts.Config.Shutdown(ctx), "shutdown must not wait for the console")
	assert.Less(t, time.Since(start), 4*time.Second)
	select {
	case status := <-answered:
		assert.Equal(t, http.StatusOK, status)
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting console got no answer")
	}
}
