package state

import (
	"time"

	memdb "github.com/hashicorp/go-memdb"
)

// Commit is one committed change of a store as its commit observer sees
// it: either the rows one write changed, or, after Replace (reset,
// import), the whole new database.
type Commit struct {
	// Seq numbers the commits of a store from 1, in commit order, so that
	// a journal can tell a gap from a repeat.
	Seq uint64
	// At is the world time of the write (the transaction's Now).
	At time.Time
	// Changes are the rows the write inserted, updated or deleted (memdb
	// change tracking); nil for a snapshot.
	Changes memdb.Changes
	// Snapshot, when set, is a read transaction of the database Replace
	// installed: everything before this commit no longer counts.
	Snapshot *Txn
}

// CommitObserver receives every commit of a store. Update is the only way
// to write and Replace the only way to swap the database, so nothing
// reaches the store without passing here. It runs while the write still
// holds the writer lock, so commits arrive one at a time and in the order
// they are made; it must be quick and must not write to the store.
type CommitObserver func(Commit)

// SetCommitObserver installs the commit observer (nil removes it); writes
// that start afterwards report their changes to it.
func (s *Store) SetCommitObserver(fn CommitObserver) {
	if fn == nil {
		s.observer.Store(nil)
		return
	}
	s.observer.Store(&fn)
}

// SetCommitCheck installs fn, asked after the commit observer saw a write
// and before the write commits: an error aborts the write and Update
// returns it. A journal that could not record a change uses it so that
// the change is refused rather than acknowledged and then lost.
func (s *Store) SetCommitCheck(fn func() error) { s.check.Store(&fn) }

// observedChanges flushes an observed write's accounting and answers its
// changes: those the write made, its usage row included, but not the row
// counts, which are derived from those changes (countTracked) and written
// after them.
func (t *Txn) observedChanges() (memdb.Changes, error) {
	if err := t.flushUsage(); err != nil {
		return nil, err
	}
	changes, err := t.bucketedChanges(t.mem.Changes())
	if err != nil {
		return nil, err
	}
	changes = withFileSetChanges(changes, t.eng.filesOnly)
	counts := countTracked(changes)
	if !counts.moved() {
		return changes, nil
	}
	u := readUsage(t.mem)
	counts.applyTo(u)
	return changes, putUsage(t.mem, u)
}

// observe hands a write's changes to the observer before tx commits (the
// writer lock is still held), then asks the commit check. Writes that
// changed nothing are not commits worth reporting.
func (s *Store) observe(obs *CommitObserver, tx *Txn, changes memdb.Changes) error {
	if len(changes) == 0 {
		return nil
	}
	s.seq++
	(*obs)(Commit{Seq: s.seq, At: tx.now, Changes: changes})
	if chk := s.check.Load(); chk != nil && *chk != nil {
		return (*chk)()
	}
	return nil
}

// observeSnapshot reports a replaced database; Replace holds the swap lock
// exclusively, so no write runs meanwhile.
func (s *Store) observeSnapshot(db *memdb.MemDB) {
	obs := s.observer.Load()
	if obs == nil {
		return
	}
	s.seq++
	now := s.now()
	(*obs)(Commit{Seq: s.seq, At: now, Snapshot: &Txn{mem: db.Txn(false), now: now}})
}
