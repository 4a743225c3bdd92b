package state

// Compact indexes: secondary indexes kept as buckets of a derived table
// instead of go-immutable-radix entries.
//
// Every entry of a memdb index costs about 450 bytes of live heap (a
// node, a leaf and the two channels the radix tree allocates for change
// tracking), and memdb re-inserts every index of a row on each Insert,
// changed key or not: a new leaf and a path copy per index. A compact
// index keeps its entries (group, order, primary id: 40 bytes, the
// strings shared with the row, or copies where rows freeze: owned) in
// small sorted slices, the buckets, each
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
	"slices"
	"strconv"
	"strings"

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
	// churns marks a grouped index whose buckets a batch both adds to and
	// removes from, so that their size stays about the same: a log's,
	// whose oldest entries go as new ones come (see
	// bucketGrowsByAQuarter).
	churns bool
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

// owned answers e with strings of its own when the index's rows can be
// frozen (bucket_rows_frozen.go). The strings of a thawed row point into
// its encoding, and so do those a row copies from one (an e-mail's
// request id taken from a thawed request): an entry kept for the row's
// life would keep that encoding after the row it came from is written
// again and frozen anew. Entries are added and rebuilt through it.
func (ix *compactIndex) owned(e compactEntry) compactEntry {
	if bt := bucketed(ix.table); bt != nil && bt.codec != nil {
		e.Group, e.ID = strings.Clone(e.Group), strings.Clone(e.ID)
	}
	return e
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
	return string(ix.appendBucketKey(buf[:0], n))
}

// bucketLookup is the key of the bucket table's id index for bucket n,
// as a lookup takes it (the id and its NUL, made in one allocation): the
// buckets of compact indexes are read on every lookup and every change.
func (ix *compactIndex) bucketLookup(n uint64) lookupKey {
	return append(ix.appendBucketKey(make([]byte, 0, len(ix.tag)+17), n), 0)
}

// appendBucketKey appends the id of bucket n of the index: its tag and n
// in 16 hex digits.
func (ix *compactIndex) appendBucketKey(b []byte, n uint64) []byte {
	b = append(b, ix.tag...)
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, "0123456789abcdef"[(n>>uint(shift))&0xf])
	}
	return b
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
func fnv1a(s string) uint32 { return fnv1aFrom(fnv1aStart, s) }

// fnv1aStart is FNV-1a's offset basis; fnv1aFrom goes on hashing from h,
// so that the hash of a string made of parts needs no string made.
const fnv1aStart = uint32(2166136261)

func fnv1aFrom(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// compactIndexes lists the compact indexes by registration; compactByTable
// and compactByName find them. Both are filled by the registrations (tables.go) and only
// read afterwards.
var (
	compactIndexes []*compactIndex
	compactByTable = map[string][]*compactIndex{}
	compactByName  = map[[2]string]*compactIndex{}
)

// registerCompact adds a compact index (from a registration in tables.go).
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

// registerCompactBuckets adds the derived table the compact indexes keep their entries in.
func registerCompactBuckets() {
	RegisterDerived[compactBucket](&memdb.TableSchema{
		Name: tableCompact,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("Key", func(b *compactBucket) string { return b.Key })},
		},
	})
}
