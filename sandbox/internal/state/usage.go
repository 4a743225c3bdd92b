package state

import (
	"errors"
	"fmt"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// tableUsage holds the world's single Usage row.
const (
	tableUsage = "usage"
	usageRowID = "usage"
)

// Usage is the world's accounting: what it stores, counted as it changes
// (in the same transaction as the change) instead of by walking tables on
// every write. It is derived: import and reset rebuild it from the rows.
type Usage struct {
	ID string
	// BlobBytes and Blobs count the blob rows and their sizes, each stored
	// file once per blob (what Config.MaxWorldBytes bounds).
	BlobBytes int64
	Blobs     int64
	// ContentBytes and Contents count the distinct contents: the memory the
	// files really take.
	ContentBytes int64
	Contents     int64
	// Events and Emails count the rows of the callback log and the outbox;
	// EventsTrimAt and EmailsTrimAt hold back the next trim after one that
	// could not reach the limit (see trimLog).
	Events       int64
	Emails       int64
	EventsTrimAt int64
	EmailsTrimAt int64
	// Deliveries counts the callback deliveries by state (pending,
	// delivered, failed), for the wait answers.
	Deliveries DeliveryCounts
	// Rows counts the rows of every table that holds any, derived tables
	// left out; Attempts counts the attempts in the callback log by
	// result. Both are kept as each write inserts and deletes rows
	// (row_counts.go), so that a metrics scrape reads them instead of
	// walking the world. The map is never changed in place: a write that
	// moves a count stores a new one.
	Rows     map[string]int64
	Attempts AttemptCounts
}

// AttemptCounts counts callback attempts by result: delivered, failed (an
// answer that does not count) and error (no answer, or a scenario rule).
type AttemptCounts struct {
	Delivered, Failed, Error int64
}

// count adds (n = 1) or takes away (n = -1) the attempts of a delivery row.
func (c *AttemptCounts) count(row any, n int64) {
	d, ok := row.(*model.Delivery)
	if !ok {
		return
	}
	for _, a := range d.Attempts {
		switch {
		case a.Delivered:
			c.Delivered += n
		case a.Status == 0:
			c.Error += n
		default:
			c.Failed += n
		}
	}
}

// DeliveryCounts counts deliveries by state.
type DeliveryCounts struct {
	Pending, Delivered, Failed int64
}

// add counts one delivery in state st (n = 1) or uncounts it (n = -1).
func (c *DeliveryCounts) add(st string, n int64) {
	switch st {
	case model.DeliveryPending:
		c.Pending += n
	case model.DeliveryDelivered:
		c.Delivered += n
	case model.DeliveryFailed:
		c.Failed += n
	}
}

// registerUsage adds the derived usage counters.
func registerUsage() {
	RegisterDerived[Usage](&memdb.TableSchema{
		Name: tableUsage,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
}

// getUsage answers a copy of the usage row (zero in a new world), as
// this transaction has changed it; its Rows and Attempts leave out the
// row counts the transaction moved, which flushUsage adds (WorldUsage
// shows them).
func getUsage(tx *Txn) *Usage {
	if tx.usage != nil {
		u := *tx.usage
		return &u
	}
	return readUsage(tx.mem)
}

// setUsage stores the usage row of a transaction: under Store.Update
// (deferUsage) it is kept in the transaction and written once before the
// commit (flushUsage), otherwise at once.
func setUsage(tx *Txn, u *Usage) error {
	if !tx.deferUsage {
		return putUsage(tx.mem, u)
	}
	c := *u
	tx.usage = &c
	return nil
}

// pendingUsage answers the usage row a deferred write (Store.Update)
// keeps, to change in place: the counters of every e-mail and event
// added would otherwise copy the row twice. It is nil when the
// transaction writes the row at once; use getUsage and setUsage then.
func (t *Txn) pendingUsage() *Usage {
	if !t.deferUsage {
		return nil
	}
	if t.usage == nil {
		t.usage = readUsage(t.mem) // a copy: the stored row is never changed
	}
	return t.usage
}

// flushUsage writes the usage row of a write that changed it, with the
// row counts the write moved, once, before it commits; later changes of
// the same transaction (none are expected) are written at once again.
func (t *Txn) flushUsage() error {
	if !t.deferUsage {
		return nil
	}
	t.deferUsage = false
	u := t.usage
	t.usage = nil
	if t.eng.rows != nil && t.eng.rows.counts.moved() {
		if u == nil {
			u = readUsage(t.mem)
		}
		t.eng.rows.counts.applyTo(u)
		t.eng.rows.counts = rowCounts{}
	}
	if u == nil {
		return nil
	}
	return putUsage(t.mem, u)
}

func readUsage(tx *memdb.Txn) *Usage {
	raw, _ := tx.First(tableUsage, IndexID, usageRowID)
	if raw == nil {
		return &Usage{ID: usageRowID}
	}
	u := *raw.(*Usage)
	return &u
}

func putUsage(tx *memdb.Txn, u *Usage) error {
	u.ID = usageRowID
	if err := tx.Insert(tableUsage, u); err != nil {
		return fmt.Errorf("state: insert %s: %w", tableUsage, err)
	}
	return nil
}

// WorldUsage returns the world's accounting, with the rows a write has
// counted so far (one whose changes are tracked counts them as it
// commits).
func WorldUsage(tx *Txn) Usage {
	u := getUsage(tx)
	if tx.eng.rows != nil && tx.eng.rows.counts.moved() {
		tx.eng.rows.counts.applyTo(u)
	}
	return *u
}

// rebuildDerived computes the derived tables of an imported database from
// its rows.
func rebuildDerived(tx *memdb.Txn) error {
	u := &Usage{ID: usageRowID}
	if err := rebuildBlobContents(tx, u); err != nil {
		return fmt.Errorf("state: rebuild %s: %w", tableBlobContents, err)
	}
	if err := rebuildBlobHolders(tx); err != nil {
		return fmt.Errorf("state: rebuild blob holders: %w", err)
	}
	if err := rebuildCompact(tx); err != nil {
		return err
	}
	if err := countRows(tx, u); err != nil {
		return err
	}
	return putUsage(tx, u)
}

// RecountUsage computes the accounting from the rows, as import does, for
// tests that check the counters never drift from the truth.
//
// It reads what tx's database holds, so it refuses a write, whose own
// bucket copies (bucket_rows.go) it would not see.
func RecountUsage(tx *Txn) (Usage, error) {
	var u Usage
	if tx.eng.rows != nil || tx.eng.tracked != nil {
		return u, errors.New("state: RecountUsage counts a read, not a write")
	}
	it, err := tx.mem.Get(TableBlobs, IndexID)
	if err != nil {
		return u, err
	}
	seen := map[string]bool{}
	for raw := it.Next(); raw != nil; raw = it.Next() {
		b := raw.(*Blob)
		u.BlobBytes += int64(len(b.Data))
		u.Blobs++
		if h := contentHash(b.Data); !seen[h] {
			seen[h] = true
			u.ContentBytes += int64(len(b.Data))
			u.Contents++
		}
	}
	return u, countRows(tx.mem, &u)
}

// countRows counts the rows of every table, the log entries, the
// deliveries by state and their attempts by result.
func countRows(tx *memdb.Txn, u *Usage) error {
	u.Rows = map[string]int64{}
	for _, name := range TableNames() {
		o := optionsOf(name)
		if bt := bucketed(name); bt != nil && o.carries == nil {
			// Counted in their buckets, not thawed, unless a row
			// carries rows of another table (a request its file set).
			if n := bucketRowCount(tx, nil, bt); n > 0 {
				u.Rows[name] = int64(n)
			}
			continue
		}
		it, err := getRows(tx, name, IndexID)
		if err != nil {
			return fmt.Errorf("state: count %s: %w", name, err)
		}
		for raw := it.Next(); raw != nil; raw = it.Next() {
			u.Rows[name]++
			if o.countFields != nil {
				o.countFields(&u.Attempts, raw, 1)
			}
			if o.carries != nil {
				if n := o.carries(raw); n != 0 {
					u.Rows[o.carriedTable] += n
				}
			}
		}
	}
	u.Events, u.Emails = u.Rows[TableEvents], u.Rows[TableEmails]
	it, err := tx.Get(TableDeliveries, IndexID)
	if err != nil {
		return fmt.Errorf("state: count %s: %w", TableDeliveries, err)
	}
	for raw := it.Next(); raw != nil; raw = it.Next() {
		u.Deliveries.add(raw.(*model.Delivery).State, 1)
	}
	return nil
}

// IsDerived reports whether a table is computed from the others (file
// contents, usage counters): a journal leaves its rows out, and
// RebuildDerived makes them again.
func IsDerived(table string) bool {
	registryMu.Lock()
	defer registryMu.Unlock()
	return registry[table].Derived
}

// RebuildDerived recomputes every derived table of db from the world's
// rows, as import does: for a database changed row by row outside the
// store (a journal replayed onto a snapshot).
func RebuildDerived(db *memdb.MemDB) error {
	tx := db.Txn(true)
	defer tx.Abort()
	registryMu.Lock()
	var derived []string
	for n, d := range registry {
		if d.Derived {
			derived = append(derived, n)
		}
	}
	registryMu.Unlock()
	for _, n := range derived {
		if _, err := tx.DeleteAll(n, IndexID); err != nil {
			return fmt.Errorf("state: clear %s: %w", n, err)
		}
	}
	if err := rebuildDerived(tx); err != nil {
		return err
	}
	tx.Commit()
	return nil
}
