package state

import (
	"encoding/json"

	memdb "github.com/hashicorp/go-memdb"
)

// Event tables and indexes.
const (
	TableEvents = "events"
	// IndexSeq orders events as they were emitted.
	IndexSeq = "seq"
	// IndexObject finds the events of one object, in order.
	IndexObject = "object"
)

// Event is one event a committed change caused, with the object as a GET
// showed it at that moment (to the first involved account). Its deliveries
// to callback URLs, one per target with the exact payload sent, are rows of
// the deliveries table (deliveries.go).
type Event struct {
	ID   string `json:"id"`
	Seq  uint64 `json:"seq"`
	Type string `json:"event_type"`
	// Time is the world time in Unix seconds (event_time on the wire is its
	// decimal string).
	Time int64 `json:"event_time"`
	// ObjectType is signature_request, template, account or "" (callback_test).
	ObjectType string `json:"object_type,omitempty"`
	ObjectID   string `json:"object_id,omitempty"`
	// AccountIDs are the accounts involved (their account callbacks get it).
	AccountIDs []string `json:"account_ids,omitempty"`
	// ClientID is the API app the object was made with (its app callback
	// gets it).
	ClientID           string `json:"client_id,omitempty"`
	RelatedSignatureID string `json:"related_signature_id,omitempty"`
	EventMessage       string `json:"event_message,omitempty"`
	// Object is the attached object's JSON as GET showed it when the event
	// was emitted.
	Object json.RawMessage `json:"object,omitempty"`
}

// registerEvents adds the event log, bucketed, with its compact indexes.
func registerEvents() {
	Register[Event](&memdb.TableSchema{
		Name: TableEvents,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("ID", func(e *Event) string { return e.ID })},
		},
	})
	// Events are bucketed and frozen as the e-mails are (emails.go).
	registerBucketed(freezable[Event](fieldBuckets(TableEvents, "event", func(e *Event) string { return e.ID })))
	registerCompact(logSeqIndex(TableEvents, "event.seq/", func(row any) uint64 { return row.(*Event).Seq }))
	// The events of one object, in order, are a compact index: a memdb
	// entry per event cost 450 bytes.
	registerCompact(&compactIndex{table: TableEvents, name: IndexObject, tag: "event.object/",
		bits: logBucketBits, churns: true, keys: func(row any, dst []compactKey) []compactKey {
			if e := row.(*Event); e.ObjectID != "" {
				dst = append(dst, compactKey{e.ObjectID, e.Seq})
			}
			return dst
		}})
}
