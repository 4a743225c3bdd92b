package state

// Bucketed tables: the rows of a table kept in a fixed number of buckets,
// all of a table's buckets one row of the table row_buckets, instead of
// one go-immutable-radix entry per row.
//
// Every row of a memdb table is an entry of its id index: about 450
// bytes of live heap (a node, a leaf and the two channels the radix tree
// allocates for change tracking), and every write of a row copies the
// path to it through a tree of as many keys as the table has rows, plus
// an entry of the radix transaction's cache per node copied: about 9 KB
// for a request row in a world of 100,000 requests. The tables that grow
// with every request (its row, and an access row per account that lists
// it) keep their rows instead in 4,096 buckets, a row's bucket chosen by
// a stable hash (FNV-1a) of its id. A bucket holds its rows sorted by id,
// so a lookup is one bucket read and a binary search, and a write copies
// one bucket (a slice of row pointers, a few dozen at 100,000 requests)
// and, once before the commit, stores it: a path of three small arrays
// in the table's tree of buckets, the table's one row of row_buckets
// (bucket_rows_tree.go).
//
// Nothing outside the package sees the difference as long as it reads
// through the package (a read straight from go-memdb's transaction fails
// for a bucketed table, see below). Get, First, All and
// Put, Txn's Insert, Delete, DeleteAll and DeletePrefix, Txn.Get and
// Txn.LowerBound (walks of the rows by id, bucket_rows_merge.go) know
// where the rows are; compact indexes
// over the tables work as before. A write keeps its own copies of the
// buckets it changed (bucketWrite) and stores them once, before it
// commits (flushBuckets), so its reads see its own changes without
// memdb cloning an index. The tables stay what they were everywhere a
// world leaves the process: an export writes their rows in id order, a
// commit observer (the journal) is handed one change per row as memdb
// tracked them, in the order memdb would have (bucket_rows_observe.go),
// the row counts count rows, and import and journal replay take the rows
// as they always did. The tables are not in memdb's schema, so that a
// read of them that would bypass the buckets fails at once; row_buckets
// is neither exported nor journaled, and nothing rebuilds it: it is the
// rows.

import (
	"fmt"
	"strings"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/rowcodec"
)

// tableRowBuckets holds the buckets of every bucketed table.
const tableRowBuckets = "row_buckets"

// rowBucket is one bucket of a bucketed table: its rows sorted by id.
type rowBucket struct {
	Rows []any
}

// bucketTable describes a bucketed table.
type bucketTable struct {
	table string
	// tag is the id of the table's row of row_buckets.
	tag string
	// id reads a row's id, ok false for anything but a row of the table.
	id func(row any) (string, bool)
	// compare compares a row's id with id, hash hashes it: both without
	// making the id (an access row's is computed).
	compare func(row any, id string) int
	hash    func(row any) uint32
	// prefixes: the table's id index took lookups by prefix (id_prefix);
	// a bucketed table answers those its memdb index answered.
	prefixes bool
	// codec encodes the rows of a table that freezes them
	// (bucket_rows_frozen.go); nil: its rows stay live.
	codec *rowcodec.Codec
}

// bucketOf answers the number of the bucket of the row of id.
func (bt *bucketTable) bucketOf(id string) uint64 { return bt.slot(fnv1a(id)) }

func (bt *bucketTable) slot(h uint32) uint64 { return uint64(h) & (1<<bucketBits - 1) }

// search finds id in rows sorted by id: its position, or where it would
// go.
func (bt *bucketTable) search(rows []any, id string) (int, bool) {
	lo, hi := 0, len(rows)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bt.compare(rows[m], id) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(rows) && bt.compare(rows[lo], id) == 0
}

// rowID reads the id of a row to be stored, refusing one memdb would
// have refused.
func (bt *bucketTable) rowID(row any) (string, error) {
	id, ok := bt.id(row)
	if !ok {
		return "", fmt.Errorf("state: %s: a %T is not a row of the table", bt.table, row)
	}
	if id == "" {
		return "", fmt.Errorf("object missing primary index") // memdb's words
	}
	return id, nil
}

// bucketedTables maps a bucketed table's name to its description; it is
// filled by the registrations (tables.go) and only read afterwards.
var bucketedTables = map[string]*bucketTable{}

// bucketed answers the description of a bucketed table (nil: a memdb
// table).
func bucketed(table string) *bucketTable { return bucketedTables[table] }

// registerBucketed makes a registered table bucketed (from a
// registration in tables.go, after Register).
func registerBucketed(bt *bucketTable) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, o := range bucketedTables {
		if o.tag == bt.tag {
			panic("state: bucket tag used twice: " + bt.tag)
		}
	}
	d, ok := registry[bt.table]
	if !ok {
		panic("state: bucketed table not registered: " + bt.table)
	}
	d.Bucketed = true
	registry[bt.table] = d
	_, bt.prefixes = d.Schema.Indexes[IndexID].Indexer.(memdb.PrefixIndexer)
	bucketedTables[bt.table] = bt
}

// fieldBuckets describes a table whose rows are *T with an id field that
// get reads.
func fieldBuckets[T any](table, tag string, get func(*T) string) *bucketTable {
	return &bucketTable{table: table, tag: tag,
		id: func(row any) (string, bool) {
			switch r := row.(type) {
			case *T:
				if r != nil {
					return get(r), true
				}
			case frozenRow:
				return r.id(), true
			}
			return "", false
		},
		compare: func(row any, id string) int { return strings.Compare(storedID(row, get), id) },
		hash:    func(row any) uint32 { return fnv1a(storedID(row, get)) },
	}
}

// storedID reads the id of a row as a bucket holds it, live or frozen.
func storedID[T any](row any, get func(*T) string) string {
	if f, ok := row.(frozenRow); ok {
		return f.id()
	}
	return get(row.(*T))
}

// registerRowBuckets adds the internal table the bucketed tables keep their rows in.
func registerRowBuckets() {
	registerInternal[bucketTree](&memdb.TableSchema{
		Name: tableRowBuckets,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("Tag", func(t *bucketTree) string { return t.Tag })},
		},
	})
}
