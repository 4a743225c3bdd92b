package callbacks

// State changes of deliveries: an attempt's result, the hand-over to the
// next delivery of a queue, and redelivery. These run in write transactions
// and never take IDs from the world's sequence when they run asynchronously
// (recordAttempt), so delivery timing cannot shift the IDs of API objects.

import (
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/events"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// recordAttempt logs the attempt made of claimed and moves the delivery on:
// delivered, due again per the retry schedule, or given up (gaveUp). When
// the row was redelivered while the attempt was in flight, only the log
// entry is added; when it is gone or otherwise changed (reset, import),
// nothing is.
func recordAttempt(tx *state.Txn, claimed *model.Delivery, res attemptResult) (gaveUp bool, err error) {
	cur, err := state.Get[model.Delivery](tx, state.TableDeliveries, claimed.ID)
	if err != nil {
		return false, nil // the world was reset or the row imported away
	}
	same := sameAttempt(cur, claimed)
	if !same && cur.Round <= claimed.Round {
		return false, nil // not this delivery's attempt any more (reset, import)
	}
	c := state.Clone(cur)
	c.Attempts = append(slices.Clone(cur.Attempts), model.DeliveryAttempt{
		At: claimed.Due / 1e9, Round: claimed.Round, Status: res.status, Body: res.body, Error: res.err, Delivered: res.delivered,
		DurationMS: res.duration.Milliseconds(),
	})
	if !same {
		return false, state.Put(tx, state.TableDeliveries, c) // redelivered meanwhile: log only
	}
	c.RoundAttempts++
	switch off, more := events.Offset(c.RoundAttempts); {
	case res.delivered:
		c.State, c.Due = model.DeliveryDelivered, 0
	case more:
		c.Due = c.Base + off.Nanoseconds()
	default:
		c.State, c.Due, gaveUp = model.DeliveryFailed, 0, true
	}
	if err := state.Put(tx, state.TableDeliveries, c); err != nil {
		return false, err
	}
	if !c.Open() {
		if err := startQueueHead(tx, c.Queue, claimed.Due); err != nil {
			return false, err
		}
	}
	tx.Notify(state.TopicEvents)
	return gaveUp, nil
}

// startQueueHead makes the oldest waiting delivery of a queue due, at the
// world time from (Unix nanoseconds) or its own creation if later. from is
// a time fixed by the calls made (the finished attempt's due time, or the
// time of a control call), never the moment a receiver happened to answer.
func startQueueHead(tx *state.Txn, queue string, from int64) error {
	head := state.QueueHead(tx, queue)
	if head == nil || head.Due != 0 {
		return nil
	}
	h := state.Clone(head)
	h.Base = max(from, head.CreatedAt)
	h.Due = h.Base
	return state.Put(tx, state.TableDeliveries, h)
}

// redeliver queues a delivery again with its original payload: a new round
// of the retry schedule, at the back of its queue.
func redeliver(tx *state.Txn, d *model.Delivery) (*model.Delivery, error) {
	c := state.Clone(d)
	c.Seq = tx.Seq()
	c.Round++
	c.RoundAttempts = 0
	c.State = model.DeliveryPending
	c.Base, c.Due = 0, 0
	if err := state.Put(tx, state.TableDeliveries, c); err != nil {
		return nil, err
	}
	// The queue's head may have changed (c was it and moved back, or the
	// queue was idle): make the head due, and only the head.
	now := tx.Now().UnixNano()
	if err := startQueueHead(tx, c.Queue, now); err != nil {
		return nil, err
	}
	tx.Notify(state.TopicEvents)
	out, err := state.Get[model.Delivery](tx, state.TableDeliveries, c.ID)
	if err != nil {
		return nil, err
	}
	return out, nil
}
