package sandbox

import (
	"fmt"
	"sync"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/journal"
	"github.com/signsandbox/signsandbox/sandbox/internal/metrics"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// persistence is a sandbox's data directory (WithDataDir): the worlds it
// held when the server last stopped, and the journal every world writes.
// Without a data directory dir is nil and nothing touches the disk.
type persistence struct {
	dir *journal.Dir
	// saved are the worlds found on opening, by id; restoredDefault says
	// whether the default world came back from the directory.
	saved           map[string]journal.Meta
	restoredDefault bool
	// attached holds the ids of the worlds whose journal runs: only those
	// are removed from the directory when dropped (a world whose restore
	// failed keeps its data).
	attached sync.Map
}

// WithDataDir keeps every world in dir: each committed change is appended
// to the world's journal before it is acknowledged, world creation,
// deletion, reset and import and the moves of fake clocks are recorded,
// and journals are folded into snapshots as they grow. New restores every
// world found there (data, clock, job queue, callback logs, outboxes),
// and their scheduled work resumes. fsync is "interval" (the default:
// fsync at most every 100ms; a crash of the machine can lose the last
// interval, a killed process nothing) or "always" (every change is
// fsynced before it is acknowledged).
func WithDataDir(dir, fsync string) Option {
	return func(cfg *config) error {
		if dir == "" {
			return fmt.Errorf("data directory: empty path")
		}
		if fsync == "" {
			fsync = string(journal.SyncInterval)
		}
		if _, err := journal.ParseSync(fsync); err != nil {
			return err
		}
		cfg.dataDir, cfg.fsync = dir, fsync
		return nil
	}
}

// CheckFsync reports whether policy can be given to WithDataDir.
func CheckFsync(policy string) error {
	_, err := journal.ParseSync(policy)
	return err
}

// openData opens the data directory and reads which worlds it holds.
func (s *Sandbox) openData() error {
	if s.cfg.dataDir == "" {
		return nil
	}
	d, err := journal.Open(s.cfg.dataDir, journal.Options{Sync: journal.Sync(s.cfg.fsync), Logger: s.host.Log(), CompactBytes: s.cfg.compactBytes})
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	saved, err := d.Saved()
	if err != nil {
		d.Close()
		return fmt.Errorf("sandbox: data directory: %w", err)
	}
	s.persist.dir = d
	s.persist.saved = map[string]journal.Meta{}
	for _, m := range saved {
		s.persist.saved[m.ID] = m
	}
	return nil
}

// restoreWorlds makes again, in creation order, every world of the data
// directory besides the default one (the host's NewWorld restores their state).
func (s *Sandbox) restoreWorlds() error {
	d := s.persist.dir
	if d == nil {
		return nil
	}
	saved, err := d.Saved()
	if err != nil {
		return fmt.Errorf("sandbox: data directory: %w", err)
	}
	for _, m := range saved {
		if m.ID == "default" {
			continue
		}
		spec := api.WorldSpec{ID: m.ID, Seed: m.Seed, Mode: world.ClockMode(m.Mode), Derive: m.Derive, Random: m.Random, Number: m.Number}
		if _, err := s.host.NewWorld(spec); err != nil {
			return fmt.Errorf("sandbox: restoring world %s: %w", m.ID, err)
		}
	}
	s.host.CountCreated(d.Created())
	return nil
}

// startScenarios are the scenarios New loads into the default world: none
// when it came back from the data directory, where their effects already
// are.
func (s *Sandbox) startScenarios() []namedSource {
	if s.persist.restoredDefault {
		return nil
	}
	return s.cfg.scenarios
}

// worldAdded journals a new world: one found in the data directory gets
// its state and clock back first; a new one is written as its first
// snapshot. Either way the journal then sees every commit and clock move.
func (s *Sandbox) worldAdded(w *world.World, spec api.WorldSpec) error {
	d := s.persist.dir
	if d == nil {
		return nil
	}
	var j *journal.Journal
	_, restoring := s.persist.saved[spec.ID]
	if restoring {
		delete(s.persist.saved, spec.ID)
		l, err := d.Load(spec.ID)
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		// Clocks only move forward: a clock that already stands later
		// (a real one, or one the embedder gave) keeps its time, and
		// what fell due meanwhile runs.
		now := l.Now
		if cur := w.Now(); cur.After(now) {
			now = cur
		}
		if err := w.Import(l.DB, w.Mode(), now); err != nil {
			return err
		}
		s.host.AfterWorldReplaced(w)
		if j, err = d.Attach(spec.ID, l); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		if spec.ID == "default" {
			s.persist.restoredDefault = true
		}
		s.host.Log().Info("world restored", "world", spec.ID, "records", l.Records, "torn_tail", l.Torn)
	}
	meta := journal.Meta{ID: spec.ID, Seed: spec.Seed, Mode: string(w.Mode()), Number: spec.Number, Derive: spec.Derive, Random: spec.Random}
	// Under the writer lock no commit can slip between the snapshot and
	// the observer; a restored world's journal is folded at once.
	err := w.Store.Update(func(tx *state.Txn) error {
		tables, err := state.Export(tx)
		if err != nil {
			return err
		}
		if j == nil {
			if err := d.Err(); err != nil {
				return err // its first change could not be kept anyway
			}
			if err := d.NoteCreated(spec.Number); err != nil {
				return err
			}
			if j, err = d.Create(meta, tables, w.Now()); err != nil {
				return err
			}
		} else if err := j.Compact(tables, w.Now); err != nil {
			return err
		}
		w.Store.SetCommitObserver(j.Observe)
		w.Store.SetCommitCheck(s.journalCheck)
		return nil
	})
	if err != nil {
		if restoring {
			return fmt.Errorf("sandbox: data directory: world %s: %w", spec.ID, err)
		}
		s.host.Log().Error("cannot write a new world to the data directory", "world", spec.ID, "err", err)
		return apierr.New(apierr.Unavailable, "The sandbox cannot write its data directory, so it cannot keep a new world; nothing was created. GET /_sandbox/ready says why.")
	}
	s.persist.attached.Store(spec.ID, true)
	if w.Mode() == world.ClockFake {
		w.OnClockMove(j.Clock)
	}
	j.OnCompact(func() { s.compactWorld(w, j) })
	return nil
}

// journalCheck refuses a write the journal could not record: the caller
// gets a 503 instead of an answer whose change a restart would lose.
func (s *Sandbox) journalCheck() error {
	if err := s.persist.dir.Err(); err != nil {
		return apierr.New(apierr.Unavailable, "The sandbox cannot write its data directory, so it cannot keep this change; nothing was changed. GET /_sandbox/ready says why.")
	}
	return nil
}

// compactWorld folds a world's journal into a new snapshot.
func (s *Sandbox) compactWorld(w *world.World, j *journal.Journal) {
	err := w.Store.Update(func(tx *state.Txn) error {
		tables, err := state.Export(tx)
		if err != nil {
			return err
		}
		return j.Compact(tables, w.Now)
	})
	if err != nil {
		s.host.Log().Error("journal compaction failed; the journal goes on growing", "world", w.ID, "err", err)
	}
}

// worldDropped removes a deleted world from the data directory.
func (s *Sandbox) worldDropped(w *world.World) {
	if s.persist.dir == nil {
		return
	}
	if _, ok := s.persist.attached.LoadAndDelete(w.ID); !ok {
		return
	}
	w.Store.SetCommitObserver(nil)
	if err := s.persist.dir.Delete(w.ID); err != nil {
		s.host.Log().Error("removing a deleted world from the data directory", "world", w.ID, "err", err)
	}
}

// closeData flushes and closes the journals, once the worlds stopped.
func (s *Sandbox) closeData() {
	if s.persist.dir == nil {
		return
	}
	if err := s.persist.dir.Close(); err != nil {
		s.host.Log().Error("closing the data directory", "err", err)
	}
}

// notReady says why the server cannot serve its worlds ("" when it can).
func (s *Sandbox) notReady() string {
	if s.persist.dir == nil {
		return ""
	}
	if err := s.persist.dir.Err(); err != nil {
		return "the journal cannot be written: " + err.Error()
	}
	return ""
}

// persistenceGauges are the data directory's metrics (none without one).
func (s *Sandbox) persistenceGauges() []metrics.Family {
	if s.persist.dir == nil {
		return nil
	}
	st := s.persist.dir.Stats()
	counter := func(name, help string, v uint64) metrics.Family {
		return metrics.Family{Name: name, Type: "counter", Help: help, Samples: []metrics.Sample{{Value: float64(v)}}}
	}
	return []metrics.Family{
		counter("signsandbox_journal_records_total", "Records appended to the world journals.", st.Records),
		counter("signsandbox_journal_bytes_total", "Bytes appended to the world journals.", st.Bytes),
		counter("signsandbox_journal_fsyncs_total", "Fsyncs of the world journals.", st.Syncs),
		counter("signsandbox_journal_compactions_total", "Journals folded into snapshots.", st.Compactions),
	}
}
