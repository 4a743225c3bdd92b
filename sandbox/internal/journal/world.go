package journal

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	memdb "github.com/hashicorp/go-memdb"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// snapshot is the content of snapshot.json: the world's tables in the
// exact export format, its clock, and the generation its journal is named
// after.
type snapshot struct {
	Version int          `json:"version"`
	Gen     uint64       `json:"gen"`
	Now     int64        `json:"now"` // world time, Unix nanoseconds
	Tables  state.Tables `json:"tables"`
}

// record is one journal entry. Kind "c" is a commit (Changes), "s" a
// replaced database (reset, import: Tables), "t" a clock move (At only).
type record struct {
	Kind    string       `json:"k"`
	At      int64        `json:"at"`
	Changes []change     `json:"ch,omitempty"`
	Tables  state.Tables `json:"tables,omitempty"`
}

// change is one row of a commit: its table and its new value, or for a
// deletion (Deleted) the value it had. Rows are encoded as export encodes
// them and decoded with state.DecodeRow, per table, so a new table needs
// nothing here.
type change struct {
	Table   string          `json:"t"`
	Row     json.RawMessage `json:"r"`
	Deleted bool            `json:"d,omitempty"`
}

// Loaded is a world read back from the directory.
type Loaded struct {
	DB *memdb.MemDB
	// Now is the latest world time the snapshot and journal show (the
	// clock's last move, or the time of the last change if later).
	Now time.Time
	// Records is how many journal records were replayed; Torn whether a
	// torn tail was cut off.
	Records int
	Torn    bool
	gen     uint64
}

// Load reads a world: its snapshot, then every intact record of its
// journal in order. A torn tail is cut from the file. A record that is
// intact but cannot be applied is an error: the directory is then not
// what this server wrote, and guessing would lose state silently.
func (d *Dir) Load(id string) (*Loaded, error) {
	dir := d.worldDir(id)
	b, err := os.ReadFile(filepath.Join(dir, "snapshot.json"))
	if err != nil {
		return nil, fmt.Errorf("world %s: %w", id, err)
	}
	var snap snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return nil, fmt.Errorf("world %s: snapshot.json: %w", id, err)
	}
	db, err := state.Import(snap.Tables)
	if err != nil {
		return nil, fmt.Errorf("world %s: snapshot.json: %w", id, err)
	}
	l := &Loaded{DB: db, Now: time.Unix(0, snap.Now).UTC(), gen: snap.Gen}
	path := filepath.Join(dir, journalName(snap.Gen))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("world %s: %w", id, err)
	}
	defer f.Close()
	good, torn, err := readFrames(f, func(payload []byte) error {
		var rec record
		if err := json.Unmarshal(payload, &rec); err != nil {
			return err
		}
		if err := l.apply(rec); err != nil {
			return err
		}
		l.Records++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("world %s: %s record %d: %w", id, journalName(snap.Gen), l.Records+1, err)
	}
	if l.Records > 0 {
		// Replayed rows do not keep derived tables (file contents, usage
		// counters) in step: make them again from the rows, as import does.
		if err := state.RebuildDerived(l.DB); err != nil {
			return nil, fmt.Errorf("world %s: %w", id, err)
		}
	}
	if torn {
		l.Torn = true
		if err := f.Truncate(good); err != nil {
			return nil, fmt.Errorf("world %s: cutting the torn tail: %w", id, err)
		}
		if err := f.Sync(); err != nil {
			return nil, err
		}
	}
	// Journals of older generations are leftovers of a compaction that
	// was interrupted after its snapshot was in place.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "journal-") && e.Name() != journalName(snap.Gen) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return l, nil
}

// apply replays one record onto the loaded database.
func (l *Loaded) apply(rec record) error {
	at := time.Unix(0, rec.At).UTC()
	if at.After(l.Now) {
		l.Now = at
	}
	switch rec.Kind {
	case "t":
		return nil
	case "s":
		db, err := state.Import(rec.Tables)
		if err != nil {
			return err
		}
		l.DB = db
		return nil
	case "c":
		tx := l.DB.Txn(true)
		defer tx.Abort()
		// A replay keeps a request's file set in its request row, as
		// the store does (journals name it as a file_sets row).
		replay := state.NewReplay(tx)
		for _, ch := range rec.Changes {
			row, err := state.DecodeRow(ch.Table, ch.Row)
			if err != nil {
				return fmt.Errorf("table %q: %w", ch.Table, err)
			}
			if err := replay.Apply(ch.Table, row, ch.Deleted); err != nil {
				return fmt.Errorf("table %q: %w", ch.Table, err)
			}
		}
		if err := replay.Finish(); err != nil {
			return err
		}
		tx.Commit()
		return nil
	}
	return fmt.Errorf("unknown record kind %q", rec.Kind)
}

func journalName(gen uint64) string { return "journal-" + strconv.FormatUint(gen, 10) + ".log" }

// Journal is the open journal of one world. Its methods are safe for
// concurrent use.
type Journal struct {
	d    *Dir
	id   string
	dir  string
	mu   sync.Mutex
	f    *os.File
	gen  uint64
	size int64
	// dirty: records written since the last fsync.
	dirty bool
	// compacting is set while a compaction is wanted or running.
	compacting bool
	closed     bool
	// compact is called (in a goroutine of its own) when the journal has
	// grown past the compaction size; the sandbox folds it then.
	compact func()
}

// Create makes the directory of a new world, with its first snapshot, and
// opens its journal. A world of that id already in the directory is
// replaced (the server only creates ids it has not restored).
func (d *Dir) Create(m Meta, tables state.Tables, now time.Time) (*Journal, error) {
	meta, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	snap, err := json.Marshal(snapshot{Version: 1, Gen: 1, Now: now.UnixNano(), Tables: tables})
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(d.root, "worlds", ".new-"+m.ID)
	_ = os.RemoveAll(tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	for name, data := range map[string][]byte{"world.json": meta, "snapshot.json": snap, journalName(1): nil} {
		if err := writeFileSync(filepath.Join(tmp, name), data); err != nil {
			return nil, err
		}
	}
	final := d.worldDir(m.ID)
	if _, err := os.Stat(final); err == nil {
		if err := d.trash(final); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		return nil, err
	}
	if err := syncDir(filepath.Dir(final)); err != nil {
		return nil, err
	}
	return d.open(m.ID, 1)
}

// Attach opens the journal of a world Load read, to go on appending.
func (d *Dir) Attach(id string, l *Loaded) (*Journal, error) { return d.open(id, l.gen) }

func (d *Dir) open(id string, gen uint64) (*Journal, error) {
	dir := d.worldDir(id)
	f, err := os.OpenFile(filepath.Join(dir, journalName(gen)), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	j := &Journal{d: d, id: id, dir: dir, f: f, gen: gen, size: st.Size()}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		f.Close()
		return nil, fmt.Errorf("data directory closed")
	}
	d.journals[id] = j
	return j, nil
}

// OnCompact sets the function that folds the journal when it has grown.
func (j *Journal) OnCompact(fn func()) {
	j.mu.Lock()
	j.compact = fn
	j.mu.Unlock()
}

// Observe is the world store's commit observer: it appends the commit
// before the store makes it visible, so no change is acknowledged before
// its record is in the file.
func (j *Journal) Observe(c state.Commit) {
	rec := record{Kind: "c", At: c.At.UnixNano()}
	if c.Snapshot != nil {
		tables, err := state.Export(c.Snapshot)
		if err != nil {
			j.d.fail(j.id, err)
			return
		}
		rec.Kind, rec.Tables = "s", tables
	} else {
		rec.Changes = make([]change, 0, len(c.Changes))
		for _, ch := range c.Changes {
			if ch.Before == nil && ch.After == nil {
				continue // made and removed in the same write
			}
			if state.IsDerived(ch.Table) {
				continue // computed from the other rows; Load rebuilds it
			}
			row, deleted := ch.After, false
			if ch.Deleted() {
				row, deleted = ch.Before, true
			}
			b, err := json.Marshal(state.RowAsExported(row)) // as state.Export encodes rows
			if err != nil {
				j.d.fail(j.id, fmt.Errorf("table %s: %w", ch.Table, err))
				return
			}
			rec.Changes = append(rec.Changes, change{Table: ch.Table, Row: b, Deleted: deleted})
		}
	}
	j.append(rec)
}

// Clock records a move of the world's clock (the clock is not in the
// database).
func (j *Journal) Clock(now time.Time) { j.append(record{Kind: "t", At: now.UnixNano()}) }

func (j *Journal) append(rec record) {
	payload, err := json.Marshal(rec)
	if err != nil {
		j.d.fail(j.id, err)
		return
	}
	buf := frame(payload)
	j.mu.Lock()
	defer j.mu.Unlock()
	// After a failure nothing more is written: the writes it refuses
	// (see Dir.Err) must not leave records behind a torn one.
	if j.closed || j.d.Err() != nil {
		return
	}
	if _, err := j.f.Write(buf); err != nil {
		j.d.fail(j.id, err)
		return
	}
	j.size += int64(len(buf))
	j.d.records.Add(1)
	j.d.bytes.Add(uint64(len(buf)))
	if j.d.opts.Sync == SyncAlways {
		if err := j.f.Sync(); err != nil {
			j.d.fail(j.id, err)
			return
		}
		j.d.syncs.Add(1)
	} else {
		j.dirty = true
	}
	if j.size > j.d.opts.CompactBytes && !j.compacting && j.compact != nil {
		j.compacting = true
		go j.compact()
	}
}

func (j *Journal) syncIfDirty() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed || !j.dirty {
		return
	}
	if err := j.f.Sync(); err != nil {
		j.d.fail(j.id, err)
		return
	}
	j.dirty = false
	j.d.syncs.Add(1)
}

// Compact writes tables and the world time as the next snapshot and
// starts its empty journal. The caller holds the world's writer lock, so
// that no commit is appended meanwhile and tables are the state after the
// last record; now is read under the journal's lock, so a clock move lands
// either in the snapshot or in the new journal.
func (j *Journal) Compact(tables state.Tables, now func() time.Time) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.compacting = false
	if j.closed {
		return nil
	}
	gen := j.gen + 1
	next, err := os.OpenFile(filepath.Join(j.dir, journalName(gen)), os.O_CREATE|os.O_TRUNC|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	snap, err := json.Marshal(snapshot{Version: 1, Gen: gen, Now: now().UnixNano(), Tables: tables})
	if err == nil {
		err = writeFileSync(filepath.Join(j.dir, "snapshot.json"), snap)
	}
	if err != nil {
		next.Close()
		_ = os.Remove(filepath.Join(j.dir, journalName(gen)))
		return err
	}
	old := j.f
	j.f, j.gen, j.size, j.dirty = next, gen, 0, false
	old.Close()
	_ = os.Remove(filepath.Join(j.dir, journalName(gen-1)))
	j.d.compactions.Add(1)
	return nil
}

func (j *Journal) close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	j.closed = true
	err := j.f.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Delete removes a world from the directory: its journal is closed and
// its directory moved to the trash (one rename, so a crash never leaves
// half a world), then removed.
func (d *Dir) Delete(id string) error {
	d.mu.Lock()
	j := d.journals[id]
	delete(d.journals, id)
	d.mu.Unlock()
	if j != nil {
		_ = j.close()
	}
	return d.trash(d.worldDir(id))
}

func (d *Dir) trash(dir string) error {
	n := d.trashed.Add(1)
	dst := filepath.Join(d.root, "trash", fmt.Sprintf("%s-%d", filepath.Base(dir), n))
	if err := os.Rename(dir, dst); err != nil {
		return err
	}
	if err := syncDir(filepath.Dir(dir)); err != nil {
		return err
	}
	return os.RemoveAll(dst)
}
