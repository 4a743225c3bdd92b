package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Delivery tables and indexes.
const (
	// TableDeliveries holds one row per (event, callback target).
	TableDeliveries = "deliveries"
	// IndexDue orders deliveries by (Due, Seq); rows that wait for nothing
	// have Due 0, so the due work starts at LowerBound(1, 0).
	IndexDeliveryDue = "due"
	// IndexDeliveryEvent lists the deliveries of one event in target order.
	IndexDeliveryEvent = "event"
	// IndexDeliveryOpen lists the unfinished deliveries of one queue in queue
	// order (see Delivery.OpenKey).
	IndexDeliveryOpen = "open"
)

// EventState is an event's state across its deliveries, as the control
// plane and the console show it: pending while any delivery is, failed
// when any gave up, delivered when all were, EventNoTarget without any.
func EventState(ds []*model.Delivery) string {
	if len(ds) == 0 {
		return model.EventNoTarget
	}
	st := model.DeliveryDelivered
	for _, d := range ds {
		switch d.State {
		case model.DeliveryPending:
			st = model.DeliveryPending
		case model.DeliveryFailed:
			if st != model.DeliveryPending {
				st = model.DeliveryFailed
			}
		}
	}
	return st
}

// openKeyIndex indexes Delivery.OpenKey (rows without a key are left out).
type openKeyIndex struct{ memdb.StringFieldIndex }

func (*openKeyIndex) FromObject(obj any) (bool, []byte, error) {
	k := obj.(*model.Delivery).OpenKey()
	if k == "" {
		return false, nil, nil
	}
	return true, append([]byte(k), 0), nil
}

// registerDeliveries adds the callback deliveries.
func registerDeliveries() {
	Register[model.Delivery](&memdb.TableSchema{
		Name: TableDeliveries,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexDeliveryDue: {Name: IndexDeliveryDue, Unique: true, Indexer: &memdb.CompoundIndex{Indexes: []memdb.Indexer{
				&IntKey{Field: "Due"},
				&UintKey{Field: "Seq"},
			}}},
			IndexDeliveryEvent: {Name: IndexDeliveryEvent, Indexer: &memdb.CompoundIndex{Indexes: []memdb.Indexer{
				&memdb.StringFieldIndex{Field: "EventID"},
				&IntKey{Field: "Index"},
			}}},
			IndexDeliveryOpen: {Name: IndexDeliveryOpen, AllowMissing: true, Unique: true, Indexer: &openKeyIndex{}},
		},
	})
}

// countDeliveryStates keeps the count of deliveries per state as they are Put.
// Usage counts the attempts of the deliveries by result as well.
func countDeliveryStates() {
	addPutCounter(TableDeliveries, countDelivery)
	setOptions(TableDeliveries, func(o *tableOptions) { o.countFields = (*AttemptCounts).count })
}

// countDelivery moves a delivery's count from its stored state to its new
// one as it is Put.
func countDelivery(tx *Txn, row any) error {
	d := row.(*model.Delivery)
	old, err := Get[model.Delivery](tx, TableDeliveries, d.ID)
	if err == nil && old.State == d.State {
		return nil
	}
	u := tx.pendingUsage()
	if u == nil {
		u = getUsage(tx)
	}
	if err == nil {
		u.Deliveries.add(old.State, -1)
	}
	u.Deliveries.add(d.State, 1)
	if tx.deferUsage {
		return nil // changed in place
	}
	return setUsage(tx, u)
}

// CountDeliveries returns how many deliveries the world holds in each state,
// from counters kept as they change (no walk of the table).
func CountDeliveries(tx *Txn) DeliveryCounts { return getUsage(tx).Deliveries }

// AnyDeliveries reports whether the world holds a delivery at all (true
// when it cannot tell), so that a page of the callback log of a world
// without callback URLs skips a lookup per event.
func AnyDeliveries(tx *Txn) bool {
	raw, err := tx.mem.First(TableDeliveries, IndexID)
	return err != nil || raw != nil
}

// DeliveriesOf lists an event's deliveries in target order.
func DeliveriesOf(tx *Txn, eventID string) ([]*model.Delivery, error) {
	return All[model.Delivery](tx, TableDeliveries, IndexDeliveryEvent+"_prefix", eventID)
}

// QueueHead returns the oldest unfinished delivery of a queue, or nil.
func QueueHead(tx *Txn, queue string) *model.Delivery {
	raw, _ := tx.mem.First(TableDeliveries, IndexDeliveryOpen+"_prefix", model.QueuePrefix(queue))
	if raw == nil {
		return nil
	}
	return raw.(*model.Delivery)
}

// NextDue returns the pending delivery with the earliest Due time at or
// after from (Unix nanoseconds, at least 1), or nil.
func NextDue(tx *Txn, from int64) *model.Delivery {
	if from < 1 {
		from = 1
	}
	it, err := tx.mem.LowerBound(TableDeliveries, IndexDeliveryDue, from, uint64(0))
	if err != nil {
		return nil
	}
	if raw := it.Next(); raw != nil {
		return raw.(*model.Delivery)
	}
	return nil
}

// DueDeliveries lists the deliveries due at or before until (Unix
// nanoseconds) in (Due, Seq) order.
func DueDeliveries(tx *Txn, until int64) []*model.Delivery {
	it, err := tx.mem.LowerBound(TableDeliveries, IndexDeliveryDue, int64(1), uint64(0))
	if err != nil {
		return nil
	}
	var out []*model.Delivery
	for raw := it.Next(); raw != nil; raw = it.Next() {
		d := raw.(*model.Delivery)
		if d.Due > until {
			break
		}
		out = append(out, d)
	}
	return out
}
