package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHealthcheckReadyAsksReadiness: --ready asks /_sandbox/ready (what
// compose.yaml's health check uses, so that a sandbox whose data volume it
// cannot write is not reported healthy), without it /_sandbox/health.
func TestHealthcheckReadyAsksReadiness(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/_sandbox/health":
			w.WriteHeader(http.StatusOK)
		case "/_sandbox/ready":
			w.WriteHeader(http.StatusServiceUnavailable) // live, not ready: the data directory cannot be written
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")

	assert.Equal(t, 0, cmdHealthcheck([]string{"--addr", addr}, io.Discard, io.Discard), "liveness")
	var stderr strings.Builder
	assert.Equal(t, 1, cmdHealthcheck([]string{"--addr", addr, "--ready"}, io.Discard, &stderr), "readiness")
	assert.Contains(t, stderr.String(), "status 503")
}
