package callbacks

// Control plane of callbacks: the event and delivery log, redelivery and
// waiting for due attempts.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/events"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

func registerControl(r *api.Registry) {
	r.Control(http.MethodGet, "/callbacks", controlListCallbacks)
	r.Control(http.MethodPost, "/callbacks/wait", controlWaitCallbacks)
	r.ControlNoBody(http.MethodPost, "/callbacks/{id}/redeliver", controlRedeliver)
}

// callbackEntry is one event in GET /_sandbox/callbacks.
type callbackEntry struct {
	ID                 string          `json:"id"`
	EventType          string          `json:"event_type"`
	EventTime          int64           `json:"event_time"`
	ObjectType         string          `json:"object_type,omitempty"`
	ObjectID           string          `json:"object_id,omitempty"`
	AccountIDs         []string        `json:"account_ids,omitempty"`
	ClientID           string          `json:"client_id,omitempty"`
	RelatedSignatureID string          `json:"related_signature_id,omitempty"`
	EventMessage       string          `json:"event_message,omitempty"`
	Object             json.RawMessage `json:"object,omitempty"`
	// State is pending while any target is, failed when any target gave
	// up, delivered when all were, and "none" without targets.
	State string `json:"state"`
	// Deliveries are the event's targets with their attempts.
	Deliveries []deliveryView `json:"deliveries"`
}

// deliveryView is one target of an event in the log: its head (everything
// but the payload, which the page writes around the stored bytes) and the
// payload, last.
type deliveryView struct {
	deliveryHead
	// Payload is the EventCallbackRequest sent in the "json" field.
	Payload json.RawMessage `json:"payload"`
}

// deliveryHead is what the log shows of a target besides its payload.
type deliveryHead struct {
	ID string `json:"id"`
	// Kind is "account" or "app".
	Kind      string `json:"kind"`
	AccountID string `json:"account_id,omitempty"`
	ClientID  string `json:"client_id,omitempty"`
	URL       string `json:"url"`
	State     string `json:"state"`
	EventHash string `json:"event_hash"`
	// NextAttemptAt is when the next attempt is due (Unix seconds); absent
	// when none is (finished, or waiting behind earlier events to the same
	// target: Waiting).
	NextAttemptAt int64 `json:"next_attempt_at,omitempty"`
	Waiting       bool  `json:"waiting,omitempty"`
	Round         int   `json:"round"`
	// Attempts lists every attempt, oldest first.
	Attempts []model.DeliveryAttempt `json:"attempts"`
}

func viewDelivery(d *model.Delivery) deliveryView {
	v := deliveryView{deliveryHead: deliveryHead{
		ID: d.ID, Kind: d.Kind, AccountID: d.AccountID, ClientID: d.ClientID, URL: d.URL, State: d.State,
		EventHash: d.EventHash, Round: d.Round, Attempts: d.Attempts,
	}, Payload: json.RawMessage(d.Payload)}
	if v.Attempts == nil {
		v.Attempts = []model.DeliveryAttempt{}
	}
	if d.Due != 0 {
		v.NextAttemptAt = time.Unix(0, d.Due).Unix()
	} else if d.Open() {
		v.Waiting = true
	}
	return v
}

// newCallbackEntry is an event of the log with all its deliveries.
func newCallbackEntry(e *model.Event, ds []*model.Delivery) callbackEntry {
	entry := callbackEntry{ID: e.ID, EventType: e.Type, EventTime: e.Time, ObjectType: e.ObjectType, ObjectID: e.ObjectID,
		AccountIDs: e.AccountIDs, ClientID: e.ClientID, RelatedSignatureID: e.RelatedSignatureID,
		EventMessage: e.EventMessage, Object: e.Object, State: state.EventState(ds), Deliveries: []deliveryView{}}
	for _, d := range ds {
		entry.Deliveries = append(entry.Deliveries, viewDelivery(d))
	}
	return entry
}

// controlListCallbacks answers a page of the world's events with their
// deliveries: limit (default 100), cursor (next_cursor of the previous
// page), order (asc, oldest first, the default; desc). Filters (query):
// event_type, object_id, state, account_id (a target's reported account),
// client_id, url.
func controlListCallbacks(c *api.Call) (any, error) {
	q := c.Request.URL.Query()
	page, field, err := state.ParsePageQuery(q.Get("limit"), q.Get("cursor"), q.Get("order"))
	if err != nil {
		return nil, apierr.Badf(field, "%v", err)
	}
	objectID, eventType, wantState := q.Get("object_id"), q.Get("event_type"), q.Get("state")
	account, client, url := q.Get("account_id"), q.Get("client_id"), q.Get("url")
	tx := c.Read()
	// entries are the events the page kept, in its order; the walk may keep
	// one more than the page holds to learn that more follow.
	entries := make([]callbackEntry, 0, min(page.Limit+1, 128))
	anyDeliveries := state.AnyDeliveries(tx)
	var failed error
	rows, err := state.PageEvents(tx, objectID, page, func(e *model.Event) bool {
		if eventType != "" && e.Type != eventType {
			return false
		}
		var ds []*model.Delivery
		if anyDeliveries {
			var err error
			if ds, err = state.DeliveriesOf(tx, e.ID); err != nil {
				failed = err
				return false
			}
		}
		entry := newCallbackEntry(e, ds)
		if wantState != "" && entry.State != wantState {
			return false
		}
		if account != "" || client != "" || url != "" {
			entry.Deliveries = slices.DeleteFunc(entry.Deliveries, func(d deliveryView) bool {
				return (account != "" && d.AccountID != account) || (client != "" && d.ClientID != client) || (url != "" && d.URL != url)
			})
			if len(entry.Deliveries) == 0 {
				return false
			}
		}
		entries = append(entries, entry)
		return true
	})
	if err == nil {
		err = failed
	}
	if err != nil {
		return nil, err
	}
	tail, err := json.Marshal(map[string]any{"retry_schedule": retrySchedule(),
		"limit": page.Limit, "order": api.PageOrder(page), "has_more": rows.Next != 0, "next_cursor": rows.Cursor()})
	if err != nil {
		return nil, err
	}
	// The page is the object json.Marshal makes of these keys and
	// "callbacks", which sorts first; its entries are written by hand around
	// the stored JSON (see appendStoredJSON).
	entries = entries[:len(rows.Rows)]
	size := len(tail) + 16
	for i := range entries {
		size += entries[i].size()
	}
	w := newJSONWriter(size)
	w.write(`{"callbacks":[`)
	for i, e := range rows.Rows {
		if entries[i].ID != e.ID {
			return nil, fmt.Errorf("callbacks: page row %d is %s, kept %s", i, e.ID, entries[i].ID)
		}
		if i > 0 {
			w.write(",")
		}
		if err := entries[i].writeJSON(w); err != nil {
			return nil, err
		}
	}
	w.write("],")
	w.out = append(w.out, tail[1:]...)
	body := w.out
	return &api.RawResponse{Status: http.StatusOK, ContentType: "application/json", Body: body}, nil
}

// retrySchedule lists when the attempts of a round are due, in seconds after
// the round starts.
func retrySchedule() []int64 {
	var out []int64
	for _, d := range events.Schedule() {
		out = append(out, int64(d/time.Second))
	}
	return out
}

// controlRedeliver queues an event (every target) or one delivery again with
// the payload it was emitted with, at the back of its target's queue and
// with a fresh retry schedule starting now.
func controlRedeliver(c *api.Call) (any, error) {
	id := c.Param("id")
	var entry callbackEntry
	err := c.Update(func(tx *state.Txn) error {
		var ds []*model.Delivery
		e, err := state.Get[model.Event](tx, state.TableEvents, id)
		if err == nil {
			if ds, err = state.DeliveriesOf(tx, e.ID); err != nil {
				return err
			}
			if len(ds) == 0 {
				return apierr.Badf("id", "Event %s has no callback target: no callback URL was set for it when it was emitted.", id)
			}
		} else {
			d, derr := state.Get[model.Delivery](tx, state.TableDeliveries, id)
			if derr != nil {
				return api.ErrControlNotFound("event or delivery", id)
			}
			if e, err = state.Get[model.Event](tx, state.TableEvents, d.EventID); err != nil {
				return api.ErrControlNotFound("event", d.EventID)
			}
			ds = []*model.Delivery{d}
		}
		for _, d := range ds {
			if _, err := redeliver(tx, d); err != nil {
				return err
			}
		}
		fresh, err := state.DeliveriesOf(tx, e.ID)
		if err != nil {
			return err
		}
		entry = newCallbackEntry(e, fresh)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return entry, nil
}

// Bounds of POST /_sandbox/callbacks/wait.
const (
	defaultWaitTimeout = 30 * time.Second
	maxWaitTimeout     = 10 * time.Minute
)

type waitRequest struct {
	// Timeout is a Go duration ("5s") or a number of seconds.
	Timeout string `json:"timeout"`
}

// controlWaitCallbacks waits until every attempt due at the world's current
// time has been made and recorded (tests call it instead of sleeping). It
// answers the delivery counts; 503 when the timeout (wall time: attempts are
// real HTTP requests) passes first.
func controlWaitCallbacks(c *api.Call) (any, error) {
	var req waitRequest
	if err := c.BindStrict(&req); err != nil {
		return nil, err
	}
	if req.Timeout == "" {
		req.Timeout = c.Request.URL.Query().Get("timeout")
	}
	timeout, err := parseWaitTimeout(req.Timeout)
	if err != nil {
		return nil, err
	}
	st, settled := waitCallbacks(c.Host, c.Request.Context(), c.World, timeout)
	if !settled {
		return nil, apierr.New(apierr.Unavailable,
			"Callbacks did not settle within "+timeout.String()+": "+strconv.Itoa(st.Due)+" due attempt(s) not yet made or still in flight.")
	}
	return st, nil
}

func parseWaitTimeout(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return defaultWaitTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		secs, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil {
			return 0, apierr.Badf("timeout", "timeout must be a Go duration such as 5s or a number of seconds, not %q", v)
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d <= 0 || d > maxWaitTimeout {
		return 0, apierr.Badf("timeout", "timeout must be more than 0 and at most %s", maxWaitTimeout)
	}
	return d, nil
}

// waitCallbacks waits (at most timeout of wall time) until every attempt due
// in w has been made. The clock's advance can call it to offer
// {"wait_callbacks": true}.
func waitCallbacks(s *api.Host, ctx context.Context, w *world.World, timeout time.Duration) (waitStatus, bool) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	st := dispatcherOf(s, w).wait(ctx)
	return st, st.Settled
}

// WaitAfterAdvance serves {"wait_callbacks": true} of POST
// /_sandbox/clock/advance: once the clock has moved, it waits (at most
// defaultWaitTimeout) until the delivery attempts that fell due have been
// made, so that one call both moves time and settles the callbacks.
func WaitAfterAdvance(c *api.Call) error {
	st, ok := waitCallbacks(c.Host, c.Request.Context(), c.World, defaultWaitTimeout)
	if !ok {
		return apierr.New(apierr.Unavailable, "The clock moved, but callbacks did not settle within "+defaultWaitTimeout.String()+": "+
			strconv.Itoa(st.Due)+" due attempt(s) not yet made or still in flight.")
	}
	return nil
}
