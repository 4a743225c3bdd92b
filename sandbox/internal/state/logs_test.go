package state

import (
	"fmt"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func withLogLimit(t *testing.T, st *Store, n int) {
	t.Helper()
	require.NoError(t, st.Update(func(tx *Txn) error {
		c := GetConfig(tx)
		c.LogEntries = n
		return PutConfig(tx, c)
	}))
}

// addEvent records an event with one delivery in the given state ("" for
// an event without targets).
func addEvent(t *testing.T, st *Store, objectID, delivery string) *model.Event {
	t.Helper()
	var e *model.Event
	require.NoError(t, st.Update(func(tx *Txn) error {
		e = &model.Event{ID: tx.NewUUID(), Seq: tx.Seq(), Type: "signature_request_sent", ObjectID: objectID}
		if err := AddEvent(tx, e); err != nil {
			return err
		}
		if delivery == "" {
			return nil
		}
		return Put(tx, TableDeliveries, &model.Delivery{ID: tx.NewUUID(), Seq: tx.Seq(), EventID: e.ID, EventSeq: e.Seq,
			Queue: "q", State: delivery, URL: "http://127.0.0.1/cb"})
	}))
	return e
}

func eventIDs(rows []*model.Event) []string {
	out := []string{}
	for _, e := range rows {
		out = append(out, e.ID)
	}
	return out
}

// TestCallbackLogKeepsItsLimitAndEveryPendingEntry: beyond the limit the
// oldest settled events go, with their deliveries; pending ones stay even
// when that keeps the log above its limit.
func TestCallbackLogKeepsItsLimitAndEveryPendingEntry(t *testing.T) {
	st := seededStore(t)
	withLogLimit(t, st, 3)
	pending := addEvent(t, st, "a", model.DeliveryPending)
	var settled []*model.Event
	for i := 0; i < 4; i++ {
		settled = append(settled, addEvent(t, st, "a", []string{model.DeliveryDelivered, model.DeliveryFailed, ""}[i%3]))
	}
	page, err := PageEvents(st.Read(), "", PageQuery{Limit: 100}, nil)
	require.NoError(t, err)
	assert.Equal(t, eventIDs([]*model.Event{pending, settled[2], settled[3]}), eventIDs(page.Rows),
		"the oldest settled events went first; the pending one stayed")
	ds, err := DeliveriesOf(st.Read(), settled[0].ID)
	require.NoError(t, err)
	assert.Empty(t, ds, "a dropped event's deliveries go with it")
	requireUsageTrue(t, st)

	// All pending: nothing can go, the log grows past its limit.
	for i := 0; i < 5; i++ {
		addEvent(t, st, "b", model.DeliveryPending)
	}
	u := requireUsageTrue(t, st)
	assert.EqualValues(t, 6, u.Events, "pending entries are never dropped")
}

// TestOutboxKeepsItsLimit: the oldest e-mails go first.
func TestOutboxKeepsItsLimit(t *testing.T) {
	st := seededStore(t)
	withLogLimit(t, st, 10)
	for i := 0; i < 25; i++ {
		require.NoError(t, st.Update(func(tx *Txn) error {
			return AddEmail(tx, &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), To: fmt.Sprintf("s%d@x.example", i),
				SignatureRequestID: fmt.Sprintf("r%d", i%2)})
		}))
	}
	page, err := PageEmails(st.Read(), "", PageQuery{Limit: 100}, nil)
	require.NoError(t, err)
	require.Len(t, page.Rows, 10)
	assert.Equal(t, "s15@x.example", page.Rows[0].To)
	assert.Equal(t, "s24@x.example", page.Rows[9].To)
	u := requireUsageTrue(t, st)
	assert.EqualValues(t, 10, u.Emails)
}

// TestLogPagesWalkBothWays: pages of a limit follow each other through the
// cursor in either order, with and without the index of a filter.
func TestLogPagesWalkBothWays(t *testing.T) {
	st := seededStore(t)
	var all, ofA []*model.Event
	for i := 0; i < 7; i++ {
		obj := []string{"a", "b"}[i%2]
		e := addEvent(t, st, obj, "")
		all = append(all, e)
		if obj == "a" {
			ofA = append(ofA, e)
		}
	}
	walk := func(objectID string, desc bool, keep func(*model.Event) bool) []string {
		var got []string
		q := PageQuery{Limit: 2, Desc: desc}
		for pages := 0; pages < 10; pages++ {
			p, err := PageEvents(st.Read(), objectID, q, keep)
			require.NoError(t, err)
			assert.LessOrEqual(t, len(p.Rows), 2)
			got = append(got, eventIDs(p.Rows)...)
			if p.Next == 0 {
				return got
			}
			q.After = p.Next
		}
		t.Fatal("the pages did not end")
		return nil
	}
	reversed := func(ids []string) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[len(ids)-1-i] = id
		}
		return out
	}
	assert.Equal(t, eventIDs(all), walk("", false, nil))
	assert.Equal(t, reversed(eventIDs(all)), walk("", true, nil))
	assert.Equal(t, eventIDs(ofA), walk("a", false, nil))
	assert.Equal(t, reversed(eventIDs(ofA)), walk("a", true, nil))
	notFirst := func(e *model.Event) bool { return e.ID != all[0].ID }
	assert.Equal(t, eventIDs(all[1:]), walk("", false, notFirst))
	assert.Empty(t, walk("nobody", false, nil))

	p, err := PageEvents(st.Read(), "", PageQuery{Limit: 7}, nil)
	require.NoError(t, err)
	assert.Len(t, p.Rows, 7)
	assert.Zero(t, p.Next, "a page that holds the rest has no next cursor")
}

// TestDeliveryCountsFollowEveryPut: a delivery's count moves with its
// state as it is Put again, and leaves with its dropped event.
func TestDeliveryCountsFollowEveryPut(t *testing.T) {
	st := seededStore(t)
	withLogLimit(t, st, 1)
	e := addEvent(t, st, "a", model.DeliveryPending)
	assert.Equal(t, DeliveryCounts{Pending: 1}, CountDeliveries(st.Read()))
	require.NoError(t, st.Update(func(tx *Txn) error {
		ds, err := DeliveriesOf(tx, e.ID)
		require.NoError(t, err)
		d := Clone(ds[0])
		d.State = model.DeliveryDelivered
		return Put(tx, TableDeliveries, d)
	}))
	assert.Equal(t, DeliveryCounts{Delivered: 1}, CountDeliveries(st.Read()))
	addEvent(t, st, "a", model.DeliveryFailed)
	assert.Equal(t, DeliveryCounts{Failed: 1}, CountDeliveries(st.Read()), "the first event went with its delivery")
	requireUsageTrue(t, st)
}

// TestLogBucketsGrowByAQuarter: a batch that adds to a full bucket of a
// log's index grows it by a quarter and stores it as grown, rather than
// doubling it and copying it again to drop the room; the entries are
// those a rebuild makes.
func TestLogBucketsGrowByAQuarter(t *testing.T) {
	st := seededStore(t)
	add := func(n int) {
		require.NoError(t, st.Update(func(tx *Txn) error {
			for i := 0; i < n; i++ {
				if err := AddEmail(tx, &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), SignatureRequestID: "r"}); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	ix := compactIndexNamed(TableEmails, IndexEmailRequest)
	bucket := func() *compactBucket {
		b := (&Txn{mem: st.Read().mem}).storedBucket(ix, ix.bucketOf(compactKey{group: "r"}))
		require.NotNil(t, b)
		return b
	}
	add(bucketGrowsByAQuarter)
	require.Len(t, bucket().Entries, bucketGrowsByAQuarter)
	add(3)
	b := bucket()
	require.Len(t, b.Entries, bucketGrowsByAQuarter+3)
	// The write's copy has room for one more (writableBucket); the
	// second e-mail finds it full at 17 entries and grows it to 22.
	full := bucketGrowsByAQuarter + 1
	assert.Equal(t, full+full/4+1, cap(b.Entries), "grown once by a quarter, kept as grown")
	requireCompactConsistent(t, st.Read())
}

// TestTrimInOneWriteMatchesAWriteEach: a batch of e-mails and events in
// one write, whose trims read the write's own copies of the logs'
// buckets, leaves the world the writes of one entry pair each leave: the
// same rows (pending events kept), pages, buckets and counters, whether
// the writes count their rows or are observed.
func TestTrimInOneWriteMatchesAWriteEach(t *testing.T) {
	for _, observed := range []bool{false, true} {
		t.Run(fmt.Sprint("observed=", observed), func(t *testing.T) {
			build := func(perWrite int) *Store {
				st := seededStore(t)
				withLogLimit(t, st, 5)
				if observed {
					st.SetCommitObserver(func(Commit) {})
				}
				const pairs = 24
				for done := 0; done < pairs; done += perWrite {
					require.NoError(t, st.Update(func(tx *Txn) error {
						for i := done; i < done+perWrite; i++ {
							req := fmt.Sprintf("r%d", i%3)
							if err := AddEmail(tx, &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), SignatureRequestID: req,
								SignatureID: fmt.Sprintf("s%d", i%2)}); err != nil {
								return err
							}
							e := &model.Event{ID: tx.NewUUID(), Seq: tx.Seq(), Type: "signature_request_sent", ObjectID: req}
							if err := AddEvent(tx, e); err != nil {
								return err
							}
							if i%7 == 3 {
								if err := Put(tx, TableDeliveries, &model.Delivery{ID: tx.NewUUID(), Seq: tx.Seq(), EventID: e.ID,
									EventSeq: e.Seq, Queue: "q", State: model.DeliveryPending, URL: "http://127.0.0.1/cb"}); err != nil {
									return err
								}
							}
						}
						return nil
					}))
				}
				return st
			}
			each, batch := build(1), build(24)
			want, err := Export(each.Read())
			require.NoError(t, err)
			got, err := Export(batch.Read())
			require.NoError(t, err)
			require.Equal(t, want, got)
			assert.Len(t, want[TableEmails], 5)
			assert.Len(t, want[TableEvents], 5)
			assert.Len(t, want[TableDeliveries], 3, "the three events pending delivery stay")
			require.Equal(t, logPages(t, each.Read()), logPages(t, batch.Read()))
			for _, st := range []*Store{each, batch} {
				requireUsageTrue(t, st)
				requireCompactConsistent(t, st.Read())
			}
		})
	}
}

// TestTrimForgetsItsHeadForAnOlderEntry: a write that trims a log
// remembers where its oldest entry is; an entry put before it in the same
// write (a row re-put after a trim dropped it) is the oldest again, and
// the next trim drops it first.
func TestTrimForgetsItsHeadForAnOlderEntry(t *testing.T) {
	st := seededStore(t)
	withLogLimit(t, st, 3)
	require.NoError(t, st.Update(func(tx *Txn) error {
		var first *model.Email
		for i := 0; i < 5; i++ {
			e := &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), To: fmt.Sprintf("s%d@x.example", i)}
			if first == nil {
				first = e
				for n := 0; n < 2<<logSeqShift; n++ {
					tx.Seq() // the others in a later bucket of the seq index
				}
			}
			if err := AddEmail(tx, e); err != nil {
				return err
			}
		}
		_, err := Get[model.Email](tx, TableEmails, first.ID)
		require.ErrorIs(t, err, ErrNotFound, "the trims dropped the first e-mail")
		again := *first
		again.Bounced = true
		if err := Put(tx, TableEmails, &again); err != nil {
			return err
		}
		if err := AddEmail(tx, &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), To: "s5@x.example"}); err != nil {
			return err
		}
		_, err = Get[model.Email](tx, TableEmails, first.ID)
		require.ErrorIs(t, err, ErrNotFound, "the oldest e-mail went first")
		return nil
	}))
	page, err := PageEmails(st.Read(), "", PageQuery{Limit: 10}, nil)
	require.NoError(t, err)
	var to []string
	for _, e := range page.Rows {
		to = append(to, e.To)
	}
	assert.Equal(t, []string{"s2@x.example", "s3@x.example", "s4@x.example", "s5@x.example"}, to,
		"the re-put e-mail is gone; it was not counted, so four stay")
	requireCompactConsistent(t, st.Read())
}
