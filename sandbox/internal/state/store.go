package state

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/google/uuid"
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Store is a world's database. Reads take a lock-free snapshot; writes are one
// memdb write transaction each (memdb serializes writers). Replace swaps the
// whole database for reset and import while no write is running.
type Store struct {
	db  atomic.Pointer[memdb.MemDB]
	now func() time.Time
	// snap is a read transaction on the database as last committed, which
	// every Read shares until the next commit: memdb's read transactions
	// never change, so one serves any number of readers, and a request
	// reads several times. commitMu makes a commit and the installation of
	// its snapshot one step, so that a later commit's snapshot is never
	// replaced by an earlier one's.
	snap     atomic.Pointer[snapshot]
	commitMu sync.Mutex
	// swap is held shared by every write and exclusively by Replace, so that a
	// write never commits into a database that has just been replaced.
	swap sync.RWMutex
	// notify is told, after a commit, which topics the write touched (see
	// Txn.Notify); the world uses it to wake its scheduler and dispatcher.
	notify func(topic string)
	// budget, when set, counts the store's distinct file bytes with other
	// stores' (budget.go).
	budget *Budget
	// observer sees every commit (see SetCommitObserver); seq numbers the
	// commits it saw, guarded by the writer lock and by swap.
	observer atomic.Pointer[CommitObserver]
	seq      uint64
	// check is asked before an observed write commits (SetCommitCheck).
	check atomic.Pointer[func() error]
	// secrets, when set, makes NewSecret draw from it (see SetSecretSource).
	secrets func() string
	// minted, when set, sees every secret NewSecret makes (see
	// SetSecretObserver).
	minted atomic.Pointer[func(n uint64, secret string)]
	// thawed caches rows thawed for reads (bucket_rows_frozen.go).
	thawed thawCache
}

// SetSecretSource makes every secret the store's writes create (NewSecret:
// API keys, OAuth secrets and tokens, URL tokens) come from fn instead of
// the seeded sequence, so that credentials of a shared server cannot be
// guessed; IDs stay seeded. Set it before the store is used.
func (s *Store) SetSecretSource(fn func() string) { s.secrets = fn }

// SetSecretObserver makes fn see every secret the store's writes make from
// now on, with its number in the sequence (nil stops it): a recording
// keeps the world's credentials out of its file by knowing them. A write
// that fails may have made some, which fn sees all the same.
func (s *Store) SetSecretObserver(fn func(n uint64, secret string)) {
	if fn == nil {
		s.minted.Store(nil)
		return
	}
	s.minted.Store(&fn)
}

// Topics a write can notify after commit.
const (
	TopicJobs   = "jobs"   // a job was scheduled
	TopicEvents = "events" // an event was recorded for delivery
	TopicEmails = "emails" // an e-mail was added to the outbox
	// TopicEmailDelivery is told outside any commit, when an e-mail's
	// state at the SMTP relay changed (world.World.Tell).
	TopicEmailDelivery = "email_delivery"
)

// SetNotifier installs the after-commit notification function.
func (s *Store) SetNotifier(fn func(topic string)) { s.notify = fn }

// NewStore wraps db; now is the world clock.
func NewStore(db *memdb.MemDB, now func() time.Time) *Store {
	s := &Store{now: now}
	s.db.Store(db)
	s.snap.Store(newSnapshot(db))
	return s
}

// Read returns a read-only transaction on a consistent snapshot: the
// database as of the last commit that finished before the call.
func (s *Store) Read() *Txn {
	return &Txn{mem: s.snap.Load().txn, now: s.now(), eng: engineTxn{thawed: &s.thawed}}
}

// SnapshotRef refers weakly to the database snapshot a read transaction
// reads: a cache of values read from one snapshot can tell whether a later
// read sees the same database without keeping the old one alive.
type SnapshotRef struct{ p weak.Pointer[memdb.Txn] }

// Snapshot returns the reference of the snapshot t reads.
func (t *Txn) Snapshot() SnapshotRef { return SnapshotRef{weak.Make(t.mem)} }

// Reads reports whether t reads the snapshot r refers to (false once that
// snapshot is gone).
func (r SnapshotRef) Reads(t *Txn) bool {
	v := r.p.Value()
	return v != nil && v == t.mem
}

// snapshot is the database as of one commit, with its configuration once
// read. The configuration lives and dies with its snapshot: a cache that
// only pointed at the snapshot it came from would keep that version of the
// whole database alive after later commits (the jobs a clock advance ran,
// the rows it replaced) until the next request asked for the
// configuration.
type snapshot struct {
	txn   *memdb.Txn
	cfg   atomic.Pointer[model.Config]
	rules atomic.Pointer[[]*model.ScenarioRule]
}

func newSnapshot(db *memdb.MemDB) *snapshot { return &snapshot{txn: db.Txn(false)} }

// Config is the world's configuration as of the last commit (GetConfig of
// a Read). Every request asks for it, and it changes far less often than
// the database: it is read once per committed snapshot and kept until the
// next commit.
func (s *Store) Config() model.Config {
	snap := s.snap.Load()
	return perSnapshot(&snap.cfg, func() model.Config { return GetConfig(&Txn{mem: snap.txn}) })
}

// ScenarioRules is the world's scenario rules as of the last commit, read
// once per committed snapshot like the configuration: every API call asks
// whether a rule applies to it, and most worlds have none. The rows are
// shared: callers must not change them.
func (s *Store) ScenarioRules() []*model.ScenarioRule {
	snap := s.snap.Load()
	return perSnapshot(&snap.rules, func() []*model.ScenarioRule {
		rows, _ := ScenarioRules(&Txn{mem: snap.txn}) // a walk of a read snapshot cannot fail
		return rows
	})
}

// perSnapshot answers the value slot holds, reading it with read the first
// time: a value derived from one snapshot lives on it. Two readers may both
// read it; they get the same value.
func perSnapshot[T any](slot *atomic.Pointer[T], read func() T) T {
	if v := slot.Load(); v != nil {
		return *v
	}
	v := read()
	slot.Store(&v)
	return v
}

// Update runs fn in one write transaction and commits it when fn returns nil.
// Anything fn registered with Txn.AfterCommit runs after the commit, in order;
// on error nothing is written and nothing runs.
func (s *Store) Update(fn func(tx *Txn) error) error {
	s.swap.RLock()
	defer s.swap.RUnlock()
	db := s.db.Load()
	tx := &Txn{mem: db.Txn(true), now: s.now(), notify: s.notify, secrets: s.secrets, minted: s.minted.Load(), budget: s.budget, deferMeta: true, deferUsage: true, cacheConfig: true}
	defer tx.mem.Abort()
	var before int64
	if s.budget != nil {
		before = getUsage(tx).ContentBytes
	}
	obs := s.observer.Load()
	if obs != nil {
		// The observer reads the write's changes, and they are counted
		// from them.
		tx.mem.TrackChanges()
		tx.eng.compact = &compactWrite{rowRecord: rowRecord{db: db}}
		tx.eng.tracked = &trackedRows{}
	} else {
		tx.eng.rows = &rowWrite{rowRecord: rowRecord{db: db}}
	}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.flushCompact(); err != nil {
		return err
	}
	if err := tx.flushBuckets(); err != nil {
		return err
	}
	if err := tx.flushMeta(); err != nil {
		return err
	}
	var changes memdb.Changes
	if obs != nil {
		var err error
		if changes, err = tx.observedChanges(); err != nil {
			return err
		}
	} else if err := tx.flushUsage(); err != nil {
		return err
	}
	delta, err := s.budgetDelta(tx, before)
	if err != nil {
		return err
	}
	if obs != nil {
		if err := s.observe(obs, tx, changes); err != nil {
			if delta > 0 {
				s.budget.used.Add(-delta) // the write is not made: give back what it reserved
			}
			return err
		}
	}
	if delta < 0 {
		s.budget.used.Add(delta)
	}
	s.commitMu.Lock()
	tx.mem.Commit()
	s.snap.Store(newSnapshot(s.db.Load()))
	s.commitMu.Unlock()
	for _, after := range tx.after {
		after()
	}
	return nil
}

// Replace installs a new database (reset, import); the commit observer
// sees it as a snapshot. A budget the store counts in follows the change of
// its file bytes (an import is not refused by it: check Budget.Fits first).
func (s *Store) Replace(db *memdb.MemDB) {
	s.swap.Lock()
	if s.budget != nil {
		old := readUsage(s.db.Load().Txn(false)).ContentBytes
		s.budget.used.Add(readUsage(db.Txn(false)).ContentBytes - old)
	}
	s.commitMu.Lock()
	s.db.Store(db)
	s.snap.Store(newSnapshot(db))
	s.thawed.reset()
	s.commitMu.Unlock()
	s.observeSnapshot(db)
	s.swap.Unlock()
}

// Release stops counting the store in its budget (a deleted world's files
// are freed with it).
func (s *Store) Release() { s.SetBudget(nil) }

// Txn is a memdb transaction plus the world's clock reading and ID sequence.
// The time is read once when the transaction starts, so every timestamp one
// change writes is the same instant.
type Txn struct {
	// mem is memdb's transaction, reached only through the methods of
	// this package, so that no read or write bypasses the buckets, the
	// compact indexes, the row counts and the write's own reads.
	mem      *memdb.Txn
	now      time.Time
	notify   func(string)
	secrets  func() string
	minted   *func(n uint64, secret string)
	notified map[string]bool
	// budget is the server-wide budget the store counts in (nil: none), so
	// that a write can name the field whose bytes would go over it.
	budget *Budget
	// after holds the AfterCommit functions in registration order (memdb's
	// own Defer runs them last-in first-out).
	after []func()
	// meta is the meta row as this transaction has moved the sequence.
	// Under Store.Update (deferMeta) it is written once, before the
	// commit, instead of once per ID: a send takes a dozen numbers.
	meta      *Meta
	deferMeta bool
	// usage is the usage row as this transaction has changed it. Under
	// Store.Update (deferUsage) it is written once, before the commit,
	// instead of once per counted row: a batch of jobs records thousands
	// of e-mails and events.
	usage      *Usage
	deferUsage bool
	// config is the configuration row as this transaction read it, kept
	// until the transaction writes the row: every job of a batch asks for
	// it several times. Only writes keep it (cacheConfig): a read
	// transaction may be shared.
	config      *model.Config
	cacheConfig bool
	// eng is what the storage engine keeps per transaction: the row
	// counts and own reads, the compact index and bucket writes, the
	// record of an observed write and the thaw cache.
	eng engineTxn
}

// Notify arranges for topic to be announced once after this transaction
// commits.
func (t *Txn) Notify(topic string) {
	if t.notify == nil || t.notified[topic] {
		return
	}
	if t.notified == nil {
		t.notified = map[string]bool{}
	}
	t.notified[topic] = true
	fn := t.notify
	t.AfterCommit(func() { fn(topic) })
}

// Now is the world time of the transaction.
func (t *Txn) Now() time.Time { return t.now }

// SetNow moves the transaction's time: the scheduler runs several due jobs
// in one transaction, each at the instant it would have had alone.
func (t *Txn) SetNow(now time.Time) { t.now = now }

// Unix is Now as Unix seconds, the unit of every timestamp on the wire.
func (t *Txn) Unix() int64 { return t.now.Unix() }

// AfterCommit runs fn once the transaction has committed (never on abort),
// after the functions registered before it. Events reach the dispatcher and
// jobs wake the scheduler this way.
func (t *Txn) AfterCommit(fn func()) { t.after = append(t.after, fn) }

// ErrNotFound is returned by the accessors when no row matches.
var ErrNotFound = errors.New("state: not found")

// First returns the first row of table matching index and args, or
// ErrNotFound.
func First[T any](tx *Txn, table, index string, args ...any) (*T, error) {
	raw, err := tx.First(table, index, args...)
	if err != nil {
		return nil, fmt.Errorf("state: %s.%s: %w", table, index, err)
	}
	if raw == nil {
		return nil, ErrNotFound
	}
	return raw.(*T), nil
}

// Get is First on the id index.
func Get[T any](tx *Txn, table, id string) (*T, error) {
	return First[T](tx, table, IndexID, id)
}

// All collects every row matching index and args in index order.
func All[T any](tx *Txn, table, index string, args ...any) ([]*T, error) {
	if ix := compactIndexNamed(table, index); ix != nil {
		return compactAll[T](tx, ix, args)
	}
	it, err := tx.Get(table, index, args...)
	if err != nil {
		return nil, fmt.Errorf("state: %s.%s: %w", table, index, err)
	}
	var out []*T
	for raw := it.Next(); raw != nil; raw = it.Next() {
		out = append(out, raw.(*T))
	}
	return out, nil
}

// Put inserts or replaces a row. Rows are never changed in place after they
// are stored: callers copy, change the copy, and Put it.
func Put(tx *Txn, table string, row any) error {
	if o := optionsOf(table); o != nil {
		if o.beforePut != nil {
			row = o.beforePut(tx, row)
		}
		for _, count := range o.putCounters {
			if err := count(tx, row); err != nil {
				return err
			}
		}
	}
	if err := tx.Insert(table, row); err != nil {
		return fmt.Errorf("state: insert %s: %w", table, err)
	}
	return nil
}

// Meta is the single row of the meta table: the world's ID seed and counter.
// It lives in the database so that an aborted write does not consume IDs and
// so that export and import carry the sequence along.
type Meta struct {
	ID      string `json:"id"`
	Seed    string `json:"seed"`
	Counter uint64 `json:"counter"`
}

const (
	tableMeta = "meta"
	metaRowID = "meta"
)

// registerMeta adds the store's own metadata table.
func registerMeta() {
	Register[Meta](&memdb.TableSchema{
		Name: tableMeta,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
}

// InitMeta writes the meta row of a new world.
func InitMeta(tx *Txn, seed string) error {
	return Put(tx, tableMeta, &Meta{ID: metaRowID, Seed: seed})
}

// next moves the sequence. The meta row is read once per transaction and,
// under Store.Update, written back once before the commit (flushMeta)
// rather than on every id: a send takes a dozen, a batch of jobs thousands.
func (t *Txn) next() (seed string, n uint64) {
	if t.meta == nil {
		m, err := Get[Meta](t, tableMeta, metaRowID)
		if err != nil {
			panic("state: world has no meta row")
		}
		c := *m
		t.meta = &c
	}
	t.meta.Counter++
	if !t.deferMeta {
		c := *t.meta
		if err := Put(t, tableMeta, &c); err != nil {
			panic(err)
		}
	}
	return t.meta.Seed, t.meta.Counter
}

// flushMeta writes the meta row of a write that moved the sequence, once,
// before it commits; later numbers of the same transaction (none are
// expected) are written at once again.
func (t *Txn) flushMeta() error {
	if t.meta == nil || !t.deferMeta {
		return nil
	}
	t.deferMeta = false
	c := *t.meta
	// The row exists (next read it): memdb's own Insert, without the
	// lookup that counts new rows.
	if err := t.mem.Insert(tableMeta, &c); err != nil {
		return fmt.Errorf("state: insert %s: %w", tableMeta, err)
	}
	return nil
}

// NewID returns the next 40-character lowercase hex ID of the world's seeded
// sequence: the same calls in the same order give the same IDs.
func (t *Txn) NewID() string {
	seed, n := t.next()
	return idOf(seed, n)
}

// idOf is the ID the sequence of seed gives at n (see NewID); a file set
// computes its PDF's ID from the number it reserved.
func idOf(seed string, n uint64) string {
	var name [sequenceNameSize]byte
	sum := sha1.Sum(sequenceName(name[:0], seed, "/id/", n))
	var out [2 * sha1.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// NewSecret returns the next 64-character hex secret (API keys, OAuth tokens,
// URL tokens) from the same sequence, or from the store's secret source
// when it has one (the sequence still moves, so IDs after it are the same
// either way).
func (t *Txn) NewSecret() string {
	seed, n := t.next()
	var secret string
	if t.secrets != nil {
		secret = t.secrets()
	} else {
		secret = SeededSecret(seed, n)
	}
	if t.minted != nil {
		(*t.minted)(n, secret)
	}
	return secret
}

// SeededSecret is the secret the sequence of seed gives at n (NewSecret of
// a world without a secret source): a replay of a recording that left its
// credentials out makes them again this way.
func SeededSecret(seed string, n uint64) string {
	var name [sequenceNameSize]byte
	sum := sha256.Sum256(sequenceName(name[:0], seed, "/secret/", n))
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// sequenceNameSize holds the name of a number of the sequence (seed,
// kind, number) of every world whose seed is not unusually long, so that
// it is hashed from the stack: a send takes a dozen numbers.
const sequenceNameSize = 128

// sequenceName appends the name a number of the sequence is hashed from:
// the seed, the kind ("/id/", "/secret/", "/uuid/") and the number.
func sequenceName(dst []byte, seed, kind string, n uint64) []byte {
	dst = append(dst, seed...)
	dst = append(dst, kind...)
	return strconv.AppendUint(dst, n, 10)
}

// SecretSource is the store's random secret source, nil when secrets
// follow the seed: loaders use it for secrets they would otherwise copy
// from public fixtures, without moving the ID sequence.
func (t *Txn) SecretSource() func() string { return t.secrets }

// uuidSpace namespaces the sandbox's name-based UUIDs.
var uuidSpace = uuid.MustParse("6f1c1a6e-8d0a-4f4e-9a51-5a2d0b7f3c10")

// NewUUID returns the next UUID of the sequence (a name-based, SHA-1 UUID of
// the seed and counter, so it is as deterministic as NewID). Objects of the
// control plane that the real API has no id format for (events, e-mails,
// deliveries) use it. It is uuid.NewSHA1(uuidSpace, name) computed without
// the library's hash object and copies.
func (t *Txn) NewUUID() string {
	seed, n := t.next()
	var buf [len(uuidSpace) + sequenceNameSize]byte
	data := append(buf[:0], uuidSpace[:]...)
	sum := sha1.Sum(sequenceName(data, seed, "/uuid/", n))
	var u uuid.UUID
	copy(u[:], sum[:])
	u[6] = (u[6] & 0x0f) | 0x50 // version 5
	u[8] = (u[8] & 0x3f) | 0x80 // RFC 4122 variant
	return u.String()
}

// Seq returns the next number of the sequence, for ordering rows that are
// created in the same second.
func (t *Txn) Seq() uint64 {
	_, n := t.next()
	return n
}

// engineTxn is the storage engine's part of a transaction (bucketed rows,
// compact indexes, own reads, frozen rows, row counts); the rest of Txn is
// the world's: clock, ID sequence, notifications, cached rows.
type engineTxn struct {
	// rows counts the rows a write inserts and deletes (row_counts.go);
	// nil in a read, and in a write whose changes are tracked, which
	// counts them from memdb's record instead. A pointer keeps the
	// transactions of reads, made several times per request, small.
	rows *rowWrite
	// compact is the buckets of compact indexes the write changed
	// (compact_write.go), stored before the commit (flushCompact).
	compact *compactWrite
	// keys is the room compactChange reuses for a row's keys.
	keys *compactKeys
	// filesOnly maps each request row PutFileSet made in an observed write
	// to the row it copied (withFileSetChanges).
	filesOnly map[*model.SignatureRequest]*model.SignatureRequest
	// buckets is the write's own copies of the buckets of bucketed tables
	// it changed (bucket_rows_write.go), stored before the commit
	// (flushBuckets); nil until the write changes a bucketed row.
	buckets *bucketWrite
	// tracked is what an observed write did to bucketed rows
	// (bucket_rows_observe.go); nil in any other transaction.
	tracked *trackedRows
	// thawed is the store's cache of thawed rows, which reads outside a
	// write share (bucket_rows_frozen.go); nil in a write.
	thawed *thawCache
}
