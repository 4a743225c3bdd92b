package console

import (
	"encoding/json"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/events"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// CallbackEvent is one event of the callback log with its targets.
type CallbackEvent struct {
	ID           string           `json:"id"`
	Type         string           `json:"event_type"`
	Time         int64            `json:"event_time"`
	ObjectType   string           `json:"object_type,omitempty"`
	ObjectID     string           `json:"object_id,omitempty"`
	EventMessage string           `json:"event_message,omitempty"`
	State        string           `json:"state"`
	Targets      []CallbackTarget `json:"targets"`
}

// CallbackTarget is one delivery of an event: where it goes, its attempts,
// the payload sent, and whether the event_hash it carries verifies with
// the key a receiver holds now (the primary key of the account, or of the
// app's owner).
type CallbackTarget struct {
	ID           string                  `json:"id"`
	Kind         string                  `json:"kind"`
	AccountID    string                  `json:"account_id,omitempty"`
	ClientID     string                  `json:"client_id,omitempty"`
	URL          string                  `json:"url"`
	State        string                  `json:"state"`
	Round        int                     `json:"round"`
	EventHash    string                  `json:"event_hash"`
	HashVerifies bool                    `json:"hash_verifies"`
	Attempts     []model.DeliveryAttempt `json:"attempts"`
	Payload      json.RawMessage         `json:"payload,omitempty"`
}

// Callbacks lists the callback log newest first, all of it or the events
// of one object.
func (r Reader) Callbacks(tx *state.Txn, objectID, cursor string, limit int) (PageOf[CallbackEvent], error) {
	var keep func(*model.Event) bool
	if objectID != "" {
		keep = func(e *model.Event) bool { return e.ObjectID == objectID }
	}
	rows, next, err := newest(tx, state.TableEvents, cursor, limit, func(e *model.Event) uint64 { return e.Seq }, keep)
	if err != nil {
		return PageOf[CallbackEvent]{}, err
	}
	page := PageOf[CallbackEvent]{Items: []CallbackEvent{}, Next: next}
	for _, e := range rows {
		ce, err := callbackEvent(tx, e)
		if err != nil {
			return PageOf[CallbackEvent]{}, err
		}
		page.Items = append(page.Items, ce)
	}
	return page, nil
}

// Callback shows one event of the log.
func (r Reader) Callback(tx *state.Txn, id string) (CallbackEvent, error) {
	e, err := state.Get[model.Event](tx, state.TableEvents, id)
	if err != nil {
		return CallbackEvent{}, err
	}
	return callbackEvent(tx, e)
}

func callbackEvent(tx *state.Txn, e *model.Event) (CallbackEvent, error) {
	ds, err := state.DeliveriesOf(tx, e.ID)
	if err != nil {
		return CallbackEvent{}, err
	}
	ce := CallbackEvent{ID: e.ID, Type: e.Type, Time: e.Time, ObjectType: e.ObjectType, ObjectID: e.ObjectID,
		EventMessage: e.EventMessage, State: state.EventState(ds), Targets: []CallbackTarget{}}
	for _, d := range ds {
		owner := d.AccountID
		if d.Kind == "app" {
			if app, err := state.Get[model.APIApp](tx, state.TableAPIApps, d.ClientID); err == nil {
				owner = app.OwnerAccountID
			}
		}
		t := CallbackTarget{ID: d.ID, Kind: d.Kind, AccountID: d.AccountID, ClientID: d.ClientID, URL: d.URL,
			State: d.State, Round: d.Round, EventHash: d.EventHash, Attempts: d.Attempts,
			HashVerifies: events.Verify(state.PrimaryKeyOf(tx, owner), strconv.FormatInt(e.Time, 10), e.Type, d.EventHash)}
		if t.Attempts == nil {
			t.Attempts = []model.DeliveryAttempt{}
		}
		if json.Valid([]byte(d.Payload)) {
			t.Payload = json.RawMessage(d.Payload)
		}
		ce.Targets = append(ce.Targets, t)
	}
	return ce, nil
}
