// Package state holds a world's data: the go-memdb schema, the stored object
// types, the transaction wrapper every write goes through, and the export and
// import of a whole world as JSON.
//
// Each table is registered by a function in the file that defines its row
// type (Register), so a resource keeps its schema, its type and its accessors
// together; tables.go lists those functions in the one order they run in, and
// the schema is still one value built once.
package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"sync"

	memdb "github.com/hashicorp/go-memdb"
)

// IndexID is the primary index every table has (go-memdb requires "id").
const IndexID = "id"

// TableDef describes one table: its memdb schema and the Go type of its rows,
// which export and import need to round-trip rows through JSON.
type TableDef struct {
	Schema *memdb.TableSchema
	// Type is the row type (a struct, stored as a pointer).
	Type reflect.Type
	// Derived tables (accounting, the content-addressed file store) are
	// computed from the others: export leaves them out, import refuses them
	// as unknown and rebuilds them (rebuildDerived).
	Derived bool
	// Bucketed tables keep their rows in the buckets of row_buckets
	// (bucket_rows.go), not in a memdb table of their own: the schema
	// memdb is given leaves them out.
	Bucketed bool
	// Internal tables are how the state layer stores other tables' rows
	// (row_buckets): not exported, not journaled, and not rebuilt, as
	// they are those rows.
	Internal bool
	// opts is what the generic code does for the table beyond storing its
	// rows (table_options.go).
	opts tableOptions
}

var (
	registryMu sync.Mutex
	registry   = map[string]TableDef{}
)

// Register adds a table whose rows are *T. It panics on a duplicate name or a
// schema without an "id" index: both are programming errors found at start-up.
func Register[T any](schema *memdb.TableSchema) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[schema.Name]; dup {
		panic("state: table registered twice: " + schema.Name)
	}
	if _, ok := schema.Indexes[IndexID]; !ok {
		panic("state: table without id index: " + schema.Name)
	}
	var zero T
	registry[schema.Name] = TableDef{Schema: schema, Type: reflect.TypeOf(zero)}
}

// RegisterDerived adds a table whose rows are computed from the other
// tables' and kept in step with them in the same transactions; it is not
// exported, and import rebuilds it.
func RegisterDerived[T any](schema *memdb.TableSchema) {
	Register[T](schema)
	markTable(schema.Name, func(d *TableDef) { d.Derived = true })
}

// registerInternal adds an internal table (TableDef.Internal).
func registerInternal[T any](schema *memdb.TableSchema) {
	Register[T](schema)
	markTable(schema.Name, func(d *TableDef) { d.Internal = true })
}

// markTable changes a registered table's definition.
func markTable(name string, mark func(*TableDef)) {
	registryMu.Lock()
	defer registryMu.Unlock()
	d := registry[name]
	mark(&d)
	registry[name] = d
}

// TableNames lists the registered tables in sorted order, the order export
// writes them in. Derived and internal tables are left out: they are not
// a world's data but what is computed from it or how it is stored.
func TableNames() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	names := make([]string, 0, len(registry))
	for n, d := range registry {
		if !d.Derived && !d.Internal {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// tableDef finds an exported table (a derived or internal one is unknown
// to import).
func tableDef(name string) (TableDef, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	d, ok := registry[name]
	return d, ok && !d.Derived && !d.Internal
}

// Schema builds the database schema from every registered table but the
// bucketed ones, whose rows live in the buckets of row_buckets.
func Schema() *memdb.DBSchema {
	if !registered { // read here so the dependency on tables.go is stated
		panic("state: schema asked for before the tables were registered")
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	s := &memdb.DBSchema{Tables: map[string]*memdb.TableSchema{}}
	for n, d := range registry {
		if !d.Bucketed {
			s.Tables[n] = d.Schema
		}
	}
	return s
}

// NewDB creates an empty database with the registered schema. It answers a
// snapshot of the new database, which memdb does not track mutations for:
// nothing in the sandbox watches memdb's change channels, so a primary
// database would only collect and close every copied radix node's channel
// on each commit (32 allocations and 3.5 KB per send) for no reader.
func NewDB() (*memdb.MemDB, error) {
	db, err := memdb.NewMemDB(Schema())
	if err != nil {
		return nil, fmt.Errorf("state: schema: %w", err)
	}
	return db.Snapshot(), nil
}

// decodeRow turns the JSON of one exported row back into a *T of the table.
// importChecker is a row type with a rule of its own that decoding alone
// does not enforce.
type importChecker interface{ CheckImported() error }

func decodeRow(def TableDef, raw json.RawMessage) (any, error) {
	ptr := reflect.New(def.Type)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber() // metadata holds arbitrary JSON numbers; keep them exact
	if err := dec.Decode(ptr.Interface()); err != nil {
		return nil, err
	}
	if c, ok := ptr.Interface().(importChecker); ok {
		if err := c.CheckImported(); err != nil {
			return nil, err
		}
	}
	return ptr.Interface(), nil
}

// DecodeRow decodes one exported row of a table into its registered type
// (a pointer), as Import does: unknown fields refused, numbers exact.
func DecodeRow(table string, raw []byte) (any, error) {
	def, ok := tableDef(table)
	if !ok {
		return nil, fmt.Errorf("unknown table %q", table)
	}
	return decodeRow(def, raw)
}

// Rows lists every row of a table in id order, as stored (rows are shared:
// never modify them).
func Rows(tx *Txn, table string) ([]any, error) {
	it, err := tx.Get(table, IndexID)
	if err != nil {
		return nil, fmt.Errorf("state: rows of %s: %w", table, err)
	}
	var out []any
	for r := it.Next(); r != nil; r = it.Next() {
		out = append(out, r)
	}
	return out, nil
}
