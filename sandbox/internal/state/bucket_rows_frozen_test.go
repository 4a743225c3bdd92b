package state

import (
	"fmt"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameBucketIDs answers n request ids that fall in one bucket.
func sameBucketIDs(t *testing.T, n int) []string {
	t.Helper()
	bt := bucketed(TableSignatureRequests)
	var ids []string
	want := bt.bucketOf("r0")
	for i := 0; len(ids) < n && i < 1<<24; i++ {
		if id := fmt.Sprintf("r%d", i); bt.bucketOf(id) == want {
			ids = append(ids, id)
		}
	}
	require.Len(t, ids, n)
	return ids
}

// bucketedRequest answers the request row of id as its bucket holds it,
// frozen or live.
func bucketedRequest(st *Store, id string) any {
	bt := bucketed(TableSignatureRequests)
	return bucketRow(storedTree(st.Read().mem, bt).bucket(bt.bucketOf(id)), bt, id)
}

func frozenRequest(t *testing.T, id string) *model.SignatureRequest {
	t.Helper()
	exp := int64(1700000000)
	return &model.SignatureRequest{ID: id, Seq: uint64(fnv1a(id)), RequesterAccountID: "acct", Title: "NDA " + id,
		Metadata: map[string]any{"n": 1.5, "s": "x"}, ExpiresAt: &exp,
		Signatures: []model.Signature{{ID: "sig-" + id, Email: "s@example.com", Status: "awaiting_signature"}},
		Audit:      []model.AuditEntry{}, Phase: "sent"}
}

// TestRowsFreezeWhenTheirBucketIsWrittenAgain: a row stays live until a
// later write changes its bucket, then is kept frozen; reads answer it as
// it was put, and the row that write put stays live.
func TestRowsFreezeWhenTheirBucketIsWrittenAgain(t *testing.T) {
	st := seededStore(t)
	ids := sameBucketIDs(t, 2)
	first, second := frozenRequest(t, ids[0]), frozenRequest(t, ids[1])
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, first) }))
	assert.Same(t, first, bucketedRequest(st, ids[0]), "the row just written is live")

	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, second) }))
	assert.IsType(t, frozenRow{}, bucketedRequest(st, ids[0]), "a write of its bucket froze it")
	assert.Same(t, second, bucketedRequest(st, ids[1]), "the row that write put is live")

	got, err := Get[model.SignatureRequest](st.Read(), TableSignatureRequests, ids[0])
	require.NoError(t, err)
	assert.Equal(t, first, got, "a frozen row reads as it was put")
	assert.NotSame(t, first, got)
}

// TestAFrozenRowThawsOncePerWrite: within a write every read of a frozen
// row answers the same row, and putting it back unchanged keeps it
// frozen; reads outside a write share the store's thawed copy.
func TestAFrozenRowThawsOncePerWrite(t *testing.T) {
	st := seededStore(t)
	ids := sameBucketIDs(t, 2)
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, frozenRequest(t, ids[0])) }))
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, frozenRequest(t, ids[1])) }))
	require.IsType(t, frozenRow{}, bucketedRequest(st, ids[0]))

	require.NoError(t, st.Update(func(tx *Txn) error {
		a, err := Get[model.SignatureRequest](tx, TableSignatureRequests, ids[0])
		require.NoError(t, err)
		b, err := SignatureRequestBySignature(tx, "sig-"+ids[0])
		require.NoError(t, err)
		assert.Same(t, a, b, "one row per write, however it is found")
		return Put(tx, TableSignatureRequests, a)
	}))
	assert.IsType(t, frozenRow{}, bucketedRequest(st, ids[0]), "put back as read: frozen again")

	a, err := Get[model.SignatureRequest](st.Read(), TableSignatureRequests, ids[0])
	require.NoError(t, err)
	b, err := Get[model.SignatureRequest](st.Read(), TableSignatureRequests, ids[0])
	require.NoError(t, err)
	assert.Same(t, a, b, "reads share the store's thawed row")
}

// TestAChangedFrozenRowIsStoredChanged: a write that reads a frozen row,
// changes a copy and puts it stores the change, live; the next write of
// the bucket freezes the changed row.
func TestAChangedFrozenRowIsStoredChanged(t *testing.T) {
	st := seededStore(t)
	ids := sameBucketIDs(t, 3)
	for _, id := range ids[:2] {
		require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, frozenRequest(t, id)) }))
	}
	require.NoError(t, st.Update(func(tx *Txn) error {
		r, err := Get[model.SignatureRequest](tx, TableSignatureRequests, ids[0])
		require.NoError(t, err)
		c := *r
		c.Title = "changed"
		return Put(tx, TableSignatureRequests, &c)
	}))
	require.IsType(t, &model.SignatureRequest{}, bucketedRequest(st, ids[0]))
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, frozenRequest(t, ids[2])) }))
	require.IsType(t, frozenRow{}, bucketedRequest(st, ids[0]))
	got, err := Get[model.SignatureRequest](st.Read(), TableSignatureRequests, ids[0])
	require.NoError(t, err)
	want := frozenRequest(t, ids[0])
	want.Title = "changed"
	assert.Equal(t, want, got)
}

// TestImportFreezesEveryRequest: a world just imported has written none
// of its requests lately, so every one is kept frozen, and the export
// reads them back as they were.
func TestImportFreezesEveryRequest(t *testing.T) {
	st := seededStore(t)
	for i := range 50 {
		require.NoError(t, st.Update(func(tx *Txn) error {
			return Put(tx, TableSignatureRequests, frozenRequest(t, fmt.Sprintf("req%02d", i)))
		}))
	}
	tables, err := Export(st.Read())
	require.NoError(t, err)
	db, err := Import(tables)
	require.NoError(t, err)
	bt := bucketed(TableSignatureRequests)
	n := 0
	eachTreeBucket(storedTree(db.Txn(false), bt), func(_ uint64, b *rowBucket) {
		for _, r := range b.Rows {
			assert.IsType(t, frozenRow{}, r)
			n++
		}
	})
	assert.Equal(t, len(tables[TableSignatureRequests]), n)
	again, err := Export(&Txn{mem: db.Txn(false)})
	require.NoError(t, err)
	assert.Equal(t, tables, again)
}

// TestCountRowsCountsWithoutThawing: CountRows counts a bucketed table's
// rows, frozen or live, as the transaction has them, and a memdb table's.
func TestCountRowsCountsWithoutThawing(t *testing.T) {
	st := seededStore(t)
	before, err := CountRows(st.Read(), TableSignatureRequests)
	require.NoError(t, err)
	ids := sameBucketIDs(t, 3)
	for _, id := range ids[:2] {
		require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, frozenRequest(t, id)) }))
	}
	require.IsType(t, frozenRow{}, bucketedRequest(st, ids[0]))
	n, err := CountRows(st.Read(), TableSignatureRequests)
	require.NoError(t, err)
	assert.Equal(t, before+2, n)
	require.NoError(t, st.Update(func(tx *Txn) error {
		require.NoError(t, Put(tx, TableSignatureRequests, frozenRequest(t, ids[2])))
		n, err := CountRows(tx, TableSignatureRequests)
		require.NoError(t, err)
		assert.Equal(t, before+3, n, "a write counts its own rows")
		return nil
	}))
	teams, err := CountRows(st.Read(), TableTeams)
	require.NoError(t, err)
	walked, err := Rows(st.Read(), TableTeams)
	require.NoError(t, err)
	assert.Equal(t, len(walked), teams)
}

// TestFrozenRowReadsItsLengthAtEverySize: a frozen row finds its
// encoding behind lengths of one to four bytes.
func TestFrozenRowReadsItsLengthAtEverySize(t *testing.T) {
	for _, n := range []int{1, 127, 128, 16383, 16384, 1 << 21} {
		enc := make([]byte, n)
		for i := range enc {
			enc[i] = byte(i * 7)
		}
		b := frozenBytes(enc)
		got := frozenRow{p: &b[0]}.enc()
		require.Equal(t, enc, got, "%d bytes", n)
		assert.Equal(t, len(b), cap(b), "%d bytes: no room beyond the encoding", n)
	}
}

// TestFrozenRowsReadWhileWritten: readers share the store's thawed rows
// while a writer freezes and rewrites the rows of the same buckets; every
// read answers a row as one of the writes put it (run with -race).
func TestFrozenRowsReadWhileWritten(t *testing.T) {
	st := seededStore(t)
	ids := sameBucketIDs(t, 4)
	for _, id := range ids {
		require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, frozenRequest(t, id)) }))
	}
	done := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				for _, id := range ids {
					r, err := Get[model.SignatureRequest](st.Read(), TableSignatureRequests, id)
					if err != nil {
						errs <- err
						return
					}
					if r.ID != id || r.Signatures[0].ID != "sig-"+id {
						errs <- fmt.Errorf("read %s answered %s", id, r.ID)
						return
					}
				}
			}
		}()
	}
	for i := range 200 {
		id := ids[i%len(ids)]
		require.NoError(t, st.Update(func(tx *Txn) error {
			r, err := Get[model.SignatureRequest](tx, TableSignatureRequests, id)
			if err != nil {
				return err
			}
			c := *r
			c.Title = fmt.Sprintf("title %d", i)
			return Put(tx, TableSignatureRequests, &c)
		}))
	}
	close(done)
	for range 4 {
		require.NoError(t, <-errs)
	}
}

// TestEveryReadOfAFrozenRowAnswersOneRow: within a write, a lookup by id
// through Get, a Get of the row and a walk answer the same thawed row;
// outside a write, the lookups by id share the store's thawed row.
func TestEveryReadOfAFrozenRowAnswersOneRow(t *testing.T) {
	st := seededStore(t)
	ids := sameBucketIDs(t, 2)
	for _, id := range ids {
		require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableSignatureRequests, frozenRequest(t, id)) }))
	}
	require.IsType(t, frozenRow{}, bucketedRequest(st, ids[0]))
	reads := func(tx *Txn) (byGet, byIterator, byWalk any) {
		r, err := Get[model.SignatureRequest](tx, TableSignatureRequests, ids[0])
		require.NoError(t, err)
		it, err := tx.Get(TableSignatureRequests, IndexID, ids[0])
		require.NoError(t, err)
		walk, err := tx.LowerBound(TableSignatureRequests, IndexID, ids[0])
		require.NoError(t, err)
		return r, it.Next(), walk.Next()
	}
	require.NoError(t, st.Update(func(tx *Txn) error {
		it, err := tx.Get(TableSignatureRequests, IndexID, ids[0]) // before any other read
		require.NoError(t, err)
		first := it.Next()
		byGet, byIterator, byWalk := reads(tx)
		assert.Same(t, first, byGet)
		assert.Same(t, byGet, byIterator)
		assert.Same(t, byGet, byWalk)
		return nil
	}))
	byGet, byIterator, _ := reads(st.Read())
	assert.Same(t, byGet, byIterator)
}
