package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Event tables and indexes.
const (
	TableEvents = "events"
	// IndexSeq orders events as they were emitted.
	IndexSeq = "seq"
	// IndexObject finds the events of one object, in order.
	IndexObject = "object"
)

// registerEvents adds the event log, bucketed, with its compact indexes.
func registerEvents() {
	Register[model.Event](&memdb.TableSchema{
		Name: TableEvents,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("ID", func(e *model.Event) string { return e.ID })},
		},
	})
	// Events are bucketed and frozen as the e-mails are (emails.go).
	registerBucketed(freezable[model.Event](fieldBuckets(TableEvents, "event", func(e *model.Event) string { return e.ID })))
	registerCompact(logSeqIndex(TableEvents, "event.seq/", func(row any) uint64 { return row.(*model.Event).Seq }))
	// The events of one object, in order, are a compact index: a memdb
	// entry per event cost 450 bytes.
	registerCompact(&compactIndex{table: TableEvents, name: IndexObject, tag: "event.object/",
		bits: logBucketBits, churns: true, keys: func(row any, dst []compactKey) []compactKey {
			if e := row.(*model.Event); e.ObjectID != "" {
				dst = append(dst, compactKey{e.ObjectID, e.Seq})
			}
			return dst
		}})
}
