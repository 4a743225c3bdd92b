// Package journal keeps the worlds of a server in a data directory, so
// that a restarted server has them all back exactly: every committed
// change of every world is appended to the world's journal (through the
// store's commit observer), and from time to time folded into a snapshot
// in the exact export format of package state.
//
// Layout of a data directory:
//
//	LOCK                       held (flock) by the one server using it
//	worlds/<id>/world.json     how the world was made (id, seed, clock, credentials)
//	worlds/<id>/snapshot.json  generation G: the world's tables and clock
//	worlds/<id>/journal-G.log  the changes since snapshot G, framed (frame.go)
//	trash/                     deleted worlds on their way out
//
// A snapshot is replaced by writing the next generation beside it and
// renaming it into place; its journal starts empty under the new
// generation's name, so a crash at any point leaves either the old
// snapshot with its complete journal or the new one with its own.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
)

// Sync says when appended records are forced to the disk.
type Sync string

// The fsync policies. Either way every record is written to the file
// before the change it records is committed, so a killed process loses
// nothing; they differ when the machine itself stops.
const (
	// SyncAlways fsyncs every record before its change commits: a crash
	// of the machine loses no acknowledged change.
	SyncAlways Sync = "always"
	// SyncInterval fsyncs at most every Options.Interval: a crash of the
	// machine (not of the process) can lose the changes of the last
	// interval.
	SyncInterval Sync = "interval"
)

// ParseSync reads an fsync policy.
func ParseSync(s string) (Sync, error) {
	switch Sync(s) {
	case SyncAlways, SyncInterval:
		return Sync(s), nil
	}
	return "", fmt.Errorf("fsync policy must be %q or %q, not %q", SyncAlways, SyncInterval, s)
}

// Options configure a data directory.
type Options struct {
	Sync Sync
	// Interval is the fsync interval of SyncInterval (default 100ms).
	Interval time.Duration
	// CompactBytes is the journal size past which a world's journal is
	// folded into a new snapshot (default 8 MiB).
	CompactBytes int64
	Logger       *slog.Logger
	// Clock drives the fsync interval (the wall clock unless a test gives
	// another).
	Clock clockwork.Clock
}

// Dir is an open data directory.
type Dir struct {
	root string
	opts Options
	lock *os.File

	mu       sync.Mutex
	journals map[string]*Journal
	closed   bool

	failed atomic.Pointer[error]
	stop   chan struct{}
	done   chan struct{}

	// Counters for the metrics.
	records, bytes, syncs, compactions atomic.Uint64
	// trashed numbers the directories moved to the trash.
	trashed atomic.Uint64
}

// Meta is how a world was made, enough to make it again.
type Meta struct {
	ID   string `json:"id"`
	Seed string `json:"seed"`
	// Mode is the clock mode, "fake" or "real".
	Mode string `json:"mode"`
	// Number orders the worlds as they were created (0 for the default
	// world) and numbers the next one.
	Number int  `json:"number"`
	Derive bool `json:"derive,omitempty"`
	Random bool `json:"random,omitempty"`
}

// Open opens (creating it if need be) the data directory at root and
// locks it for this process: two servers writing one directory would
// interleave their journals.
func Open(root string, o Options) (*Dir, error) {
	if o.Sync == "" {
		o.Sync = SyncInterval
	}
	if o.Interval <= 0 {
		o.Interval = 100 * time.Millisecond
	}
	if o.CompactBytes <= 0 {
		o.CompactBytes = 8 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	for _, sub := range []string{"", "worlds", "trash"} {
		if err := os.MkdirAll(filepath.Join(root, sub), 0o755); err != nil {
			return nil, fmt.Errorf("data directory: %w", err)
		}
	}
	lock, err := lockFile(filepath.Join(root, "LOCK"))
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", root, err)
	}
	d := &Dir{root: root, opts: o, lock: lock, journals: map[string]*Journal{},
		stop: make(chan struct{}), done: make(chan struct{})}
	// Leftovers of a crash: deleted worlds not yet removed, worlds whose
	// creation did not finish.
	_ = os.RemoveAll(filepath.Join(root, "trash"))
	_ = os.MkdirAll(filepath.Join(root, "trash"), 0o755)
	if ents, err := os.ReadDir(filepath.Join(root, "worlds")); err == nil {
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				_ = os.RemoveAll(filepath.Join(root, "worlds", e.Name()))
			}
		}
	}
	go d.syncLoop()
	return d, nil
}

// Saved lists the worlds of the directory in creation order.
func (d *Dir) Saved() ([]Meta, error) {
	ents, err := os.ReadDir(filepath.Join(d.root, "worlds"))
	if err != nil {
		return nil, err
	}
	var out []Meta
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d.root, "worlds", e.Name(), "world.json"))
		if err != nil {
			return nil, fmt.Errorf("world %s: %w", e.Name(), err)
		}
		var m Meta
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("world %s: world.json: %w", e.Name(), err)
		}
		if m.ID != e.Name() {
			return nil, fmt.Errorf("world %s: world.json names %q", e.Name(), m.ID)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out, nil
}

// Err is the first error writing the journal met, nil while every record
// reached its file. A server with an error is not ready: changes it
// acknowledges from then on may not survive a restart.
func (d *Dir) Err() error {
	if p := d.failed.Load(); p != nil {
		return *p
	}
	return nil
}

// fail keeps the first write error and logs every one.
func (d *Dir) fail(world string, err error) {
	d.failed.CompareAndSwap(nil, &err)
	d.opts.Logger.Error("journal write failed: changes from now on may not survive a restart", "world", world, "err", err)
}

// Stats are the directory's counters since it was opened.
type Stats struct {
	Records, Bytes, Syncs, Compactions uint64
}

// Stats reads the counters.
func (d *Dir) Stats() Stats {
	return Stats{Records: d.records.Load(), Bytes: d.bytes.Load(), Syncs: d.syncs.Load(), Compactions: d.compactions.Load()}
}

// syncLoop fsyncs the journals written since the last tick, under
// SyncInterval.
func (d *Dir) syncLoop() {
	defer close(d.done)
	if d.opts.Sync != SyncInterval {
		<-d.stop
		return
	}
	t := d.opts.Clock.NewTicker(d.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.Chan():
			d.syncAll()
		}
	}
}

// syncAll fsyncs every journal with unsynced records.
func (d *Dir) syncAll() {
	d.mu.Lock()
	js := make([]*Journal, 0, len(d.journals))
	for _, j := range d.journals {
		js = append(js, j)
	}
	d.mu.Unlock()
	for _, j := range js {
		j.syncIfDirty()
	}
}

// Close fsyncs and closes every journal and releases the directory.
func (d *Dir) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	// A write after Close could not be journaled: refuse it (Err).
	closedErr := errors.New("data directory closed")
	d.failed.CompareAndSwap(nil, &closedErr)
	js := make([]*Journal, 0, len(d.journals))
	for _, j := range d.journals {
		js = append(js, j)
	}
	d.journals = map[string]*Journal{}
	d.mu.Unlock()
	close(d.stop)
	<-d.done
	var errs []error
	for _, j := range js {
		errs = append(errs, j.close())
	}
	errs = append(errs, unlockFile(d.lock))
	return errors.Join(errs...)
}

func (d *Dir) worldDir(id string) string { return filepath.Join(d.root, "worlds", id) }

// writeFileSync writes a file so that it is either all there or not at
// all: a temporary file, fsynced, renamed into place, the directory
// fsynced.
func writeFileSync(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir makes a rename or creation in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// Created is the highest world number the directory has seen, deleted
// worlds included, so that a restarted server never gives a new world
// the id of a deleted one.
func (d *Dir) Created() int {
	b, err := os.ReadFile(filepath.Join(d.root, "created"))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// NoteCreated records that world number n was created.
func (d *Dir) NoteCreated(n int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n <= d.Created() {
		return nil
	}
	return writeFileSync(filepath.Join(d.root, "created"), []byte(strconv.Itoa(n)+"\n"))
}

// Fail marks the directory as failed with err, as a write error does:
// readiness reports it and every write of every world is refused from
// then on. Health checks outside the journal (a disk that filled up) and
// tests use it.
func (d *Dir) Fail(err error) { d.fail("", err) }
