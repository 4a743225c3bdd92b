package state

// Frozen rows: a bucketed table's rows that no write has touched lately,
// kept as their encoding (package rowcodec) instead of as the row.
//
// The collector walks every pointer of the live heap on each cycle. A
// request row is a graph of about fifteen objects (the row, its signers,
// documents, file set, audit, strings) holding some forty pointers, and a
// world of 100,000 requests made each cycle walk some 300 MB: the sends of
// a large world ran at three quarters of an empty world's rate, and the
// heap the collector needs grew with it. A frozen row is one allocation
// of bytes the collector does not look into (frozenRow). The tables that
// freeze their rows (freezable) are those that grow with the world or
// with its logs: requests, e-mails and events.
//
// Which rows are frozen: when a write copies a bucket to change it, the
// rows the bucket held that are still live are frozen as the write
// stores it (bucketWrite.flush), while the rows the write put stay live.
// So a row stays live until another write changes a row of its bucket,
// at most a few thousand rows of a table are live at once, and they are
// the ones written last, which the jobs that follow a write read and
// write again. Import and journal replay freeze every row they store.
//
// Rows leave the buckets thawed (decoded), never frozen: a read by id, a
// walk, the row a write replaced. Within a write, the same frozen row
// thaws to the same row each time (bucketWrite.thaw), as a stored row
// was the same pointer on every read, however it is read (by id, a walk,
// a compact index). Reads by id outside a write share a store's small
// cache of thawed rows (thawCache), so that a row read again and again (a
// page of requests, a request polled) is decoded once; a walk outside a
// write thaws each row it visits.
// A row the codec cannot encode stays live: freezing is never an error.
//
// Decoded strings point into the encoding, so a string taken from a
// thawed row and kept elsewhere keeps that encoding alive after the row
// is frozen anew. Compact index entries over frozen tables copy their
// strings (compactIndex.owned); a row that copies a string from a thawed
// one keeps the encoding only while it is live itself, since freezing
// it copies the string into its own encoding.

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/signsandbox/signsandbox/sandbox/internal/rowcodec"
)

// frozenRow is a row of a bucketed table as its encoding: p points at the
// encoding's length (a uvarint) and the encoding follows it, all one
// allocation. A struct of one pointer is stored in an interface as the
// pointer itself, so a frozen row in a bucket is that one allocation and
// nothing else. The bytes are never changed once made: thawed rows may
// share them.
type frozenRow struct {
	p *byte
}

// frozenBytes copies enc behind its length into an allocation of its own.
func frozenBytes(enc []byte) []byte {
	var length [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(length[:], uint64(len(enc)))
	b := make([]byte, 0, n+len(enc))
	return append(append(b, length[:n]...), enc...)
}

// enc answers the encoding.
func (f frozenRow) enc() []byte {
	// The length's bytes are read one by one up to its last, so nothing
	// past the allocation is read.
	var n uint64
	i := 0
	for shift := 0; ; shift += 7 {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(f.p), i))
		i++
		n |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(f.p), i)), n)
}

// id answers the frozen row's id without thawing it.
func (f frozenRow) id() string { return rowcodec.ID(f.enc()) }

// freezable gives bt a codec for its rows, of type T.
func freezable[T any](bt *bucketTable) *bucketTable {
	c, err := rowcodec.New(reflect.TypeFor[T]())
	if err != nil {
		panic(fmt.Sprintf("state: rows of %s cannot be frozen: %v", bt.table, err))
	}
	bt.codec = c
	return bt
}

// freeze answers row frozen, or row itself when it is frozen already, the
// table keeps its rows live, or the codec cannot encode it.
func (bt *bucketTable) freeze(row any) any {
	if bt.codec == nil {
		return row
	}
	if _, ok := row.(frozenRow); ok {
		return row
	}
	b, err := bt.codec.EncodeWith(row, frozenBytes)
	if err != nil {
		return row
	}
	f := frozenRow{p: &b[0]}
	if checkOwnReads {
		checkFrozen(bt, row, f)
	}
	return f
}

// thaw answers row decoded when it is frozen, else row itself.
func (bt *bucketTable) thaw(row any) any {
	f, ok := row.(frozenRow)
	if !ok {
		return row
	}
	out, err := bt.codec.Decode(f.enc())
	if err != nil {
		// The bytes are the codec's own, never changed: a failure is a
		// bug of the codec, not of any input.
		panic(fmt.Sprintf("state: a frozen row of %s does not thaw: %v", bt.table, err))
	}
	return out
}

// checkFrozen panics unless the frozen row thaws to what was frozen
// (readcheck builds: every row any test freezes is checked).
func checkFrozen(bt *bucketTable, row any, f frozenRow) {
	if back := bt.thaw(f); !reflect.DeepEqual(back, row) {
		panic(fmt.Sprintf("state: a row of %s does not thaw to itself: %+v, froze %+v", bt.table, back, row))
	}
}

// thaw answers the row a write reads for a stored row: thawed once per
// write, so that every read of it in the write answers the same row.
func (w *bucketWrite) thaw(bt *bucketTable, row any) any {
	f, ok := row.(frozenRow)
	if !ok {
		return row
	}
	if out, ok := w.thawed[f]; ok {
		return out
	}
	out := bt.thaw(f)
	if w.thawed == nil {
		w.thawed = map[frozenRow]any{}
	}
	w.thawed[f] = out
	return out
}

// freezeStored freezes the rows of b, the write's copy of bucket n, that
// it copied from the stored bucket and that are still live; with all, every
// live row.
func (w *bucketWrite) freezeStored(bt *bucketTable, n uint64, b *rowBucket, all bool) {
	if bt.codec == nil {
		return
	}
	stored := w.tree(bt).bucket(n)
	for i, row := range b.Rows {
		if _, frozen := row.(frozenRow); frozen {
			continue
		}
		if all || w.storedRow(bt, stored, row) {
			b.Rows[i] = bt.freeze(row)
		}
	}
}

// storedRow reports whether row is a row of the stored bucket s (the same
// row, not one put in its place).
func (w *bucketWrite) storedRow(bt *bucketTable, s *rowBucket, row any) bool {
	if s == nil {
		return false
	}
	id, _ := bt.id(row)
	i, found := bt.search(s.Rows, id)
	if !found {
		return false
	}
	if f, ok := s.Rows[i].(frozenRow); ok {
		// Thawed by the write and put back as it was read.
		return w.thawed[f] == row
	}
	return s.Rows[i] == row
}

// thawSlots is the size of a store's cache of thawed rows: a few pages of
// requests, and the rows a test polls.
const thawSlots = 1024

// thawCache is a store's cache of rows thawed for reads outside a write,
// by the frozen row they came from. A frozen row never changes, so an
// entry is right for as long as its frozen row is the one stored; it is
// made on the first read of a frozen row.
type thawCache struct {
	slots atomic.Pointer[[thawSlots]atomic.Pointer[thawedRow]]
}

type thawedRow struct {
	from frozenRow
	row  any
}

// thaw answers the thawed row of f, decoding it on a miss.
func (c *thawCache) thaw(bt *bucketTable, f frozenRow) any {
	slots := c.slots.Load()
	if slots == nil {
		slots = new([thawSlots]atomic.Pointer[thawedRow])
		if !c.slots.CompareAndSwap(nil, slots) {
			slots = c.slots.Load()
		}
	}
	slot := &slots[fnv1a(f.id())%thawSlots]
	if t := slot.Load(); t != nil && t.from == f {
		return t.row
	}
	row := bt.thaw(f)
	slot.Store(&thawedRow{from: f, row: row})
	return row
}

// reset empties the cache (the database was replaced: none of its frozen
// rows are stored any more).
func (c *thawCache) reset() { c.slots.Store(nil) }
