package journal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// newWorldStore is a store with a meta row, journaled into d as world id.
func newWorldStore(t *testing.T, d *Dir, id string) (*state.Store, *Journal) {
	t.Helper()
	db, err := state.NewDB()
	require.NoError(t, err)
	st := state.NewStore(db, func() time.Time { return t0 })
	require.NoError(t, st.Update(func(tx *state.Txn) error { return state.InitMeta(tx, "seed-"+id) }))
	tables, err := state.Export(st.Read())
	require.NoError(t, err)
	j, err := d.Create(Meta{ID: id, Seed: "seed-" + id, Mode: "fake", Number: 1}, tables, t0)
	require.NoError(t, err)
	st.SetCommitObserver(j.Observe)
	return st, j
}

func tablesJSON(t *testing.T, tx *state.Txn) string {
	t.Helper()
	tables, err := state.Export(tx)
	require.NoError(t, err)
	b, err := json.Marshal(tables)
	require.NoError(t, err)
	return string(b)
}

func loadedJSON(t *testing.T, l *Loaded) string {
	t.Helper()
	st := state.NewStore(l.DB, func() time.Time { return l.Now })
	return tablesJSON(t, st.Read())
}

func writeSome(t *testing.T, st *state.Store, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		require.NoError(t, st.Update(func(tx *state.Txn) error {
			c := state.GetConfig(tx)
			c.RateLimit.Limit = i + 1
			_ = tx.NewID()
			return state.PutConfig(tx, c)
		}))
	}
}

func TestJournalRestoresEveryCommitAndTheClock(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root, Options{Sync: SyncAlways})
	require.NoError(t, err)
	st, j := newWorldStore(t, d, "w1")
	writeSome(t, st, 5)
	j.Clock(t0.Add(time.Hour))
	want := tablesJSON(t, st.Read())
	require.NoError(t, d.Close())

	d, err = Open(root, Options{})
	require.NoError(t, err)
	defer d.Close()
	saved, err := d.Saved()
	require.NoError(t, err)
	require.Len(t, saved, 1)
	assert.Equal(t, "seed-w1", saved[0].Seed)
	l, err := d.Load("w1")
	require.NoError(t, err)
	assert.Equal(t, 6, l.Records)
	assert.Equal(t, t0.Add(time.Hour), l.Now)
	assert.Equal(t, want, loadedJSON(t, l))
}

func TestTornTailIsCutAndTheRestKept(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root, Options{Sync: SyncAlways})
	require.NoError(t, err)
	st, _ := newWorldStore(t, d, "w1")
	writeSome(t, st, 3)
	want := tablesJSON(t, st.Read())
	writeSome(t, st, 1)
	require.NoError(t, d.Close())

	path := filepath.Join(root, "worlds", "w1", journalName(1))
	info, err := os.Stat(path)
	require.NoError(t, err)
	for _, cut := range []int64{1, 5, 9} {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b[:info.Size()-cut], 0o644))
		d, err = Open(root, Options{})
		require.NoError(t, err)
		l, err := d.Load("w1")
		require.NoError(t, err, "a torn tail never keeps the store from opening")
		assert.True(t, l.Torn)
		assert.Equal(t, 3, l.Records)
		assert.Equal(t, want, loadedJSON(t, l), "the intact records are all there")
		require.NoError(t, d.Close())
		require.NoError(t, os.WriteFile(path, b, 0o644))
	}

	// A flipped byte in the middle ends the journal there too.
	b, _ := os.ReadFile(path)
	b[len(b)-3] ^= 0xff
	require.NoError(t, os.WriteFile(path, b, 0o644))
	d, err = Open(root, Options{})
	require.NoError(t, err)
	defer d.Close()
	l, err := d.Load("w1")
	require.NoError(t, err)
	assert.True(t, l.Torn)
	assert.Equal(t, 3, l.Records)
}

func TestCompactionFoldsTheJournal(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root, Options{Sync: SyncInterval, Interval: time.Millisecond, CompactBytes: 2000})
	require.NoError(t, err)
	st, j := newWorldStore(t, d, "w1")
	compacted := make(chan struct{}, 10)
	j.OnCompact(func() {
		require.NoError(t, st.Update(func(tx *state.Txn) error {
			tables, err := state.Export(tx)
			if err != nil {
				return err
			}
			return j.Compact(tables, func() time.Time { return t0 })
		}))
		compacted <- struct{}{}
	})
	writeSome(t, st, 40)
	select {
	case <-compacted:
	case <-time.After(5 * time.Second):
		t.Fatal("no compaction")
	}
	writeSome(t, st, 2)
	want := tablesJSON(t, st.Read())
	require.NoError(t, d.Close())
	assert.Positive(t, d.Stats().Compactions)

	d, err = Open(root, Options{})
	require.NoError(t, err)
	defer d.Close()
	l, err := d.Load("w1")
	require.NoError(t, err)
	assert.Equal(t, want, loadedJSON(t, l))
	ents, _ := os.ReadDir(filepath.Join(root, "worlds", "w1"))
	var journals int
	for _, e := range ents {
		if filepath.Ext(e.Name()) == ".log" {
			journals++
		}
	}
	assert.Equal(t, 1, journals, "older generations are gone")
}

func TestDeleteAndLock(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root, Options{})
	require.NoError(t, err)
	_, err = Open(root, Options{})
	assert.Error(t, err, "a second server cannot open the same directory")
	newWorldStore(t, d, "w1")
	newWorldStore(t, d, "w2")
	require.NoError(t, d.Delete("w1"))
	saved, err := d.Saved()
	require.NoError(t, err)
	require.Len(t, saved, 1)
	assert.Equal(t, "w2", saved[0].ID)
	require.NoError(t, d.Close())
	_, err = ParseSync("sometimes")
	assert.Error(t, err)
}

func TestAFailedJournalWritesNothingMore(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root, Options{Sync: SyncAlways})
	require.NoError(t, err)
	st, j := newWorldStore(t, d, "w1")
	writeSome(t, st, 2)
	want := tablesJSON(t, st.Read())
	j.f.Close() // the next write fails
	writeSome(t, st, 1)
	require.Error(t, d.Err())
	before := d.Stats().Records
	j.Clock(t0.Add(time.Hour))
	assert.Equal(t, before, d.Stats().Records, "nothing is appended after a failure")
	_ = d.Close()

	d, err = Open(root, Options{})
	require.NoError(t, err)
	defer d.Close()
	l, err := d.Load("w1")
	require.NoError(t, err)
	assert.Equal(t, want, loadedJSON(t, l))
}

// Files are stored once per content with counters kept beside them in
// derived tables; the journal leaves those out and Load rebuilds them, so
// a restored world counts and shares its files exactly as before.
func TestRestoredFilesAreCountedAndSharedAsBefore(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root, Options{Sync: SyncAlways})
	require.NoError(t, err)
	st, _ := newWorldStore(t, d, "w1")
	var ids []string
	for _, data := range []string{"same bytes", "same bytes", "other bytes"} {
		require.NoError(t, st.Update(func(tx *state.Txn) error {
			id, err := state.PutBlob(tx, []byte(data))
			ids = append(ids, id)
			return err
		}))
	}
	require.NoError(t, st.Update(func(tx *state.Txn) error { return state.DeleteBlob(tx, ids[2]) }))
	want, err := state.RecountUsage(st.Read())
	require.NoError(t, err)
	require.NoError(t, d.Close())

	d, err = Open(root, Options{})
	require.NoError(t, err)
	defer d.Close()
	l, err := d.Load("w1")
	require.NoError(t, err)
	restored := state.NewStore(l.DB, func() time.Time { return l.Now })
	got, err := state.RecountUsage(restored.Read())
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, int64(len("same bytes")), state.UniqueBytes(restored.Read()), "the counters are rebuilt, not left at zero")
	a, err := state.GetBlob(restored.Read(), ids[0])
	require.NoError(t, err)
	b, err := state.GetBlob(restored.Read(), ids[1])
	require.NoError(t, err)
	assert.Same(t, &a[0], &b[0], "identical files share one array again")
}
