package state

import (
	"fmt"
	"math"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// The callback log (events with their deliveries) and the e-mail outbox
// are bounded: a world keeps up to Config.LogLimit entries of each, and
// adding one beyond that drops the oldest settled one (an event none of
// whose deliveries is still pending; every e-mail). Entries still pending
// delivery are never dropped, so a log can stay above its limit while they
// wait.

// trimScan bounds the entries one trim looks at, so that a log whose oldest
// entries are all pending costs a bounded amount per write; the next trim
// then waits until trimScan more entries were added.
const trimScan = 256

// logBucketBits sizes the grouped compact indexes of the logs (e-mails by
// request, events by object): 256 buckets each. A clock
// advance runs up to 1,024 jobs in a write, each adding an e-mail and an
// event about a different request, so a write copies and stores nearly
// every bucket it could touch; the logs are capped (LogLimit), so a
// bucket of a full log holds about 40 entries (1.6 KB). With 1,024
// buckets a job paid about two bucket copies and stores; with 256 the
// copies move the same bytes in a quarter as many buckets.
const logBucketBits = 8

// AddEvent records an event in the callback log, dropping the oldest
// settled events beyond the world's limit.
func AddEvent(tx *Txn, e *model.Event) error {
	if err := Put(tx, TableEvents, e); err != nil {
		return err
	}
	return trimLog(tx, TableEvents, e.Seq)
}

// AddEmail records an e-mail in the outbox, dropping the oldest e-mails
// beyond the world's limit.
func AddEmail(tx *Txn, e *model.Email) error {
	if err := Put(tx, TableEmails, e); err != nil {
		return err
	}
	return trimLog(tx, TableEmails, e.Seq)
}

// trimLog counts the entry just added to table (of Seq added) and drops
// the oldest droppable entries older than it (the new one's deliveries are
// not queued yet) until the log is within the limit, looking at no more
// than trimScan entries it must keep.
func trimLog(tx *Txn, table string, added uint64) error {
	limit := int64(GetConfig(tx).LogLimit())
	// The counters move in place in the usage row a deferred write keeps
	// (a full log trims on every entry added: two copies of the row each
	// time otherwise); a write that stores the row at once copies it.
	u := tx.pendingUsage()
	inPlace := u != nil
	if !inPlace {
		u = getUsage(tx)
	}
	count, trimAt := logCounters(u, table)
	*count++
	if *count <= limit || *count < *trimAt {
		return storeUsage(tx, u, inPlace)
	}
	var victims []logVictim
	kept := 0
	var werr error
	err := tx.walkLogSeq(compactIndexNamed(table, IndexSeq), func(e *compactEntry, raw any) bool {
		if *count-int64(len(victims)) <= limit || kept >= trimScan || e.Order >= added {
			return false
		}
		ok, ds, err := canDrop(tx, table, raw)
		if err != nil {
			werr = err
			return false
		}
		if ok {
			victims = append(victims, logVictim{raw, ds})
		} else {
			kept++
		}
		return true
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return fmt.Errorf("state: trim %s: %w", table, err)
	}
	for _, v := range victims {
		if err := dropEntry(tx, table, v, u); err != nil {
			return fmt.Errorf("state: trim %s: %w", table, err)
		}
		*count--
	}
	*trimAt = 0
	if *count > limit && kept >= trimScan {
		*trimAt = *count + trimScan // a long pending head: look again later
	}
	return storeUsage(tx, u, inPlace)
}

// storeUsage stores the usage row trimLog changed, unless it changed the
// row the write keeps in place.
func storeUsage(tx *Txn, u *Usage, inPlace bool) error {
	if inPlace {
		return nil
	}
	return setUsage(tx, u)
}

// logCounters answers the entry count and the held-back trim of a log.
func logCounters(u *Usage, table string) (count, trimAt *int64) {
	if table == TableEvents {
		return &u.Events, &u.EventsTrimAt
	}
	return &u.Emails, &u.EmailsTrimAt
}

// logVictim is a log entry a trim drops, with its deliveries (an
// event's), read once for canDrop and dropEntry: dropping other entries
// does not change them.
type logVictim struct {
	raw        any
	deliveries []*model.Delivery
}

// canDrop says whether a log entry is settled, with the deliveries of an
// event.
func canDrop(tx *Txn, table string, raw any) (bool, []*model.Delivery, error) {
	if table != TableEvents {
		return true, nil, nil
	}
	ds, err := DeliveriesOf(tx, raw.(*model.Event).ID)
	if err != nil {
		return false, nil, err
	}
	for _, d := range ds {
		if d.Open() {
			return false, nil, nil
		}
	}
	return true, ds, nil
}

// dropEntry removes a log entry; an event goes with its (finished)
// deliveries, which u stops counting.
func dropEntry(tx *Txn, table string, v logVictim, u *Usage) error {
	for _, d := range v.deliveries {
		if err := tx.Delete(TableDeliveries, d); err != nil {
			return err
		}
		u.Deliveries.add(d.State, -1)
	}
	return tx.Delete(table, v.raw)
}

// PageQuery asks for one page of a log.
type PageQuery struct {
	// Limit is the most entries to answer (at least 1).
	Limit int
	// After continues after the entry of this Seq in the page's order (the
	// cursor a previous page answered); 0 starts at the beginning.
	After uint64
	// Desc walks newest first.
	Desc bool
}

// LogPage is one page of a log: the entries in order and, when more follow,
// the cursor of the next page.
type LogPage[T any] struct {
	Rows []*T
	Next uint64
}

// PageEvents returns a page of the callback log: every event, or those of
// one object (objectID), that keep accepts (nil keeps all).
func PageEvents(tx *Txn, objectID string, q PageQuery, keep func(*model.Event) bool) (LogPage[model.Event], error) {
	seq := func(e *model.Event) uint64 { return e.Seq }
	if objectID == "" {
		return pageBySeq(tx, TableEvents, IndexSeq, nil, seq, nil, q, keep)
	}
	return pageBySeq(tx, TableEvents, IndexObject, []any{objectID}, seq,
		func(e *model.Event) bool { return e.ObjectID == objectID }, q, keep)
}

// PageEmails returns a page of the outbox: every e-mail, or those about
// one signature request (requestID), that keep accepts (nil keeps all).
func PageEmails(tx *Txn, requestID string, q PageQuery, keep func(*model.Email) bool) (LogPage[model.Email], error) {
	seq := func(e *model.Email) uint64 { return e.Seq }
	if requestID == "" {
		return pageBySeq(tx, TableEmails, IndexSeq, nil, seq, nil, q, keep)
	}
	return pageBySeq(tx, TableEmails, IndexEmailRequest, []any{requestID}, seq,
		func(e *model.Email) bool { return e.SignatureRequestID == requestID }, q, keep)
}

// pageBySeq walks an index whose last part is Seq (after the values of
// prefix) from the cursor, in the asked order, while inRange holds. A
// compact index is walked in the bucket of its group (the one value of
// prefix).
func pageBySeq[T any](tx *Txn, table, index string, prefix []any, seq func(*T) uint64, inRange func(*T) bool,
	q PageQuery, keep func(*T) bool) (LogPage[T], error) {
	limit := max(q.Limit, 1)
	from := q.After + 1
	if q.Desc {
		from = math.MaxUint64
		if q.After > 0 {
			from = q.After - 1
		}
	}
	var page LogPage[T]
	if q.Desc && q.After == 1 || !q.Desc && q.After == math.MaxUint64 {
		return page, nil // nothing lies beyond the ends
	}
	// Pages are nearly always full: room for one (up to a bound, as keep
	// may reject most rows) instead of growing the slice eight times.
	page.Rows = make([]*T, 0, min(limit, pageCapacity))
	visit := func(raw any) bool {
		row := raw.(*T)
		if inRange != nil && !inRange(row) {
			return false
		}
		if keep != nil && !keep(row) {
			return true
		}
		if len(page.Rows) == limit {
			page.Next = seq(page.Rows[limit-1])
			return false
		}
		page.Rows = append(page.Rows, row)
		return true
	}
	if ix := compactIndexNamed(table, index); ix != nil {
		// The entries of one group (the prefix), in Seq order; an ordered
		// index (a log's seq) has no group.
		var group string
		var err error
		if !ix.ordered {
			group, _, err = ix.lookupArgs(prefix)
		}
		if err == nil {
			err = tx.compactRows(ix, group, from, q.Desc, visit)
		}
		if err != nil {
			return page, fmt.Errorf("state: page %s: %w", table, err)
		}
		return page, nil
	}
	args := append(append([]any{}, prefix...), from)
	var next func() any
	if q.Desc {
		it, err := tx.mem.ReverseLowerBound(table, index, args...)
		if err != nil {
			return page, fmt.Errorf("state: page %s: %w", table, err)
		}
		next = it.Next
	} else {
		it, err := tx.mem.LowerBound(table, index, args...)
		if err != nil {
			return page, fmt.Errorf("state: page %s: %w", table, err)
		}
		next = it.Next
	}
	for raw := next(); raw != nil && visit(raw); raw = next() {
	}
	return page, nil
}

// pageCapacity bounds the room a page makes for its rows before it knows
// how many it keeps.
const pageCapacity = 128

// Bounds of a log page asked over HTTP.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
)

// ParsePageQuery reads the paging parameters of GET /_sandbox/callbacks and
// /_sandbox/emails: limit (1 to MaxPageLimit, default DefaultPageLimit),
// cursor (the next_cursor of the previous page) and order ("asc", oldest
// first, the default; "desc", newest first). A bad value answers the name
// of its parameter and why.
func ParsePageQuery(limit, cursor, order string) (q PageQuery, field string, err error) {
	q.Limit = DefaultPageLimit
	if limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > MaxPageLimit {
			return q, "limit", fmt.Errorf("limit must be a whole number from 1 to %d, not %q", MaxPageLimit, limit)
		}
		q.Limit = n
	}
	if cursor != "" {
		n, err := strconv.ParseUint(cursor, 10, 64)
		if err != nil || n == 0 {
			return q, "cursor", fmt.Errorf("cursor %q is not a cursor this log answered (give next_cursor of the previous page)", cursor)
		}
		q.After = n
	}
	switch order {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, "order", fmt.Errorf("order must be asc (oldest first) or desc (newest first), not %q", order)
	}
	return q, "", nil
}

// Cursor is the text of a next-page cursor ("" when no page follows).
func (p LogPage[T]) Cursor() string {
	if p.Next == 0 {
		return ""
	}
	return strconv.FormatUint(p.Next, 10)
}
