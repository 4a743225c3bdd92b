package notify

// This file is the contract between the code that changes objects (signature
// requests, templates, accounts) and the events subsystem: Emit records an
// event and queues its deliveries (route.go); the delivery worker of
// package callbacks (dispatch.go) makes them after commit.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/events"
	"github.com/signsandbox/signsandbox/sandbox/internal/jsonenc"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Event types of the official enum (EventCallbackRequestEvent.event_type).
const (
	TypeAccountConfirmed     = "account_confirmed"
	TypeUnknownError         = "unknown_error"
	TypeFileError            = "file_error"
	TypeSignURLInvalid       = "sign_url_invalid"
	TypeRequestViewed        = "signature_request_viewed"
	TypeRequestSigned        = "signature_request_signed"
	TypeRequestSent          = "signature_request_sent"
	TypeRequestAllSigned     = "signature_request_all_signed"
	TypeRequestEmailBounce   = "signature_request_email_bounce"
	TypeRequestRemind        = "signature_request_remind"
	TypeRequestIncompleteQES = "signature_request_incomplete_qes"
	TypeRequestDestroyed     = "signature_request_destroyed"
	TypeRequestCanceled      = "signature_request_canceled"
	TypeRequestDownloadable  = "signature_request_downloadable"
	TypeRequestDeclined      = "signature_request_declined"
	TypeRequestReassigned    = "signature_request_reassigned"
	TypeRequestInvalid       = "signature_request_invalid"
	TypeRequestPrepared      = "signature_request_prepared"
	TypeRequestExpired       = "signature_request_expired"
	TypeTemplateCreated      = "template_created"
	TypeTemplateError        = "template_error"
	TypeCallbackTest         = "callback_test"
	TypeRequestSignerRemoved = "signature_request_signer_removed"
)

// Types is the official enum, in the official order.
var Types = []string{
	TypeAccountConfirmed, TypeUnknownError, TypeFileError, TypeSignURLInvalid, TypeRequestViewed, TypeRequestSigned,
	TypeRequestSent, TypeRequestAllSigned, TypeRequestEmailBounce, TypeRequestRemind, TypeRequestIncompleteQES,
	TypeRequestDestroyed, TypeRequestCanceled, TypeRequestDownloadable, TypeRequestDeclined, TypeRequestReassigned,
	TypeRequestInvalid, TypeRequestPrepared, TypeRequestExpired, TypeTemplateCreated, TypeTemplateError,
	TypeCallbackTest, TypeRequestSignerRemoved,
}

// knownTypes is Types as a set: every event emitted is checked against it.
var knownTypes = func() map[string]bool {
	m := make(map[string]bool, len(Types))
	for _, t := range Types {
		m[t] = true
	}
	return m
}()

// Object types an event can carry (the payload keys they go under).
const (
	ObjectSignatureRequest = events.ObjectSignatureRequest
	ObjectTemplate         = events.ObjectTemplate
	ObjectAccount          = events.ObjectAccount
)

// Event describes one event a change causes.
type Event struct {
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
func (ev Event) primary() string {
	if len(ev.AccountIDs) > 0 {
		return ev.AccountIDs[0]
	}
	return ""
}

// Notifier is what the sandbox tells the outside world, recorded inside
// the changing transaction: event rows and their deliveries, with objects
// rendered as GET shows them, by the catalog's kind of their object type.
type Notifier struct {
	Catalog *catalog.Catalog
}

// Emit records an event inside tx, with its object rendered as of now, and
// queues one delivery per callback target (see Route). Deliveries are
// attempted only after tx commits; an aborted change emits nothing.
func (n *Notifier) Emit(tx *state.Txn, ev Event) error {
	_, err := n.EmitTo(tx, ev, Route(tx, ev))
	return err
}

// EmitTo records an event and queues its deliveries to the given targets:
// emit's routing, or the single target of a callback_test.
func (n *Notifier) EmitTo(tx *state.Txn, ev Event, targets []Target) (*model.Event, error) {
	// The cache lives on this frame: every event needs one, few a map.
	views := objectCache{n: n, tx: tx, ev: ev}
	row, err := n.recordEvent(tx, ev, &views)
	if err != nil {
		return nil, err
	}
	return row, n.queueDeliveries(tx, row, targets, &views)
}

// recordEvent stores the event row. views renders (and caches) the attached
// object for a viewer; the row keeps the rendering for the first involved
// account.
func (n *Notifier) recordEvent(tx *state.Txn, ev Event, views *objectCache) (*model.Event, error) {
	if !knownTypes[ev.Type] {
		return nil, fmt.Errorf("emit: unknown event type %q", ev.Type)
	}
	row := &model.Event{
		ID: tx.NewUUID(), Seq: tx.Seq(), Type: ev.Type, Time: tx.Unix(),
		ObjectType: ev.ObjectType, ObjectID: ev.ObjectID, AccountIDs: slices.Clone(ev.AccountIDs), ClientID: ev.ClientID,
		RelatedSignatureID: ev.RelatedSignatureID, EventMessage: ev.EventMessage,
	}
	if ev.ObjectType != "" {
		if !n.Catalog.Has(ev.ObjectType) {
			return nil, fmt.Errorf("emit: no view for %s", ev.ObjectType)
		}
		raw, err := views.render(ev.primary())
		if err != nil {
			return nil, err
		}
		row.Object = raw
	}
	if err := state.AddEvent(tx, row); err != nil {
		return nil, err
	}
	tx.Notify(state.TopicEvents)
	return row, nil
}

// objectCache renders an event's object once per viewer: account callbacks
// get the object as GET shows it to the account they report for. The
// first rendering (the primary's, for the event row) is kept apart, so
// that the many events without a callback target need no map.
type objectCache struct {
	n     *Notifier
	tx    *state.Txn
	ev    Event
	first struct {
		viewer string
		raw    json.RawMessage
		ok     bool
	}
	byViewer map[string]json.RawMessage
}

// render returns the object as viewer sees it. A viewer the object's view
// refuses (no access) gets the primary rendering.
func (o *objectCache) render(viewer string) (json.RawMessage, error) {
	if o.ev.ObjectType == "" {
		return nil, nil
	}
	if o.first.ok && o.first.viewer == viewer {
		return o.first.raw, nil
	}
	if raw, ok := o.byViewer[viewer]; ok {
		return raw, nil
	}
	obj, err := o.n.Catalog.GetFor(o.tx, o.ev.ObjectType, o.ev.ObjectID, viewer)
	if err != nil {
		if viewer != o.ev.primary() {
			return o.render(o.ev.primary())
		}
		return nil, fmt.Errorf("emit %s: %w", o.ev.Type, err)
	}
	raw, err := marshalObject(obj)
	if err != nil {
		return nil, fmt.Errorf("emit %s: %w", o.ev.Type, err)
	}
	switch {
	case !o.first.ok:
		o.first.viewer, o.first.raw, o.first.ok = viewer, raw, true
	case o.byViewer == nil:
		o.byViewer = map[string]json.RawMessage{viewer: raw}
	default:
		o.byViewer[viewer] = raw
	}
	return raw, nil
}

// marshalObject gives json.Marshal's bytes (and errors) for an event's
// object, in a slice of their own (the event row and its deliveries keep
// it). A view that writes itself (jsonenc.Appender: a signature request)
// is written straight into a pooled buffer: json.Marshal would call its
// MarshalJSON and then read the whole output again to check and compact
// it, which was a sixth of the CPU a clock advance spent per processed
// request.
func marshalObject(obj any) (json.RawMessage, error) {
	enc := jsonenc.Get()
	defer enc.Release()
	b, err := enc.Encode(obj)
	if err != nil {
		if _, ok := obj.(jsonenc.Appender); ok {
			// The error json.Marshal reports for a failing MarshalJSON.
			err = &json.MarshalerError{Type: reflect.TypeOf(obj), Err: err}
		}
		return nil, err
	}
	checkObject(b)
	return append(json.RawMessage(nil), b...), nil
}
