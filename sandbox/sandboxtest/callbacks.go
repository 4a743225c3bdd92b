package sandboxtest

// Callback helpers: read the world's event and delivery log, wait until the
// due delivery attempts have been made (so tests never sleep), and a
// receiver that records what the sandbox delivers and can be told to fail.
//
//	rcv := sandboxtest.NewReceiver(t)
//	srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": rcv.URL})
//	srv.WaitCallbacks()
//	ev := rcv.Events("callback_test")[0]
//	ok := ev.VerifyHash(srv.APIKey)

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/events"
)

// Callback is one event of GET /_sandbox/callbacks.
type Callback struct {
	ID                 string          `json:"id"`
	EventType          string          `json:"event_type"`
	EventTime          int64           `json:"event_time"`
	ObjectType         string          `json:"object_type"`
	ObjectID           string          `json:"object_id"`
	AccountIDs         []string        `json:"account_ids"`
	ClientID           string          `json:"client_id"`
	RelatedSignatureID string          `json:"related_signature_id"`
	EventMessage       string          `json:"event_message"`
	Object             json.RawMessage `json:"object"`
	// State is pending, delivered, failed, or none (no callback URL).
	State      string             `json:"state"`
	Deliveries []CallbackDelivery `json:"deliveries"`
}

// CallbackDelivery is one target of an event.
type CallbackDelivery struct {
	ID string `json:"id"`
	// Kind is "account" or "app".
	Kind          string            `json:"kind"`
	AccountID     string            `json:"account_id"`
	ClientID      string            `json:"client_id"`
	URL           string            `json:"url"`
	State         string            `json:"state"`
	EventHash     string            `json:"event_hash"`
	NextAttemptAt int64             `json:"next_attempt_at"`
	Waiting       bool              `json:"waiting"`
	Round         int               `json:"round"`
	Attempts      []CallbackAttempt `json:"attempts"`
	Payload       json.RawMessage   `json:"payload"`
}

// CallbackAttempt is one attempt of a delivery.
type CallbackAttempt struct {
	At        int64  `json:"at"`
	Round     int    `json:"round"`
	Status    int    `json:"status"`
	Body      string `json:"body"`
	Error     string `json:"error"`
	Delivered bool   `json:"delivered"`
}

// CallbackFilter narrows Callbacks (see EventType, ObjectID, State).
type CallbackFilter struct{ Key, Value string }

// EventType keeps events of one type.
func EventType(t string) CallbackFilter { return CallbackFilter{"event_type", t} }

// ObjectID keeps the events of one object.
func ObjectID(id string) CallbackFilter { return CallbackFilter{"object_id", id} }

// State keeps events in one state (pending, delivered, failed, none).
func State(s string) CallbackFilter { return CallbackFilter{"state", s} }

// TargetURL keeps events with a delivery to one URL (and only those
// deliveries).
func TargetURL(u string) CallbackFilter { return CallbackFilter{"url", u} }

// Callbacks lists the world's events in order with their deliveries,
// walking every page of the log.
func (s *Server) Callbacks(filters ...CallbackFilter) []Callback {
	s.t.Helper()
	return walk[Callback](s, "/callbacks", callbackQuery(filters), "callbacks")
}

// CallbackStatus is the answer of a wait.
type CallbackStatus struct {
	Settled       bool  `json:"settled"`
	Due           int   `json:"due"`
	Pending       int   `json:"pending"`
	Delivered     int   `json:"delivered"`
	Failed        int   `json:"failed"`
	NextAttemptAt int64 `json:"next_attempt_at"`
}

// WaitCallbacks waits until every delivery attempt due at the world's
// current time has been made and recorded; it fails the test when that
// takes longer than 30 seconds.
func (s *Server) WaitCallbacks() CallbackStatus {
	s.t.Helper()
	var st CallbackStatus
	s.Control(http.MethodPost, "/callbacks/wait", map[string]any{"timeout": "30s"}, &st)
	return st
}

// AdvanceAndWait moves the clock forward by d and then waits for the
// delivery attempts that fell due.
func (s *Server) AdvanceAndWait(d time.Duration) []RanJob {
	s.t.Helper()
	ran := s.Advance(d)
	s.WaitCallbacks()
	return ran
}

// Redeliver queues an event (or one delivery, by its id) again.
func (s *Server) Redeliver(id string) Callback {
	s.t.Helper()
	var out Callback
	s.Control(http.MethodPost, "/callbacks/"+url.PathEscape(id)+"/redeliver", nil, &out)
	return out
}

// Acknowledgement is the body that makes a delivery count.
const Acknowledgement = events.Acknowledgement

// Delivery is one request the receiver got.
type Delivery struct {
	// Path is the request path (with query), useful to tell targets apart
	// when several share a receiver.
	Path        string
	ContentType string
	Header      http.Header
	// Fields are the multipart field names in order (the real service sends
	// exactly one: "json").
	Fields []string
	// JSON is the text of the "json" field.
	JSON string
	// Payload is JSON decoded; Err says why decoding failed.
	Payload map[string]any
	Err     error
	// Status and Body are what the receiver answered.
	Status int
	Body   string
}

// Event returns payload["event"].
func (d Delivery) Event() map[string]any {
	m, _ := d.Payload["event"].(map[string]any)
	return m
}

// Metadata returns payload["event"]["event_metadata"].
func (d Delivery) Metadata() map[string]any {
	m, _ := d.Event()["event_metadata"].(map[string]any)
	return m
}

// EventType is event.event_type.
func (d Delivery) EventType() string { s, _ := d.Event()["event_type"].(string); return s }

// EventTime is event.event_time (a string of Unix seconds).
func (d Delivery) EventTime() string { s, _ := d.Event()["event_time"].(string); return s }

// EventHash is event.event_hash.
func (d Delivery) EventHash() string { s, _ := d.Event()["event_hash"].(string); return s }

// Acked reports whether the receiver acknowledged this delivery.
func (d Delivery) Acked() bool {
	return d.Status == http.StatusOK && strings.Contains(d.Body, Acknowledgement)
}

// VerifyHash checks event_hash as the official SDKs' EventCallbackHelper
// does: HMAC-SHA256 of event_time + event_type keyed with apiKey.
func (d Delivery) VerifyHash(apiKey string) bool {
	return events.Verify(apiKey, d.EventTime(), d.EventType(), d.EventHash())
}

// IsAppCallback classifies the delivery as the SDKs do: an app callback iff
// event_metadata.reported_for_app_id is set.
func (d Delivery) IsAppCallback() bool {
	s, _ := d.Metadata()["reported_for_app_id"].(string)
	return s != ""
}

// Receiver behaviours.
type receiverMode int

const (
	modeAck receiverMode = iota
	modeAnswer
	modeHang
	modeClose
)

// Receiver is a callback endpoint for tests: an httptest server that records
// every request, decodes the multipart "json" field and answers the
// acknowledgement unless told otherwise. It is safe for concurrent use and
// closes itself when the test ends.
type Receiver struct {
	// URL is the receiver's base URL; any path under it is accepted.
	URL string

	srv     *httptest.Server
	mu      sync.Mutex
	got     []Delivery
	mode    receiverMode
	status  int
	body    string
	release chan struct{}
	closed  bool
	// Check, when set, runs on every decoded payload (schema validation).
	check func(d Delivery)
}

// NewReceiver starts a receiver that acknowledges every delivery.
func NewReceiver(t TB) *Receiver {
	t.Helper()
	r := &Receiver{release: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	r.URL = r.srv.URL
	t.Cleanup(r.Close)
	return r
}

// OnDelivery runs fn on every delivery (after decoding, before answering).
func (r *Receiver) OnDelivery(fn func(d Delivery)) {
	r.mu.Lock()
	r.check = fn
	r.mu.Unlock()
}

// Ack makes the receiver acknowledge deliveries (the default).
func (r *Receiver) Ack() { r.setMode(modeAck, 0, "") }

// Answer makes the receiver answer status and body (a failure unless it is
// 200 with the acknowledgement).
func (r *Receiver) Answer(status int, body string) { r.setMode(modeAnswer, status, body) }

// Fail makes the receiver answer 500.
func (r *Receiver) Fail() { r.Answer(http.StatusInternalServerError, "receiver is failing") }

// Hang makes the receiver never answer (until the sandbox gives up on the
// attempt, the mode changes or the receiver closes).
func (r *Receiver) Hang() { r.setMode(modeHang, 0, "") }

// CloseConnections makes the receiver drop each connection without an
// answer (a receiver that is down).
func (r *Receiver) CloseConnections() { r.setMode(modeClose, 0, "") }

func (r *Receiver) setMode(m receiverMode, status int, body string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mode == modeHang && m != modeHang && !r.closed {
		close(r.release)
		r.release = make(chan struct{})
	}
	r.mode, r.status, r.body = m, status, body
}

// Deliveries returns every request received so far, in arrival order.
func (r *Receiver) Deliveries() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Delivery(nil), r.got...)
}

// Events returns the acknowledged deliveries of the given event types (all
// types when none is given), in arrival order.
func (r *Receiver) Events(types ...string) []Delivery {
	var out []Delivery
	for _, d := range r.Deliveries() {
		if !d.Acked() {
			continue
		}
		if len(types) > 0 && !slices.Contains(types, d.EventType()) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// EventTypes lists the event types of the acknowledged deliveries in order.
func (r *Receiver) EventTypes() []string {
	var out []string
	for _, d := range r.Events() {
		out = append(out, d.EventType())
	}
	return out
}

// Close stops the receiver (hanging requests are released).
func (r *Receiver) Close() {
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		close(r.release)
	}
	r.mu.Unlock()
	r.srv.CloseClientConnections()
	r.srv.Close()
}

// maxReceiverBody bounds what the receiver reads of one request.
const maxReceiverBody = 32 << 20

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	d := Delivery{Path: req.URL.RequestURI(), ContentType: req.Header.Get("Content-Type"), Header: req.Header.Clone()}
	raw, err := io.ReadAll(io.LimitReader(req.Body, maxReceiverBody))
	if err == nil {
		d.Fields, d.JSON, err = decodeMultipart(d.ContentType, raw)
	}
	if err == nil {
		err = json.Unmarshal([]byte(d.JSON), &d.Payload)
	}
	d.Err = err

	r.mu.Lock()
	mode, status, body, release, check := r.mode, r.status, r.body, r.release, r.check
	r.mu.Unlock()
	if check != nil {
		check(d)
	}
	switch mode {
	case modeHang:
		d.Status, d.Body = 0, ""
		r.record(d)
		select {
		case <-release:
		case <-req.Context().Done():
		}
		return
	case modeClose:
		r.record(d)
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	case modeAnswer:
		d.Status, d.Body = status, body
	default:
		d.Status, d.Body = http.StatusOK, Acknowledgement
	}
	r.record(d)
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(d.Status)
	_, _ = io.WriteString(w, d.Body)
}

func (r *Receiver) record(d Delivery) {
	r.mu.Lock()
	r.got = append(r.got, d)
	r.mu.Unlock()
}

// decodeMultipart returns the field names and the "json" field of a
// multipart/form-data body.
func decodeMultipart(contentType string, body []byte) ([]string, string, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, "", err
	}
	if mt != "multipart/form-data" {
		return nil, "", fmt.Errorf("content type is %s, not multipart/form-data", mt)
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var fields []string
	var jsonField string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fields, jsonField, err
		}
		fields = append(fields, p.FormName())
		b, err := io.ReadAll(p)
		if err != nil {
			return fields, jsonField, err
		}
		if p.FormName() == events.FormField {
			jsonField = string(b)
		}
	}
	return fields, jsonField, nil
}
