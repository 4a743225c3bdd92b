package sandbox

// This file is the contract between the code that changes objects (signature
// requests, templates, accounts) and the events subsystem: emit records an
// event and queues its deliveries (callbacks_route.go); the dispatcher
// (callbacks_dispatch.go) makes them after commit.

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/events"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Event types of the official enum (EventCallbackRequestEvent.event_type).
const (
	evAccountConfirmed     = "account_confirmed"
	evUnknownError         = "unknown_error"
	evFileError            = "file_error"
	evSignURLInvalid       = "sign_url_invalid"
	evRequestViewed        = "signature_request_viewed"
	evRequestSigned        = "signature_request_signed"
	evRequestSent          = "signature_request_sent"
	evRequestAllSigned     = "signature_request_all_signed"
	evRequestEmailBounce   = "signature_request_email_bounce"
	evRequestRemind        = "signature_request_remind"
	evRequestIncompleteQES = "signature_request_incomplete_qes"
	evRequestDestroyed     = "signature_request_destroyed"
	evRequestCanceled      = "signature_request_canceled"
	evRequestDownloadable  = "signature_request_downloadable"
	evRequestDeclined      = "signature_request_declined"
	evRequestReassigned    = "signature_request_reassigned"
	evRequestInvalid       = "signature_request_invalid"
	evRequestPrepared      = "signature_request_prepared"
	evRequestExpired       = "signature_request_expired"
	evTemplateCreated      = "template_created"
	evTemplateError        = "template_error"
	evCallbackTest         = "callback_test"
	evRequestSignerRemoved = "signature_request_signer_removed"
)

// eventTypes is the official enum, in the official order.
var eventTypes = []string{
	evAccountConfirmed, evUnknownError, evFileError, evSignURLInvalid, evRequestViewed, evRequestSigned,
	evRequestSent, evRequestAllSigned, evRequestEmailBounce, evRequestRemind, evRequestIncompleteQES,
	evRequestDestroyed, evRequestCanceled, evRequestDownloadable, evRequestDeclined, evRequestReassigned,
	evRequestInvalid, evRequestPrepared, evRequestExpired, evTemplateCreated, evTemplateError,
	evCallbackTest, evRequestSignerRemoved,
}

// Object types an event can carry (the payload keys they go under).
const (
	objSignatureRequest = events.ObjectSignatureRequest
	objTemplate         = events.ObjectTemplate
	objAccount          = events.ObjectAccount
)

// eventSpec describes one event a change causes.
type eventSpec struct {
	Type string
	// ObjectType and ObjectID name the attached object (none for
	// callback_test).
	ObjectType string
	ObjectID   string
	// AccountIDs are the accounts involved, the sender first: their account
	// callbacks receive the event.
	AccountIDs []string
	// ClientID is the API app the object was made with: its app callback
	// receives the event.
	ClientID           string
	RelatedSignatureID string
	EventMessage       string
}

// primary is the first involved account (the sender or owner): the viewer
// of the event row's object and the account app callbacks report for.
func (ev eventSpec) primary() string {
	if len(ev.AccountIDs) > 0 {
		return ev.AccountIDs[0]
	}
	return ""
}

// objectView renders an object of one type as GET would show it to viewer
// (an account id), for the events that carry it.
type objectView func(tx *state.Txn, id, viewer string) (any, error)

// notifier is what the sandbox tells the outside world, recorded inside
// the changing transaction: event rows and their deliveries, with objects
// rendered by the views of their types.
type notifier struct {
	views map[string]objectView
}

// emit records an event inside tx, with its object rendered as of now, and
// queues one delivery per callback target (see routeEvent). Deliveries are
// attempted only after tx commits; an aborted change emits nothing.
func (n *notifier) emit(tx *state.Txn, ev eventSpec) error {
	_, err := n.emitTo(tx, ev, routeEvent(tx, ev))
	return err
}

// emitTo records an event and queues its deliveries to the given targets:
// emit's routing, or the single target of a callback_test.
func (n *notifier) emitTo(tx *state.Txn, ev eventSpec, targets []callbackTarget) (*state.Event, error) {
	row, views, err := n.recordEvent(tx, ev)
	if err != nil {
		return nil, err
	}
	return row, n.queueDeliveries(tx, row, targets, views)
}

// recordEvent stores the event row. views renders (and caches) the attached
// object for a viewer; the row keeps the rendering for the first involved
// account.
func (n *notifier) recordEvent(tx *state.Txn, ev eventSpec) (*state.Event, *objectCache, error) {
	if !slices.Contains(eventTypes, ev.Type) {
		return nil, nil, fmt.Errorf("emit: unknown event type %q", ev.Type)
	}
	row := &state.Event{
		ID: tx.NewUUID(), Seq: tx.Seq(), Type: ev.Type, Time: tx.Unix(),
		ObjectType: ev.ObjectType, ObjectID: ev.ObjectID, AccountIDs: slices.Clone(ev.AccountIDs), ClientID: ev.ClientID,
		RelatedSignatureID: ev.RelatedSignatureID, EventMessage: ev.EventMessage,
	}
	views := &objectCache{n: n, tx: tx, ev: ev, byViewer: map[string]json.RawMessage{}}
	if ev.ObjectType != "" {
		if n.views[ev.ObjectType] == nil {
			return nil, nil, fmt.Errorf("emit: no view for %s", ev.ObjectType)
		}
		raw, err := views.render(ev.primary())
		if err != nil {
			return nil, nil, err
		}
		row.Object = raw
	}
	if err := state.Put(tx, state.TableEvents, row); err != nil {
		return nil, nil, err
	}
	tx.Notify(state.TopicEvents)
	return row, views, nil
}

// objectCache renders an event's object once per viewer: account callbacks
// get the object as GET shows it to the account they report for.
type objectCache struct {
	n        *notifier
	tx       *state.Txn
	ev       eventSpec
	byViewer map[string]json.RawMessage
}

// render returns the object as viewer sees it. A viewer the object's view
// refuses (no access) gets the primary rendering.
func (o *objectCache) render(viewer string) (json.RawMessage, error) {
	if o.ev.ObjectType == "" {
		return nil, nil
	}
	if raw, ok := o.byViewer[viewer]; ok {
		return raw, nil
	}
	obj, err := o.n.views[o.ev.ObjectType](o.tx, o.ev.ObjectID, viewer)
	if err != nil {
		if viewer != o.ev.primary() {
			return o.render(o.ev.primary())
		}
		return nil, fmt.Errorf("emit %s: %w", o.ev.Type, err)
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("emit %s: %w", o.ev.Type, err)
	}
	o.byViewer[viewer] = raw
	return raw, nil
}
