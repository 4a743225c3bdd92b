package state

// Compact indexes: secondary indexes kept as buckets of a derived table
// instead of go-immutable-radix entries.
//
// Every entry of a memdb index costs about 450 bytes of live heap (a
// node, a leaf and the two channels the radix tree allocates for change
// tracking), and memdb re-inserts every index of a row on each Insert,
// changed key or not: a new leaf and a path copy per index. A compact
// index keeps its entries (group, order, primary id: 40 bytes, the
// strings shared with the row) in small sorted slices, the buckets, each
// one row of the derived table compact_buckets. A row's entries are
// touched only when its keys change, so re-putting a request whose
// signatures and number did not move costs the index nothing.
//
// Three kinds of bucket:
//   - grouped: the bucket of an entry is a stable hash (FNV-1a) of its
//     group masked to a fixed number of buckets; a bucket sorts its
//     entries by (group, order, id), so the entries of one group (the
//     requests holding a signature id, the e-mails about a request in
//     order) are read from one bucket;
//   - ordered: the bucket of an entry is its order number shifted right,
//     for a walk of every entry in order (requests by Seq), forward or
//     backward from any position;
//   - grouped and chunked: a group that can grow large (an account's
//     list) is spread over buckets of a fixed number of orders within
//     its hash slot, walked in order like an ordered index.
//
// A write keeps the buckets it changed in the transaction (compactWrite):
// the first change copies a bucket, later ones change the copy in place,
// and the copies are stored once, before the commit (flushCompact). Reads
// inside the write look at those copies first, then at the bucket table,
// which the write has not changed yet, so memdb never clones a written
// index for them. Stored buckets are never changed. Import and a journal
// replay rebuild the table from the rows (rebuildCompact); it is neither
// exported nor journaled.

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	memdb "github.com/hashicorp/go-memdb"
)

// tableCompact holds the buckets of every compact index.
const tableCompact = "compact_buckets"

// compactBucket is one bucket of a compact index: its entries sorted by
// (Group, Order, ID). Key is the index's tag and the bucket number in 16
// hex digits, so that the buckets of an index sort by number.
type compactBucket struct {
	Key     string
	Entries []compactEntry
}

// compactEntry is one entry of a compact index: the row whose primary id
// is ID has the key (Group, Order). An ordered index has no group.
type compactEntry struct {
	Group string
	Order uint64
	ID    string
}

// compactKey is a key a row has in a compact index.
type compactKey struct {
	group string
	order uint64
}

// compactIndex describes a compact index of a table.
type compactIndex struct {
	table string
	// name is the index name lookups use (as they used memdb's).
	name string
	// tag starts the keys of the index's buckets; no tag is the start of
	// another.
	tag string
	// ordered indexes bucket by order >> shift; grouped ones by the hash
	// of the group masked to 1<<bits buckets.
	ordered bool
	shift   uint
	bits    uint
	// chunk, when set on a grouped index, spreads each group over buckets
	// of 1<<chunk orders (a group can be large: an account's list), walked
	// in order within the group's hash slot.
	chunk uint
	// unique: import refuses two rows with the same key (as memdb's
	// unique index did, see checkUnique).
	unique bool
	// entryID, when set, is what an entry keeps to name its row: a string
	// of the row the id is made of, where the id itself is computed (an
	// access row's); rowID makes the id from the entry again.
	entryID func(row any) string
	rowID   func(e *compactEntry) string
	// keys appends the keys of row (in any order, repeats allowed).
	keys func(row any, dst []compactKey) []compactKey
}

// bucketOf answers the number of the bucket a key lives in.
func (ix *compactIndex) bucketOf(k compactKey) uint64 {
	if ix.ordered {
		return k.order >> ix.shift
	}
	slot := uint64(fnv1a(k.group)) & (1<<ix.bits - 1)
	if ix.chunk == 0 {
		return slot
	}
	return slot<<chunkSlotShift | min(k.order>>ix.chunk, chunkMax)
}

// A chunked group's buckets are numbered slot<<chunkSlotShift + chunk,
// the chunks of one slot in a row.
const (
	chunkSlotShift = 40
	chunkMax       = 1<<chunkSlotShift - 1
)

// slotRange answers the first and last bucket numbers of group's slot in
// a chunked index.
func (ix *compactIndex) slotRange(group string) (lo, hi uint64) {
	lo = ix.bucketOf(compactKey{group: group}) &^ chunkMax
	return lo, lo | chunkMax
}

// entryIDOf answers what an entry of row keeps to name it, id being the
// row's id.
func (ix *compactIndex) entryIDOf(row any, id string) string {
	if ix.entryID != nil && row != nil {
		return ix.entryID(row)
	}
	return id
}

// lookupID answers the id of an entry's row.
func (ix *compactIndex) lookupID(e *compactEntry) string {
	if ix.rowID != nil {
		return ix.rowID(e)
	}
	return e.ID
}

// bucketKey is the id of bucket n of the index.
func (ix *compactIndex) bucketKey(n uint64) string {
	var buf [64]byte
	b := append(buf[:0], ix.tag...)
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, "0123456789abcdef"[(n>>uint(shift))&0xf])
	}
	return string(b)
}

// bucketNumber reads the number of a bucket key of the index (ok false for
// a key of another index).
func (ix *compactIndex) bucketNumber(key string) (uint64, bool) {
	if len(key) != len(ix.tag)+16 || key[:len(ix.tag)] != ix.tag {
		return 0, false
	}
	n, err := strconv.ParseUint(key[len(ix.tag):], 16, 64)
	return n, err == nil
}

// rowKeys answers the keys of row sorted and without repeats (none for a
// nil row).
func (ix *compactIndex) rowKeys(row any, dst []compactKey) []compactKey {
	if row == nil {
		return dst[:0]
	}
	dst = ix.keys(row, dst[:0])
	slices.SortFunc(dst, compareKeys)
	return slices.Compact(dst)
}

func compareKeys(a, b compactKey) int {
	if c := cmp.Compare(a.group, b.group); c != 0 {
		return c
	}
	return cmp.Compare(a.order, b.order)
}

func compareEntries(a, b compactEntry) int {
	if c := cmp.Compare(a.Group, b.Group); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Order, b.Order); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// fnv1a is the 32-bit FNV-1a hash of s: stable across runs and builds, so
// that a world's buckets do not depend on the process.
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// compactIndexes lists the compact indexes by registration; compactByTable
// and compactByName find them. Both are filled by init functions and only
// read afterwards.
var (
	compactIndexes []*compactIndex
	compactByTable = map[string][]*compactIndex{}
	compactByName  = map[[2]string]*compactIndex{}
)

// registerCompact adds a compact index (from an init function).
func registerCompact(ix *compactIndex) {
	for _, o := range compactIndexes {
		if o.tag == ix.tag || len(o.tag) >= len(ix.tag) && o.tag[:len(ix.tag)] == ix.tag ||
			len(ix.tag) > len(o.tag) && ix.tag[:len(o.tag)] == o.tag {
			panic("state: compact index tags overlap: " + ix.tag + ", " + o.tag)
		}
	}
	if _, dup := compactByName[[2]string{ix.table, ix.name}]; dup {
		panic("state: compact index registered twice: " + ix.table + "." + ix.name)
	}
	compactIndexes = append(compactIndexes, ix)
	compactByTable[ix.table] = append(compactByTable[ix.table], ix)
	compactByName[[2]string{ix.table, ix.name}] = ix
}

// compactIndexNamed answers the compact index of a table by name (nil:
// the index, if any, is memdb's).
func compactIndexNamed(table, index string) *compactIndex {
	if index == IndexID {
		return nil
	}
	return compactByName[[2]string{table, index}]
}

func init() {
	RegisterDerived[compactBucket](&memdb.TableSchema{
		Name: tableCompact,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("Key", func(b *compactBucket) string { return b.Key })},
		},
	})
}

// compactWrite is what a write changed of the compact indexes: its own
// copies of the buckets it changed. A write that does not count its rows
// (its changes are tracked for a commit observer) also remembers the
// rows of compact tables it changed (rows, nil for a deleted one) and
// reads the others from the database as it found it (db, through base),
// to compare a row's keys with those of the row it replaces: a read of
// the write's own changed index would make memdb clone it.
type compactWrite struct {
	buckets map[compactRef]*compactBucket
	// walked lists, per ordered or chunked index, the numbers of the
	// buckets in buckets: a walk in order merges them with the stored
	// ones (eachBucket) without looking through every bucket the write
	// changed, which a write creating many requests would do per request.
	walked map[*compactIndex][]uint64
	db     *memdb.MemDB
	base   *memdb.Txn
	rows   map[rowKey]any
	unsure bool
}

// compactKeys is compactChange's room for a row's keys before and after
// a change, kept by a write for its next change: arrays on its stack
// escaped through the keys functions, two allocations of 192 bytes for
// every row a write put into or deleted from a table with compact
// indexes.
type compactKeys struct {
	old, new []compactKey
}

// compactRef names bucket n of an index.
type compactRef struct {
	ix *compactIndex
	n  uint64
}

// storedBucket answers the bucket as the database holds it (nil: none).
// The write has not changed the bucket table (flushCompact does that last),
// so memdb reads it from the committed tree.
func (t *Txn) storedBucket(ix *compactIndex, n uint64) *compactBucket {
	raw, err := t.Txn.First(tableCompact, IndexID, ix.bucketKey(n))
	if err != nil || raw == nil {
		return nil
	}
	return raw.(*compactBucket)
}

// bucket answers bucket n of ix as this transaction has it (nil: empty).
func (t *Txn) bucket(ix *compactIndex, n uint64) *compactBucket {
	if t.compact != nil {
		if b, ok := t.compact.buckets[compactRef{ix, n}]; ok {
			return b
		}
	}
	return t.storedBucket(ix, n)
}

// writableBucket answers the write's own copy of bucket n of ix, copying
// the stored one the first time.
func (t *Txn) writableBucket(ix *compactIndex, n uint64) *compactBucket {
	if t.compact == nil {
		t.compact = &compactWrite{}
	}
	if t.compact.buckets == nil {
		t.compact.buckets = map[compactRef]*compactBucket{}
	}
	ref := compactRef{ix, n}
	if b, ok := t.compact.buckets[ref]; ok {
		return b
	}
	b := &compactBucket{Key: ix.bucketKey(n)}
	if s := t.storedBucket(ix, n); s != nil {
		// Room for one more: a send adds one entry to each bucket it
		// touches.
		b.Entries = make([]compactEntry, len(s.Entries), len(s.Entries)+1)
		copy(b.Entries, s.Entries)
	}
	t.compact.buckets[ref] = b
	if ix.ordered || ix.chunk > 0 {
		if t.compact.walked == nil {
			t.compact.walked = map[*compactIndex][]uint64{}
		}
		t.compact.walked[ix] = append(t.compact.walked[ix], n)
	}
	return b
}

// compactChange moves the entries of the row of id from the keys of
// before to those of after (either nil) in every compact index of its
// table, touching only the buckets of keys that changed.
func (t *Txn) compactChange(ixs []*compactIndex, id string, before, after any) {
	if t.keys == nil {
		t.keys = &compactKeys{}
	}
	w := t.keys
	for _, ix := range ixs {
		old := ix.rowKeys(before, w.old)
		cur := ix.rowKeys(after, w.new)
		w.old, w.new = old[:0], cur[:0]
		if slices.Equal(old, cur) {
			continue
		}
		i, j := 0, 0
		for i < len(old) || j < len(cur) {
			switch {
			case j == len(cur) || i < len(old) && compareKeys(old[i], cur[j]) < 0:
				t.compactRemove(ix, old[i], ix.entryIDOf(before, id))
				i++
			case i == len(old) || compareKeys(cur[j], old[i]) < 0:
				t.compactAdd(ix, cur[j], ix.entryIDOf(after, id))
				j++
			default:
				i, j = i+1, j+1
			}
		}
	}
}

// compactAdd adds the entry (k, id) to its bucket.
func (t *Txn) compactAdd(ix *compactIndex, k compactKey, id string) {
	b := t.writableBucket(ix, ix.bucketOf(k))
	e := compactEntry{Group: k.group, Order: k.order, ID: id}
	i, found := slices.BinarySearchFunc(b.Entries, e, compareEntries)
	if !found {
		b.Entries = slices.Insert(b.Entries, i, e)
	}
}

// compactRemove removes the entry (k, id) from its bucket.
func (t *Txn) compactRemove(ix *compactIndex, k compactKey, id string) {
	b := t.writableBucket(ix, ix.bucketOf(k))
	e := compactEntry{Group: k.group, Order: k.order, ID: id}
	if i, found := slices.BinarySearchFunc(b.Entries, e, compareEntries); found {
		b.Entries = slices.Delete(b.Entries, i, i+1)
	}
}

// flushCompact stores the buckets a write changed, once, before it
// commits: in the order of their keys, an emptied bucket deleted.
func (t *Txn) flushCompact() error {
	if t.compact == nil {
		return nil
	}
	w := t.compact
	t.compact = nil
	refs := make([]compactRef, 0, len(w.buckets))
	for ref := range w.buckets {
		refs = append(refs, ref)
	}
	slices.SortFunc(refs, func(a, b compactRef) int {
		if c := cmp.Compare(a.ix.tag, b.ix.tag); c != 0 {
			return c
		}
		return cmp.Compare(a.n, b.n)
	})
	for _, ref := range refs {
		b := w.buckets[ref]
		if len(b.Entries) == 0 {
			if err := t.Txn.Delete(tableCompact, b); err != nil && !errors.Is(err, memdb.ErrNotFound) {
				return fmt.Errorf("state: delete %s: %w", tableCompact, err)
			}
			continue
		}
		if cap(b.Entries) > len(b.Entries)+len(b.Entries)/4+1 {
			b.Entries = slices.Clone(b.Entries) // the room a batch grew is not kept
		}
		if err := t.Txn.Insert(tableCompact, b); err != nil {
			return fmt.Errorf("state: insert %s: %w", tableCompact, err)
		}
	}
	return nil
}

// rebuildCompact makes every compact index from the rows of db (import,
// journal replay), refusing two rows with the key of a unique index.
func rebuildCompact(tx *memdb.Txn) error {
	for _, ix := range compactIndexes {
		buckets, err := compactBucketsOf(tx, ix)
		if err != nil {
			return err
		}
		for _, b := range buckets {
			if err := tx.Insert(tableCompact, b); err != nil {
				return fmt.Errorf("state: rebuild %s.%s: %w", ix.table, ix.name, err)
			}
		}
	}
	return nil
}

// compactBucketsOf computes the buckets of ix from the rows of its table,
// in the order of their keys.
func compactBucketsOf(tx *memdb.Txn, ix *compactIndex) ([]*compactBucket, error) {
	entries := map[uint64][]compactEntry{}
	it, err := tx.Get(ix.table, IndexID)
	if err != nil {
		return nil, fmt.Errorf("state: rebuild %s.%s: %w", ix.table, ix.name, err)
	}
	ri := rowInfoOf(ix.table)
	var buf [8]compactKey
	for raw := it.Next(); raw != nil; raw = it.Next() {
		id, ok := ri.rowID(raw)
		if !ok {
			return nil, fmt.Errorf("state: rebuild %s.%s: a row without an id", ix.table, ix.name)
		}
		for _, k := range ix.rowKeys(raw, buf[:0]) {
			n := ix.bucketOf(k)
			entries[n] = append(entries[n], compactEntry{Group: k.group, Order: k.order, ID: ix.entryIDOf(raw, id)})
		}
	}
	ns := make([]uint64, 0, len(entries))
	for n := range entries {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	out := make([]*compactBucket, 0, len(ns))
	for _, n := range ns {
		es := slices.Clone(entries[n]) // no room left over from the appends
		slices.SortFunc(es, compareEntries)
		if ix.unique {
			for i := 1; i < len(es); i++ {
				if es[i].Group == es[i-1].Group && es[i].Order == es[i-1].Order {
					return nil, fmt.Errorf("table %q: two rows share the unique %q key %q/%d", ix.table, ix.name, es[i].Group, es[i].Order)
				}
			}
		}
		out = append(out, &compactBucket{Key: ix.bucketKey(n), Entries: es})
	}
	return out, nil
}

// trackedRow answers the row of id in table as a write that does not
// count its rows has it now.
func (t *Txn) trackedRow(table, id string) (any, error) {
	w := t.compact
	if w == nil || w.db == nil || w.unsure {
		return t.Txn.First(table, IndexID, idArg(table, id))
	}
	raw, ok := w.rows[rowKey{table, id}]
	if !ok {
		if w.base == nil {
			w.base = w.db.Txn(false)
		}
		var err error
		if raw, err = w.base.First(table, IndexID, idArg(table, id)); err != nil {
			return nil, err
		}
	}
	if checkOwnReads {
		t.checkOwnRead(raw, table, IndexID, []any{idArg(table, id)})
	}
	return raw, nil
}

// trackRow records that the row of id in table is row from now on (nil:
// none), for trackedRow; err is the change's error, after which memdb's
// indexes may be part changed and only memdb knows the row.
func (t *Txn) trackRow(table, id string, row any, err error) {
	w := t.compact
	if w == nil || w.db == nil {
		return
	}
	if err != nil {
		if !errors.Is(err, memdb.ErrNotFound) {
			w.unsure = true
		}
		return
	}
	if w.rows == nil {
		w.rows = map[rowKey]any{}
	}
	w.rows[rowKey{table, id}] = row
}

// insertTracked is Insert into a table with compact indexes in a write
// that does not count its rows.
func (t *Txn) insertTracked(ixs []*compactIndex, table string, row any) error {
	id, ok := rowInfoOf(table).rowID(row)
	if !ok {
		return t.Txn.Insert(table, row) // memdb refuses it
	}
	before, err := t.trackedRow(table, id)
	if err != nil {
		return err
	}
	err = t.Txn.Insert(table, row)
	t.trackRow(table, id, row, err)
	if err != nil {
		return err
	}
	t.compactChange(ixs, id, before, row)
	return nil
}

// deleteTracked is Delete from a table with compact indexes in a write
// that does not count its rows.
func (t *Txn) deleteTracked(ixs []*compactIndex, table string, row any) error {
	id, ok := rowInfoOf(table).rowID(row)
	if !ok {
		return t.Txn.Delete(table, row)
	}
	before, err := t.trackedRow(table, id)
	if err != nil {
		return err
	}
	err = t.Txn.Delete(table, row)
	t.trackRow(table, id, nil, err)
	if err != nil {
		return err
	}
	t.compactChange(ixs, id, before, nil)
	return nil
}

// compactDeleted takes the rows a bulk delete removed out of the compact
// indexes of their table.
func (t *Txn) compactDeleted(ixs []*compactIndex, table string, gone []any) {
	ri := rowInfoOf(table)
	for _, row := range gone {
		if id, ok := ri.rowID(row); ok {
			t.compactChange(ixs, id, row, nil)
			t.trackRow(table, id, nil, nil)
		} else if t.compact != nil {
			t.compact.unsure = true
		}
	}
}
