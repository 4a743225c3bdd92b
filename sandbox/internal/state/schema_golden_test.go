package state

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestSchemaGolden pins the database schema: every table, index and what it
// indexes. A change here changes what exported worlds look like and which
// lookups stay cheap, so it must show up in review (go test -update to
// accept it).
func TestSchemaGolden(t *testing.T) {
	got := describeSchema(Schema())
	path := filepath.Join("testdata", "schema.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), got, "the schema changed; review and run go test ./sandbox/internal/state -update")
}

func describeSchema(s *memdb.DBSchema) string {
	var b strings.Builder
	tables := make([]string, 0, len(s.Tables))
	for n := range s.Tables {
		tables = append(tables, n)
	}
	// Bucketed tables (bucket_rows.go) are not memdb's, but they are
	// tables of the world all the same.
	for n := range bucketedTables {
		tables = append(tables, n)
	}
	sort.Strings(tables)
	for _, tn := range tables {
		ts := s.Tables[tn]
		switch bt := bucketedTables[tn]; {
		case bt != nil:
			ts = registry[tn].Schema
			fmt.Fprintf(&b, "%s (bucketed: rows in %d buckets, row %q of row_buckets)\n", tn, 1<<bucketBits, bt.tag)
		case registry[tn].Derived:
			fmt.Fprintf(&b, "%s (derived: not exported, rebuilt on import)\n", tn)
		case registry[tn].Internal:
			fmt.Fprintf(&b, "%s (internal: not exported, kept by the state layer)\n", tn)
		default:
			fmt.Fprintf(&b, "%s\n", tn)
		}
		idx := make([]string, 0, len(ts.Indexes))
		for n := range ts.Indexes {
			idx = append(idx, n)
		}
		sort.Strings(idx)
		for _, in := range idx {
			is := ts.Indexes[in]
			var flags []string
			if is.Unique {
				flags = append(flags, "unique")
			}
			if is.AllowMissing {
				flags = append(flags, "allow-missing")
			}
			fmt.Fprintf(&b, "  %s %s %s\n", in, strings.Join(flags, ","), describeIndexer(is.Indexer))
		}
		// Compact indexes (compact_index.go) are lookups of the table
		// too, kept in the buckets of compact_buckets.
		compact := slices.Clone(compactByTable[tn])
		slices.SortFunc(compact, func(a, b *compactIndex) int { return strings.Compare(a.name, b.name) })
		for _, ix := range compact {
			kind := fmt.Sprintf("grouped, %d buckets", 1<<ix.bits)
			if ix.chunk > 0 {
				kind = fmt.Sprintf("grouped, %d slots of buckets of %d numbers", 1<<ix.bits, 1<<ix.chunk)
			}
			if ix.ordered {
				kind = fmt.Sprintf("ordered, %d numbers a bucket", 1<<ix.shift)
			}
			unique := ""
			if ix.unique {
				unique = "unique"
			}
			fmt.Fprintf(&b, "  %s %s compact(%s, bucket tag %q)\n", ix.name, unique, kind, ix.tag)
		}
	}
	return b.String()
}

// describeIndexer renders an indexer without pointer addresses.
func describeIndexer(ix memdb.Indexer) string {
	switch v := ix.(type) {
	case *memdb.CompoundIndex:
		parts := make([]string, len(v.Indexes))
		for i, p := range v.Indexes {
			parts[i] = describeIndexer(p)
		}
		return fmt.Sprintf("compound(%s)", strings.Join(parts, ", "))
	case *memdb.CompoundMultiIndex:
		parts := make([]string, len(v.Indexes))
		for i, p := range v.Indexes {
			parts[i] = describeIndexer(p)
		}
		return fmt.Sprintf("compound-multi(%s)", strings.Join(parts, ", "))
	}
	if f, ok := ix.(interface {
		stringFieldIndex() *memdb.StringFieldIndex
	}); ok {
		// Its keys and lookups are the StringFieldIndex's it embeds.
		return describeIndexer(f.stringFieldIndex())
	}
	rv := reflect.Indirect(reflect.ValueOf(ix))
	return fmt.Sprintf("%s%+v", rv.Type().Name(), rv.Interface())
}
