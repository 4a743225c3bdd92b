package notify

// Routing: which callback URLs an event goes to, and the delivery rows that
// carry it there. Everything the receiver will see (URL, payload, event_hash)
// is fixed here, inside the emitting transaction, so that the bytes depend
// only on the calls made (never on when the dispatcher gets to them) and a
// later key rotation or URL change affects only later events.

import (
	"encoding/json"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/events"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Kinds of callback targets.
const (
	targetAccount = "account"
	targetApp     = "app"
)

// Target is one callback URL an event is reported to.
type Target struct {
	kind string
	// reportedFor is reported_for_account_id (the account callback's account;
	// for app callbacks the account the event is about).
	reportedFor string
	// clientID is reported_for_app_id (app callbacks only).
	clientID string
	url      string
	// keyOwner is the account whose primary API key signs event_hash: the
	// account itself, or the app's owner for app callbacks.
	keyOwner string
	// viewer is the account the attached object is rendered for.
	viewer string
}

// queue names the ordered stream of deliveries to one target and URL.
func (t Target) queue() string {
	id := t.reportedFor
	if t.kind == targetApp {
		id = t.clientID
	}
	return t.kind + ":" + id + " " + t.url
}

// Route finds the callback targets of an event:
//   - the account callback of every involved account that has one (in the
//     order given, each once), except for account_confirmed, which the real
//     service reports to the creating app only;
//   - the app callback of the API app the object was made with, if it has one.
func Route(tx *state.Txn, ev Event) []Target {
	var out []Target
	if ev.Type != TypeAccountConfirmed {
		var seen []string
		for _, id := range ev.AccountIDs {
			if id == "" || slices.Contains(seen, id) {
				continue
			}
			seen = append(seen, id)
			if a, err := state.Get[model.Account](tx, state.TableAccounts, id); err == nil && a.CallbackURL != "" {
				out = append(out, AccountTarget(a))
			}
		}
	}
	if ev.ClientID != "" {
		if app, err := state.Get[model.APIApp](tx, state.TableAPIApps, ev.ClientID); err == nil && app.CallbackURL != "" {
			out = append(out, AppTarget(app, ev.primary()))
		}
	}
	return out
}

// AccountTarget is the account callback of an account (which has a
// callback URL).
func AccountTarget(a *model.Account) Target {
	return Target{kind: targetAccount, reportedFor: a.ID, url: a.CallbackURL, keyOwner: a.ID, viewer: a.ID}
}

// AppTarget is the app callback of an API app (which has a callback URL).
// reportedFor is the account the event is about (reported_for_account_id,
// as in the official SDK fixtures for app callbacks).
func AppTarget(app *model.APIApp, reportedFor string) Target {
	viewer := reportedFor
	if viewer == "" {
		viewer = app.OwnerAccountID
	}
	return Target{kind: targetApp, reportedFor: reportedFor, clientID: app.ClientID, url: app.CallbackURL,
		keyOwner: app.OwnerAccountID, viewer: viewer}
}

// queueDeliveries writes one delivery per target. A delivery whose queue is
// idle is due at once; otherwise it waits for the deliveries before it.
func (n *Notifier) queueDeliveries(tx *state.Txn, row *model.Event, targets []Target, views *objectCache) error {
	now := tx.Now().UnixNano()
	// One buffer serves every target's payload; each delivery keeps a
	// string copy.
	var buf []byte
	for i, t := range targets {
		var obj json.RawMessage
		if row.ObjectType != "" {
			raw, err := views.render(t.viewer)
			if err != nil {
				return err
			}
			obj = raw
		}
		ev := events.Event{Time: row.Time, Type: row.Type, Metadata: events.Metadata{
			RelatedSignatureID:   row.RelatedSignatureID,
			ReportedForAccountID: t.reportedFor,
			ReportedForAppID:     t.clientID,
			EventMessage:         row.EventMessage,
		}}
		ev.Hash = events.Hash(state.PrimaryKeyOf(tx, t.keyOwner), ev.TimeString(), ev.Type)
		// The object is marshalObject's: compact, as AppendPayload takes it.
		if buf == nil {
			buf = make([]byte, 0, 512+len(obj))
		}
		payload, err := events.AppendPayload(buf[:0], ev, row.ObjectType, obj)
		if err != nil {
			return err
		}
		buf = payload
		d := &model.Delivery{
			ID: tx.NewUUID(), Seq: tx.Seq(), EventID: row.ID, EventSeq: row.Seq, EventType: row.Type, Index: i,
			Kind: t.kind, AccountID: t.reportedFor, ClientID: t.clientID, URL: t.url, Queue: t.queue(),
			Payload: string(payload), EventHash: ev.Hash, State: model.DeliveryPending, CreatedAt: now,
		}
		if state.QueueHead(tx, d.Queue) == nil {
			d.Base, d.Due = now, now
		}
		if err := state.Put(tx, state.TableDeliveries, d); err != nil {
			return err
		}
	}
	if len(targets) > 0 {
		tx.Notify(state.TopicEvents)
	}
	return nil
}
