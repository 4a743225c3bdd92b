package console

import (
	"context"
	"net/http"
	"sync"
)

// Feed tells open consoles that a world changed. Every change of a world
// bumps its version; a console waits for a version other than the one it
// last showed (a long poll) and then reloads what it shows. Waiting needs
// no timer: a wait ends with the next change or when the browser leaves
// (the request's context), when the world is closed, or when the HTTP
// server that holds the wait shuts down (so that an open console never
// holds up a graceful shutdown), so the feed reads no clock at all.
type Feed struct {
	mu     sync.Mutex
	worlds map[string]*worldVersion
	// servers holds, per HTTP server that served a wait, a channel closed
	// when that server starts shutting down.
	servers map[*http.Server]chan struct{}
}

type worldVersion struct {
	n       uint64
	changed chan struct{} // closed and replaced on every change
}

// NewFeed returns a feed with no changes yet.
func NewFeed() *Feed {
	return &Feed{worlds: map[string]*worldVersion{}, servers: map[*http.Server]chan struct{}{}}
}

// shuttingDown answers a channel closed when the HTTP server that serves
// ctx's request shuts down (nil when ctx names none, as in tests that call
// a handler directly). The first wait on a server registers one shutdown
// function with it.
func (f *Feed) shuttingDown(ctx context.Context) <-chan struct{} {
	hs, ok := ctx.Value(http.ServerContextKey).(*http.Server)
	if !ok || hs == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	ch, ok := f.servers[hs]
	if !ok {
		ch = make(chan struct{})
		f.servers[hs] = ch
		hs.RegisterOnShutdown(func() { close(ch) })
	}
	return ch
}

func (f *Feed) of(worldID string) *worldVersion {
	v := f.worlds[worldID]
	if v == nil {
		v = &worldVersion{changed: make(chan struct{})}
		f.worlds[worldID] = v
	}
	return v
}

// Changed records a change of the world and wakes its waiting consoles.
func (f *Feed) Changed(worldID string) {
	if worldID == "" {
		return
	}
	f.mu.Lock()
	v := f.of(worldID)
	v.n++
	close(v.changed)
	v.changed = make(chan struct{})
	f.mu.Unlock()
}

// Forget drops a deleted world's version.
func (f *Feed) Forget(worldID string) {
	f.mu.Lock()
	if v := f.worlds[worldID]; v != nil {
		close(v.changed)
		delete(f.worlds, worldID)
	}
	f.mu.Unlock()
}

// Version is the world's current version (0 before its first change).
func (f *Feed) Version(worldID string) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.of(worldID).n
}

// Wait returns the world's version as soon as it differs from since, or
// ctx's error when the caller went away first. It also returns (the
// unchanged version) when closed is closed (the world stopped) or when the
// HTTP server serving ctx shuts down.
func (f *Feed) Wait(ctx context.Context, worldID string, since uint64, closed <-chan struct{}) (uint64, error) {
	down := f.shuttingDown(ctx)
	for {
		f.mu.Lock()
		v := f.of(worldID)
		n, ch := v.n, v.changed
		f.mu.Unlock()
		if n != since {
			return n, nil
		}
		select {
		case <-ch:
		case <-closed:
			return n, nil
		case <-down:
			return n, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
