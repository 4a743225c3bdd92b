package sandbox

// This file is the contract between the code that changes objects (signature
// requests, templates, accounts) and the events subsystem. The Callbacks work
// (issue 6) owns it: routing, event_hash, delivery and retries hang off emit.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

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

// Object types an event can carry.
const (
	objSignatureRequest = "signature_request"
	objTemplate         = "template"
	objAccount          = "account"
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

// objectViews render an event's object as GET would show it to viewer (an
// account id). Signature requests, templates and accounts register theirs.
var objectViews = map[string]func(s *Sandbox, tx *state.Txn, id, viewer string) (any, error){}

// emit records an event inside tx, with its object rendered as of now. It is
// delivered only after tx commits; an aborted change emits nothing.
func (s *Sandbox) emit(tx *state.Txn, ev eventSpec) error {
	if !slices.Contains(eventTypes, ev.Type) {
		return fmt.Errorf("emit: unknown event type %q", ev.Type)
	}
	row := &state.Event{
		ID: tx.NewUUID(), Seq: tx.Seq(), Type: ev.Type, Time: tx.Unix(),
		ObjectType: ev.ObjectType, ObjectID: ev.ObjectID, AccountIDs: ev.AccountIDs, ClientID: ev.ClientID,
		RelatedSignatureID: ev.RelatedSignatureID, EventMessage: ev.EventMessage,
	}
	if ev.ObjectType != "" {
		view := objectViews[ev.ObjectType]
		if view == nil {
			return fmt.Errorf("emit: no view for %s", ev.ObjectType)
		}
		viewer := ""
		if len(ev.AccountIDs) > 0 {
			viewer = ev.AccountIDs[0]
		}
		obj, err := view(s, tx, ev.ObjectID, viewer)
		if err != nil {
			return fmt.Errorf("emit %s: %w", ev.Type, err)
		}
		raw, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		row.Object = raw
	}
	if err := state.Put(tx, state.TableEvents, row); err != nil {
		return err
	}
	tx.Notify(state.TopicEvents)
	return nil
}

func init() {
	control(http.MethodGet, "/callbacks", controlListCallbacks)
}

// callbackEntry is one event in GET /_sandbox/callbacks.
type callbackEntry struct {
	ID                 string          `json:"id"`
	EventType          string          `json:"event_type"`
	EventTime          int64           `json:"event_time"`
	ObjectType         string          `json:"object_type,omitempty"`
	ObjectID           string          `json:"object_id,omitempty"`
	RelatedSignatureID string          `json:"related_signature_id,omitempty"`
	EventMessage       string          `json:"event_message,omitempty"`
	Object             json.RawMessage `json:"object,omitempty"`
}

// controlListCallbacks lists the world's events in order, optionally only of
// one event_type and/or object_id.
func controlListCallbacks(c *call) (any, error) {
	q := c.r.URL.Query()
	tx := c.read()
	rows, err := state.All[state.Event](tx, state.TableEvents, state.IndexSeq)
	if err != nil {
		return nil, err
	}
	out := []callbackEntry{}
	for _, e := range rows {
		if t := q.Get("event_type"); t != "" && e.Type != t {
			continue
		}
		if id := q.Get("object_id"); id != "" && e.ObjectID != id {
			continue
		}
		out = append(out, callbackEntry{ID: e.ID, EventType: e.Type, EventTime: e.Time, ObjectType: e.ObjectType, ObjectID: e.ObjectID,
			RelatedSignatureID: e.RelatedSignatureID, EventMessage: e.EventMessage, Object: e.Object})
	}
	return map[string]any{"callbacks": out}, nil
}
