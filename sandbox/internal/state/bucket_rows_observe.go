package state

// The changes of bucketed rows (bucket_rows.go) as a commit observer sees
// them: one change per row, where memdb's change tracking would have put
// it.
//
// memdb tracks the changes of a write per row key, each at the place of
// the key's last change, with the row as it was before the write's first
// change and after its last; the observer (the journal) writes them in
// that order, and a journal replay applies them in it. A bucketed row's
// change is a change of its bucket, stored once before the commit, so
// memdb cannot tell its place among the write's other changes. A write
// whose changes are tracked therefore records, for each bucketed row it
// changes, the row before its first change and after its last
// (trackedRows), and inserts a mark for the row into the internal table
// row_marks at each change: memdb places the mark as it would have placed
// the row. The write's changes as the observer sees them are memdb's with
// each mark replaced by its row's change and the changes of the internal
// tables left out (bucketedChanges); the marks are deleted before the
// commit. Only observed writes (a world kept in a data directory) pay
// for the marks: an insert into a table that holds the write's marks
// alone.

import (
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// tableRowMarks holds the marks of an observed write's bucketed rows
// while it runs; it is empty between writes.
const tableRowMarks = "row_marks"

// rowMark marks the place of a bucketed row's change among a write's
// changes. Key is the table, a NUL and the id.
type rowMark struct {
	Key   string
	Table string
	ID    string
}

// trackedRows is what an observed write did to bucketed rows: each row
// before its first change and after its last.
type trackedRows struct {
	rows map[rowKey]*trackedRow
	// marks lists the marks in the order they were first made, for their
	// deletion.
	marks []*rowMark
}

type trackedRow struct {
	before, after any
	mark          *rowMark
}

// trackBucketed records a change of a bucketed row in a tracked write,
// and marks its place (nothing in a write whose changes are not
// tracked).
func (t *Txn) trackBucketed(table, id string, before, after any) error {
	tr := t.eng.tracked
	if tr == nil {
		return nil
	}
	key := rowKey{table, id}
	r := tr.rows[key]
	if r == nil {
		if tr.rows == nil {
			tr.rows = map[rowKey]*trackedRow{}
		}
		r = &trackedRow{before: before, mark: &rowMark{Key: table + "\x00" + id, Table: table, ID: id}}
		tr.rows[key] = r
		tr.marks = append(tr.marks, r.mark)
	}
	r.after = after
	if err := t.mem.Insert(tableRowMarks, r.mark); err != nil {
		return fmt.Errorf("state: insert %s: %w", tableRowMarks, err)
	}
	return nil
}

// bucketedChanges answers a tracked write's changes as memdb would have
// tracked them had the bucketed tables been its own (see above), and
// deletes the write's marks.
func (t *Txn) bucketedChanges(changes memdb.Changes) (memdb.Changes, error) {
	tr := t.eng.tracked
	if tr == nil || len(tr.rows) == 0 {
		// No bucketed row changed; a write of the internal tables
		// themselves is still no row of the world's.
		return slices.DeleteFunc(changes, func(ch memdb.Change) bool {
			return ch.Table == tableRowBuckets || ch.Table == tableRowMarks
		}), nil
	}
	out := make(memdb.Changes, 0, len(changes))
	for _, ch := range changes {
		switch ch.Table {
		case tableRowBuckets:
		case tableRowMarks:
			m, _ := ch.After.(*rowMark)
			if m == nil {
				continue
			}
			r := tr.rows[rowKey{m.Table, m.ID}]
			if r.before == nil && r.after == nil {
				continue // made and removed in the same write
			}
			out = append(out, memdb.Change{Table: m.Table, Before: r.before, After: r.after})
		default:
			out = append(out, ch)
		}
	}
	for _, m := range tr.marks {
		if err := t.mem.Delete(tableRowMarks, m); err != nil {
			return nil, fmt.Errorf("state: delete %s: %w", tableRowMarks, err)
		}
	}
	t.eng.tracked = nil
	return out, nil
}

// registerRowMarks adds the internal table of row marks.
func registerRowMarks() {
	registerInternal[rowMark](&memdb.TableSchema{
		Name: tableRowMarks,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("Key", func(m *rowMark) string { return m.Key })},
		},
	})
}
