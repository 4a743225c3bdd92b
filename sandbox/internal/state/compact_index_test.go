package state

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/require"
)

// Test indexes on the outbox: e-mails grouped by recipient in order of
// Seq, in two buckets (so that many groups and rows share one), and all
// e-mails ordered by Seq, four numbers per bucket.
const (
	testIndexTo  = "test_to"
	testIndexSeq = "test_seq"
)

// withTestCompactIndexes registers the test indexes for one test (the
// tests of the package do not run in parallel).
func withTestCompactIndexes(t *testing.T) (to, seq *compactIndex) {
	t.Helper()
	to = &compactIndex{table: TableEmails, name: testIndexTo, tag: "test.to/", bits: 1,
		keys: func(row any, dst []compactKey) []compactKey {
			if e := row.(*model.Email); e.To != "" {
				dst = append(dst, compactKey{e.To, e.Seq})
			}
			return dst
		}}
	seq = &compactIndex{table: TableEmails, name: testIndexSeq, tag: "test.seq/", ordered: true, shift: 2, unique: true,
		keys: func(row any, dst []compactKey) []compactKey {
			return append(dst, compactKey{order: row.(*model.Email).Seq})
		}}
	registerCompact(to)
	registerCompact(seq)
	t.Cleanup(func() {
		compactIndexes = slices.DeleteFunc(compactIndexes, func(ix *compactIndex) bool { return ix == to || ix == seq })
		compactByTable[TableEmails] = slices.DeleteFunc(compactByTable[TableEmails], func(ix *compactIndex) bool { return ix == to || ix == seq })
		if len(compactByTable[TableEmails]) == 0 {
			delete(compactByTable, TableEmails)
		}
		delete(compactByName, [2]string{TableEmails, testIndexTo})
		delete(compactByName, [2]string{TableEmails, testIndexSeq})
	})
	return to, seq
}

func testMail(seq uint64, to string) *model.Email {
	return &model.Email{ID: fmt.Sprintf("m%03d", seq), Seq: seq, To: to, Kind: "test"}
}

// requireCompactConsistent checks that the stored buckets of every
// compact index are those a rebuild from the rows makes.
func requireCompactConsistent(t *testing.T, tx *Txn) {
	t.Helper()
	for _, ix := range compactIndexes {
		want, err := compactBucketsOf(tx.mem, ix)
		require.NoError(t, err)
		it, err := tx.mem.LowerBound(tableCompact, IndexID, ix.tag)
		require.NoError(t, err)
		var got []*compactBucket
		for raw := it.Next(); raw != nil; raw = it.Next() {
			b := raw.(*compactBucket)
			if _, ok := ix.bucketNumber(b.Key); !ok {
				break
			}
			got = append(got, b)
		}
		require.Equal(t, len(want), len(got), "buckets of %s", ix.name)
		for i := range want {
			require.Equal(t, want[i].Key, got[i].Key)
			require.Equal(t, want[i].Entries, got[i].Entries, "bucket %s", want[i].Key)
		}
	}
}

// ids reads the ids of rows of the test index in a transaction.
func compactIDs(t *testing.T, tx *Txn, ix *compactIndex, group string, from uint64, desc bool) []string {
	t.Helper()
	var out []string
	require.NoError(t, tx.compactRows(ix, group, from, desc, func(raw any) bool {
		out = append(out, raw.(*model.Email).ID)
		return true
	}))
	want := compactReference(tx, ix, group, from, desc)
	if len(want) > 0 || len(out) > 0 {
		require.Equal(t, want, out, "%s %q from %d desc %v", ix.name, group, from, desc)
	}
	return out
}

// TestCompactIndexFollowsWrites: inserts, updates that move a row's key
// or keep it, deletes one by one and in bulk keep the buckets exactly
// what a rebuild from the rows makes, and lookups answer what a walk of
// the table does; with many groups and rows in one bucket.
func TestCompactIndexFollowsWrites(t *testing.T) {
	to, seq := withTestCompactIndexes(t)
	st := newTestStore(t)
	recipients := []string{"ann", "bob", "cy", "dee", "ed"}
	require.NoError(t, st.Update(func(tx *Txn) error {
		for n := uint64(1); n <= 200; n++ {
			if err := Put(tx, TableEmails, testMail(n*3, recipients[n%5])); err != nil {
				return err
			}
		}
		return nil
	}))
	tx := st.Read()
	requireCompactConsistent(t, tx)
	require.Len(t, compactIDs(t, tx, to, "ann", 0, false), 40)
	require.Equal(t, "m015", compactIDs(t, tx, to, "ann", 0, false)[0])
	require.Len(t, compactIDs(t, tx, seq, "", 0, false), 200)
	first, err := First[model.Email](tx, TableEmails, testIndexTo, "bob")
	require.NoError(t, err)
	require.Equal(t, "m003", first.ID)
	all, err := All[model.Email](tx, TableEmails, testIndexTo, "cy")
	require.NoError(t, err)
	require.Len(t, all, 40)
	byNumber, err := First[model.Email](tx, TableEmails, testIndexSeq, uint64(30))
	require.NoError(t, err)
	require.Equal(t, "m030", byNumber.ID)
	_, err = First[model.Email](tx, TableEmails, testIndexSeq, uint64(31))
	require.ErrorIs(t, err, ErrNotFound)

	// Updates: a new recipient moves the row, the same one leaves the
	// buckets alone (the write copies none).
	require.NoError(t, st.Update(func(tx *Txn) error {
		m, err := Get[model.Email](tx, TableEmails, "m015")
		require.NoError(t, err)
		c := *m
		c.Subject = "same keys"
		require.NoError(t, Put(tx, TableEmails, &c))
		require.Nil(t, tx.eng.compact, "an update that keeps the keys touches no bucket")
		c2 := c
		c2.To = "zed"
		return Put(tx, TableEmails, &c2)
	}))
	tx = st.Read()
	requireCompactConsistent(t, tx)
	require.Equal(t, []string{"m015"}, compactIDs(t, tx, to, "zed", 0, false))
	require.NotContains(t, compactIDs(t, tx, to, "ann", 0, false), "m015")

	// Deletes: one, then in bulk by prefix, then all.
	require.NoError(t, st.Update(func(tx *Txn) error {
		m, err := Get[model.Email](tx, TableEmails, "m030")
		require.NoError(t, err)
		if err := tx.Delete(TableEmails, m); err != nil {
			return err
		}
		_, err = tx.DeletePrefix(TableEmails, IndexID+"_prefix", "m1")
		return err
	}))
	tx = st.Read()
	requireCompactConsistent(t, tx)
	for _, id := range compactIDs(t, tx, seq, "", 0, false) {
		require.False(t, id == "m030" || id[:2] == "m1", id)
	}
	require.NoError(t, st.Update(func(tx *Txn) error {
		_, err := tx.DeleteAll(TableEmails, IndexID)
		return err
	}))
	tx = st.Read()
	requireCompactConsistent(t, tx)
	require.Empty(t, compactIDs(t, tx, seq, "", 0, false))
	n := 0
	it, err := tx.mem.Get(tableCompact, IndexID)
	require.NoError(t, err)
	for raw := it.Next(); raw != nil; raw = it.Next() {
		n++
	}
	require.Zero(t, n, "emptied buckets are deleted")
}

// TestCompactIndexAbortLeavesNothing: a write that fails stores none of
// the buckets it changed.
func TestCompactIndexAbortLeavesNothing(t *testing.T) {
	to, _ := withTestCompactIndexes(t)
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error { return Put(tx, TableEmails, testMail(1, "ann")) }))
	boom := errors.New("boom")
	require.ErrorIs(t, st.Update(func(tx *Txn) error {
		for n := uint64(2); n < 50; n++ {
			if err := Put(tx, TableEmails, testMail(n, "ann")); err != nil {
				return err
			}
		}
		m, _ := Get[model.Email](tx, TableEmails, "m001")
		if err := tx.Delete(TableEmails, m); err != nil {
			return err
		}
		return boom
	}), boom)
	tx := st.Read()
	requireCompactConsistent(t, tx)
	require.Equal(t, []string{"m001"}, compactIDs(t, tx, to, "ann", 0, false))
}

// TestCompactIndexReadsInAWrite: reads inside a write see the buckets it
// changed (its own copies) and the stored ones it did not, for lookups
// and for ordered walks across both, in either direction; the copies are
// made once per bucket however many changes a write makes in it.
func TestCompactIndexReadsInAWrite(t *testing.T) {
	to, seq := withTestCompactIndexes(t)
	for _, observed := range []bool{false, true} {
		t.Run(fmt.Sprintf("observed=%v", observed), func(t *testing.T) {
			st := newTestStore(t)
			if observed {
				st.SetCommitObserver(func(Commit) {})
			}
			require.NoError(t, st.Update(func(tx *Txn) error {
				for n := uint64(1); n <= 40; n++ {
					if err := Put(tx, TableEmails, testMail(n*2, []string{"ann", "bob"}[n%2])); err != nil {
						return err
					}
				}
				return nil
			}))
			require.NoError(t, st.Update(func(tx *Txn) error {
				for n := uint64(41); n <= 60; n++ {
					require.NoError(t, Put(tx, TableEmails, testMail(n*2, "cy")))
				}
				for _, id := range []string{"m010", "m011", "m040"} {
					if m, err := Get[model.Email](tx, TableEmails, id); err == nil {
						require.NoError(t, tx.Delete(TableEmails, m))
					}
				}
				m, err := Get[model.Email](tx, TableEmails, "m020")
				require.NoError(t, err)
				c := *m
				c.To = "cy"
				require.NoError(t, Put(tx, TableEmails, &c))
				// Every read is checked against a walk of the write's rows.
				require.Len(t, compactIDs(t, tx, to, "cy", 0, false), 21)
				compactIDs(t, tx, to, "ann", 0, true)
				compactIDs(t, tx, to, "bob", 30, false)
				compactIDs(t, tx, to, "bob", 30, true)
				for _, from := range []uint64{0, 1, 7, 8, 39, 40, 41, 80, 81, 119, 120, 121, math.MaxUint64} {
					compactIDs(t, tx, seq, "", from, false)
					compactIDs(t, tx, seq, "", from, true)
				}
				for ref, b := range tx.eng.compact.buckets {
					if ref.ix == to {
						require.Greater(t, len(b.Entries), 10, "one copy of a shared bucket holds every change")
					}
				}
				return nil
			}))
			tx := st.Read()
			requireCompactConsistent(t, tx)
			for _, from := range []uint64{0, 3, 40, 121, math.MaxUint64} {
				compactIDs(t, tx, seq, "", from, false)
				compactIDs(t, tx, seq, "", from, true)
			}
		})
	}
}

// TestCompactIndexOrderedPages: an ordered walk continued from a cursor
// pages through every row once, forward and backward, whatever the page
// size, across buckets with gaps between them.
func TestCompactIndexOrderedPages(t *testing.T) {
	_, seq := withTestCompactIndexes(t)
	st := newTestStore(t)
	var want []string
	require.NoError(t, st.Update(func(tx *Txn) error {
		for n := uint64(1); n <= 300; n++ {
			if n%7 == 0 || n > 100 && n < 150 {
				continue // empty stretches: buckets that do not exist
			}
			want = append(want, fmt.Sprintf("m%03d", n))
			if err := Put(tx, TableEmails, testMail(n, "")); err != nil {
				return err
			}
		}
		return nil
	}))
	tx := st.Read()
	for _, size := range []int{1, 3, 64} {
		for _, desc := range []bool{false, true} {
			var got []string
			from := uint64(0)
			if desc {
				from = math.MaxUint64
			}
			for {
				var page []*model.Email
				require.NoError(t, tx.compactRows(seq, "", from, desc, func(raw any) bool {
					page = append(page, raw.(*model.Email))
					return len(page) < size
				}))
				for _, m := range page {
					got = append(got, m.ID)
				}
				if len(page) < size {
					break
				}
				last := page[len(page)-1].Seq
				if desc {
					from = last - 1
				} else {
					from = last + 1
				}
			}
			exp := slices.Clone(want)
			if desc {
				slices.Reverse(exp)
			}
			require.Equal(t, exp, got, "page size %d desc %v", size, desc)
		}
	}
}

// TestCompactIndexRebuiltOnImport: an exported world imported again has
// the buckets its writes kept, and two rows with the key of a unique
// compact index are refused.
func TestCompactIndexRebuiltOnImport(t *testing.T) {
	_, seq := withTestCompactIndexes(t)
	st := newTestStore(t)
	for round := uint64(0); round < 3; round++ {
		require.NoError(t, st.Update(func(tx *Txn) error {
			for n := uint64(1); n <= 30; n++ {
				if err := Put(tx, TableEmails, testMail(round*100+n, fmt.Sprint("r", n%4))); err != nil {
					return err
				}
			}
			if round > 0 {
				m, _ := Get[model.Email](tx, TableEmails, fmt.Sprintf("m%03d", (round-1)*100+5))
				return tx.Delete(TableEmails, m)
			}
			return nil
		}))
	}
	kept := st.Read()
	tables, err := Export(kept)
	require.NoError(t, err)
	db, err := Import(tables)
	require.NoError(t, err)
	imported := &Txn{mem: db.Txn(false)}
	requireCompactConsistent(t, kept)
	requireCompactConsistent(t, imported)
	rows := func(tx *Txn) []any {
		r, err := Rows(tx, tableCompact)
		require.NoError(t, err)
		return r
	}
	require.Equal(t, rows(kept), rows(imported))

	// memdb overwrites the entry of a unique index: the rebuild refuses.
	db, err = NewDB()
	require.NoError(t, err)
	raw := db.Txn(true)
	// E-mails are bucketed (bucket_rows.go): written as import writes them.
	mails := newBucketWrite(raw)
	require.NoError(t, mails.insertRow(bucketed(TableEmails), testMail(7, "x")))
	dup := testMail(7, "y")
	dup.ID = "other"
	require.NoError(t, mails.insertRow(bucketed(TableEmails), dup))
	require.NoError(t, mails.flush())
	// The outbox's own seq index has the test index's key: the rebuild
	// stops at it first, so the test index is asked on its own too.
	require.ErrorContains(t, rebuildCompact(raw), `two rows share the unique "seq" key`)
	_, err = compactBucketsOf(raw, seq)
	require.ErrorContains(t, err, `two rows share the unique "test_seq" key`)
}

// TestRequestsBySignatureAreCompact: a request is found by each of its
// signature ids and, once an edit gave a signer a new id, by the old id of
// a link it sent; a request that moves a signature away is no longer
// found by it; the buckets stay what a rebuild makes, whether the writes
// count their rows or are observed.
func TestRequestsBySignatureAreCompact(t *testing.T) {
	for _, observed := range []bool{false, true} {
		st := newTestStore(t)
		if observed {
			st.SetCommitObserver(func(Commit) {})
		}
		sig := func(n int) string { return fmt.Sprintf("%032x", n) }
		require.NoError(t, st.Update(func(tx *Txn) error {
			for r := 0; r < 50; r++ {
				req := &model.SignatureRequest{ID: fmt.Sprintf("r%02d", r), Seq: uint64(r + 1),
					Signatures: []model.Signature{{ID: sig(2 * r)}, {ID: sig(2*r + 1)}}}
				if err := Put(tx, TableSignatureRequests, req); err != nil {
					return err
				}
			}
			return nil
		}))
		require.NoError(t, st.Update(func(tx *Txn) error {
			req, err := SignatureRequestBySignature(tx, sig(7))
			require.NoError(t, err)
			require.Equal(t, "r03", req.ID)
			c := req.Copy()
			require.True(t, AddLinkSecret(c, sig(7), "s"))
			c.Signatures[1].ID = sig(1000) // an edit gives the signer a new id
			require.NoError(t, Put(tx, TableSignatureRequests, c))
			_, err = SignatureRequestBySignature(tx, sig(7))
			require.ErrorIs(t, err, ErrNotFound, "read in the write")
			moved, err := First[model.SignatureRequest](tx, TableSignatureRequests, IndexLinkSignature, sig(7))
			require.NoError(t, err)
			require.Equal(t, "r03", moved.ID)
			return nil
		}))
		tx := st.Read()
		requireCompactConsistent(t, tx)
		for _, c := range []struct{ sig, id string }{{sig(6), "r03"}, {sig(1000), "r03"}, {sig(99), "r49"}} {
			req, err := SignatureRequestBySignature(tx, c.sig)
			require.NoError(t, err)
			require.Equal(t, c.id, req.ID)
		}
		got, err := SignURLByToken(tx, "s"+sig(7))
		require.NoError(t, err)
		require.Equal(t, "r03", got.RequestID)
		_, err = SignatureRequestBySignature(tx, sig(7))
		require.ErrorIs(t, err, ErrNotFound)
	}
}

// TestRequestsBySeqAreCompact: WalkSeq walks the requests in Seq order
// from any position, both ways, in a read and inside a write that added
// and removed some (buckets of the write merged with stored ones), and
// All by IndexSeq answers them all in order.
func TestRequestsBySeqAreCompact(t *testing.T) {
	st := newTestStore(t)
	put := func(tx *Txn, n uint64) {
		require.NoError(t, Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: fmt.Sprintf("r%05d", n), Seq: n}))
	}
	walk := func(tx *Txn, from uint64, desc bool) []uint64 {
		var out []uint64
		require.NoError(t, WalkSeq(tx, TableSignatureRequests, from, desc, func(raw any) bool {
			out = append(out, raw.(*model.SignatureRequest).Seq)
			return true
		}))
		return out
	}
	want := func(seqs map[uint64]bool, from uint64, desc bool) []uint64 {
		var out []uint64
		for n := range seqs {
			if !desc && n >= from || desc && n <= from {
				out = append(out, n)
			}
		}
		slices.Sort(out)
		if desc {
			slices.Reverse(out)
		}
		return out
	}
	seqs := map[uint64]bool{}
	require.NoError(t, st.Update(func(tx *Txn) error {
		for n := uint64(5); n < 5000; n += 37 {
			put(tx, n)
			seqs[n] = true
		}
		return nil
	}))
	froms := []uint64{0, 5, 6, 511, 512, 1000, 4999, 5000, 9000, math.MaxUint64}
	require.NoError(t, st.Update(func(tx *Txn) error {
		for n := uint64(6000); n < 7000; n += 11 {
			put(tx, n)
			seqs[n] = true
		}
		for n := uint64(5); n < 1500; n += 37 * 3 {
			req, err := Get[model.SignatureRequest](tx, TableSignatureRequests, fmt.Sprintf("r%05d", n))
			require.NoError(t, err)
			require.NoError(t, tx.Delete(TableSignatureRequests, req))
			delete(seqs, n)
		}
		for _, from := range froms {
			for _, desc := range []bool{false, true} {
				require.Equal(t, want(seqs, from, desc), walk(tx, from, desc), "in the write, from %d desc %v", from, desc)
			}
		}
		return nil
	}))
	tx := st.Read()
	requireCompactConsistent(t, tx)
	for _, from := range froms {
		for _, desc := range []bool{false, true} {
			require.Equal(t, want(seqs, from, desc), walk(tx, from, desc), "from %d desc %v", from, desc)
		}
	}
	all, err := All[model.SignatureRequest](tx, TableSignatureRequests, IndexSeq)
	require.NoError(t, err)
	require.Len(t, all, len(seqs))
	require.True(t, slices.IsSortedFunc(all, func(a, b *model.SignatureRequest) int { return int(a.Seq) - int(b.Seq) }))
}

// TestLogIndexesAreCompact: the outbox's pages of one request and the
// newest e-mail about a signature follow adds and the trims of a full
// log, in a write and after it, and the buckets stay what a rebuild
// makes.
func TestLogIndexesAreCompact(t *testing.T) {
	st := newTestStore(t)
	withLogLimit(t, st, 40)
	var kept []*model.Email
	for round := 0; round < 4; round++ {
		require.NoError(t, st.Update(func(tx *Txn) error {
			for i := 0; i < 25; i++ {
				e := &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), Kind: "reminder", SignatureRequestID: []string{"ra", "rb", ""}[i%3],
					SignatureID: []string{"s1", "s2", "s3", ""}[i%4]}
				if err := AddEmail(tx, e); err != nil {
					return err
				}
			}
			last, err := LastEmailAbout(tx, "ra", "s2", func(*model.Email) bool { return true })
			require.NoError(t, err)
			require.Equal(t, "s2", last.SignatureID)
			require.Equal(t, "ra", last.SignatureRequestID)
			return nil
		}))
		tx := st.Read()
		requireCompactConsistent(t, tx)
		all, err := All[model.Email](tx, TableEmails, IndexSeq)
		require.NoError(t, err)
		kept = all
		for _, req := range []string{"ra", "rb"} {
			var want []string
			for _, e := range all {
				if e.SignatureRequestID == req {
					want = append(want, e.ID)
				}
			}
			for _, desc := range []bool{false, true} {
				var got []string
				q := PageQuery{Limit: 3, Desc: desc}
				for {
					p, err := PageEmails(tx, req, q, nil)
					require.NoError(t, err)
					for _, e := range p.Rows {
						got = append(got, e.ID)
					}
					if p.Next == 0 {
						break
					}
					q.After = p.Next
				}
				exp := slices.Clone(want)
				if desc {
					slices.Reverse(exp)
				}
				require.Equal(t, exp, got, "round %d request %s desc %v", round, req, desc)
			}
		}
		for _, req := range []string{"ra", "rb"} {
			for _, sig := range []string{"s1", "s3"} {
				var want *model.Email
				for _, e := range all {
					if e.SignatureRequestID == req && e.SignatureID == sig {
						want = e
					}
				}
				got, err := LastEmailAbout(tx, req, sig, func(*model.Email) bool { return true })
				require.NoError(t, err)
				require.Equal(t, want, got)
			}
		}
	}
	require.Len(t, kept, 40, "the log was trimmed")
}

// TestCompactIndexRebuiltAfterReplay: rows changed one by one outside
// the store (a journal replayed onto a snapshot, which carries no
// buckets: they were never journaled) get their buckets from
// RebuildDerived, and the store's reads find them.
func TestCompactIndexRebuiltAfterReplay(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "r1", Seq: 1, Signatures: []model.Signature{{ID: "s1"}}})
	}))
	db := st.db.Load()
	raw := db.Txn(true)
	replay := NewReplay(raw)
	require.NoError(t, replay.Apply(TableSignatureRequests, &model.SignatureRequest{ID: "r2", Seq: 2, Signatures: []model.Signature{{ID: "s2"}}}, false))
	require.NoError(t, replay.Apply(TableEmails, &model.Email{ID: "m1", Seq: 3, SignatureRequestID: "r2", SignatureID: "s2"}, false))
	require.NoError(t, replay.Apply(TableSignatureRequests, &model.SignatureRequest{ID: "r1"}, true))
	require.NoError(t, replay.Finish())
	raw.Commit()
	require.NoError(t, RebuildDerived(db))
	st.Replace(db)
	tx := st.Read()
	requireCompactConsistent(t, tx)
	req, err := SignatureRequestBySignature(tx, "s2")
	require.NoError(t, err)
	require.Equal(t, "r2", req.ID)
	_, err = SignatureRequestBySignature(tx, "s1")
	require.ErrorIs(t, err, ErrNotFound)
	last, err := LastEmailAbout(tx, "r2", "s2", func(*model.Email) bool { return true })
	require.NoError(t, err)
	require.Equal(t, "m1", last.ID)
}

// TestAccessListsAreCompact: an account's list spread over many buckets
// (and sharing slots with other accounts) keeps dense ordinals in request
// order through adds in and out of order, removals and a rebuild; walks
// down from any ordinal, in a write and after it, answer the rows in
// order.
func TestAccessListsAreCompact(t *testing.T) {
	st := newTestStore(t)
	accounts := []string{"big", "small"}
	require.NoError(t, st.Update(func(tx *Txn) error {
		for n := uint64(1); n <= 300; n++ {
			seq := n * 10
			if n%7 == 0 {
				seq = n*10 - 65 // older than some already listed: the newer rows shift up
			}
			for _, acct := range accounts {
				if acct == "small" && n%30 != 0 {
					continue
				}
				if err := AddAccess(tx, acct, fmt.Sprintf("r%04d", n), seq); err != nil {
					return err
				}
			}
		}
		for n := 5; n <= 300; n += 50 {
			if err := RemoveAccess(tx, "big", fmt.Sprintf("r%04d", n)); err != nil {
				return err
			}
		}
		requireAccessList(t, tx, "big", 294)
		return nil
	}))
	tx := st.Read()
	requireCompactConsistent(t, tx)
	requireAccessList(t, tx, "big", 294)
	requireAccessList(t, tx, "small", 10)
	require.NoError(t, st.Update(func(tx *Txn) error {
		return RebuildAccess(tx, "big", map[string]bool{"r0010": true, "r0200": true}, map[string]uint64{"x1": 1, "x2": 100000})
	}))
	tx = st.Read()
	requireCompactConsistent(t, tx)
	requireAccessList(t, tx, "big", 294)
	a, err := AccessAt(tx, "big", 294)
	require.NoError(t, err)
	require.Equal(t, "x2", a.RequestID)
	a, err = AccessAt(tx, "big", 1)
	require.NoError(t, err)
	require.Equal(t, "x1", a.RequestID)
	_, err = AccessAt(tx, "big", 295)
	require.ErrorIs(t, err, ErrNotFound)
	n, err := AccessCount(tx, "nobody")
	require.NoError(t, err)
	require.Zero(t, n)
}

// requireAccessList checks that an account lists n requests with dense
// ordinals in request order, whichever ordinal a walk starts from.
func requireAccessList(t *testing.T, tx *Txn, account string, n uint64) {
	t.Helper()
	count, err := AccessCount(tx, account)
	require.NoError(t, err)
	require.Equal(t, n, count)
	for _, from := range []uint64{n, n / 2, 64, 65, 1} {
		w := NewAccessWalk(tx, account, from)
		want, lastSeq := min(from, n), uint64(math.MaxUint64)
		for {
			a, err := w.Next()
			require.NoError(t, err)
			if a == nil {
				break
			}
			require.Equal(t, want, a.Ordinal)
			require.Less(t, a.RequestSeq, lastSeq)
			at, err := AccessAt(tx, account, a.Ordinal)
			require.NoError(t, err)
			require.Same(t, a, at)
			want, lastSeq = want-1, a.RequestSeq
		}
		require.Zero(t, want, "the walk from %d reached ordinal 1", from)
	}
}

// TestJobsBySubjectAreCompact: a subject's jobs are listed in scheduling
// order from a compact index through scheduling, cancelling, running and
// re-putting, whether the writes count their rows or are observed (the
// journal's writes), and the buckets stay what a rebuild makes.
func TestJobsBySubjectAreCompact(t *testing.T) {
	for _, observed := range []bool{false, true} {
		st := newTestStore(t)
		if observed {
			st.SetCommitObserver(func(Commit) {})
		}
		require.Nil(t, memdbIndex(t, TableJobs, IndexSubject), "no memdb index of subjects")
		subjects := []string{"sa", "sb", "sc", ""}
		for round := 0; round < 4; round++ {
			require.NoError(t, st.Update(func(tx *Txn) error {
				for i := 0; i < 12; i++ {
					// Due times out of order: the index lists by Seq.
					if _, err := Schedule(tx, []string{"k1", "k2"}[i%2], subjects[(i+round)%4], time.Duration(12-i)*time.Second, nil); err != nil {
						return err
					}
				}
				if err := CancelJobs(tx, "sb", "k1"); err != nil {
					return err
				}
				if j := NextJob(tx); j != nil {
					if err := tx.Delete(TableJobs, j); err != nil {
						return err
					}
				}
				jobs, err := JobsOf(tx, "sc")
				if err != nil || len(jobs) == 0 {
					return err
				}
				return Put(tx, TableJobs, jobs[0]) // the same row again
			}))
			tx := st.Read()
			requireCompactConsistent(t, tx)
			all, err := All[model.Job](tx, TableJobs, IndexID)
			require.NoError(t, err)
			for _, subject := range subjects {
				var want []uint64
				for _, j := range all {
					if subject != "" && j.Subject == subject {
						want = append(want, j.Seq)
					}
				}
				slices.Sort(want)
				jobs, err := JobsOf(tx, subject)
				require.NoError(t, err)
				var got []uint64
				for _, j := range jobs {
					got = append(got, j.Seq)
					if subject == "sb" {
						require.NotEqual(t, "k1", j.Kind, "cancelled")
					}
				}
				require.Equal(t, want, got, "observed %v round %d subject %q", observed, round, subject)
			}
		}
	}
}

// memdbIndex is the memdb index of table named index (nil: none).
func memdbIndex(t *testing.T, table, index string) *memdb.IndexSchema {
	t.Helper()
	registryMu.Lock()
	defer registryMu.Unlock()
	return registry[table].Schema.Indexes[index]
}
