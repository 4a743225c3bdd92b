package console

import (
	"context"
	"sync"
)

// Feed tells open consoles that a world changed. Every change of a world
// bumps its version; a console waits for a version other than the one it
// last showed (a long poll) and then reloads what it shows. Waiting needs
// no timer: a wait ends with the next change or when the browser leaves
// (the request's context), so the feed reads no clock at all.
type Feed struct {
	mu     sync.Mutex
	worlds map[string]*worldVersion
}

type worldVersion struct {
	n       uint64
	changed chan struct{} // closed and replaced on every change
}

// NewFeed returns a feed with no changes yet.
func NewFeed() *Feed { return &Feed{worlds: map[string]*worldVersion{}} }

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

// Wait answers the world's version as soon as it differs from since, or
// ctx's error when the caller went away first.
func (f *Feed) Wait(ctx context.Context, worldID string, since uint64) (uint64, error) {
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
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
