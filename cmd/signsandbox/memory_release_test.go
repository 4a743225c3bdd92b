package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuietWatchReleasesOncePerQuietSpell pins when memory is handed back:
// at the first tick without requests that follows a tick with some, once,
// and never while requests keep coming or while the server stays idle.
func TestQuietWatchReleasesOncePerQuietSpell(t *testing.T) {
	var q quietWatch
	steps := []struct {
		count    uint64
		inFlight bool
		release  bool
		why      string
	}{
		{0, false, false, "a server that served nothing releases nothing"},
		{0, false, false, "nor later"},
		{3, false, false, "requests came during this tick"},
		{9, false, false, "and during this one"},
		{9, false, true, "the first quiet tick releases"},
		{9, false, false, "once per quiet spell"},
		{9, false, false, "still quiet"},
		{10, true, false, "work again"},
		{10, true, false, "no new request, but one still runs"},
		{10, false, true, "it ended: release"},
	}
	for i, s := range steps {
		assert.Equal(t, s.release, q.tick(s.count, s.inFlight), "tick %d: %s", i, s.why)
	}
}

// TestReleaserCountsAndReleasesOnTicks runs the loop with the ticks a test
// sends: two quiet ticks after a request release once.
func TestReleaserCountsAndReleasesOnTicks(t *testing.T) {
	r := newReleaser(time.Hour)
	released := make(chan struct{}, 4)
	r.release = func() { released <- struct{}{} }
	h := r.wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	require.EqualValues(t, 1, r.requests.Load())

	done, ticks := make(chan struct{}), make(chan time.Time)
	stopped := make(chan struct{})
	go func() { r.loop(done, ticks); close(stopped) }()
	// The request was served before the loop started: the loop counts
	// from there, so its ticks see no work.
	ticks <- time.Time{}
	ticks <- time.Time{}
	close(done)
	<-stopped
	assert.Empty(t, released, "a request served before the loop started is not work since its start")

	done, stopped = make(chan struct{}), make(chan struct{})
	go func() { r.loop(done, ticks); close(stopped) }()
	ticks <- time.Time{} // the loop has taken its first count
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	ticks <- time.Time{} // sees the request
	ticks <- time.Time{} // quiet: releases
	ticks <- time.Time{} // ordered after the release
	close(done)
	<-stopped
	assert.Len(t, released, 1)
}

// TestProbesAndScrapesAreNotWork: health, readiness and metrics polls,
// which come more often than any quiet period, neither count nor hold a
// release back.
func TestProbesAndScrapesAreNotWork(t *testing.T) {
	r := newReleaser(time.Second)
	h := r.wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	for _, path := range []string{"/_sandbox/health", "/_sandbox/ready", "/_sandbox/metrics"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	assert.Zero(t, r.requests.Load())
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v3/account", nil))
	assert.EqualValues(t, 1, r.requests.Load())
	assert.Zero(t, r.inFlight.Load(), "a finished request is not in flight")
}

// TestReleaserOffPassesRequestsStraight: --release-idle 0 adds nothing to
// the request path and starts no loop.
func TestReleaserOffPassesRequestsStraight(t *testing.T) {
	r := newReleaser(0)
	called := false
	h := r.wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called = true }))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	require.True(t, called)
	assert.Zero(t, r.requests.Load())
	r.run(t.Context()) // returns at once
}

// TestReleaseIdleFlag reads --release-idle: 30 s by default, 0 for never,
// and a clear error naming the flag for what is not a duration.
func TestReleaseIdleFlag(t *testing.T) {
	d, err := (&gcConfig{}).releaseIdle()
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, d)
	d, err = (&gcConfig{ReleaseIdle: "0"}).releaseIdle()
	require.NoError(t, err)
	assert.Zero(t, d)
	for _, bad := range []string{"soon", "-1s"} {
		_, err := parseServeConfig([]string{"--release-idle", bad}, func(string) string { return "" }, io.Discard)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "--release-idle")
	}
	cfg, err := parseServeConfig([]string{"--release-idle", "2m"}, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	d, _ = cfg.GC.releaseIdle()
	assert.Equal(t, 2*time.Minute, d)
}
