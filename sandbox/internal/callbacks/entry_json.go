package callbacks

import (
	"bytes"
	"encoding/json"
)

// callbackEntryHead is callbackEntry up to its stored object: the fields
// json.Marshal writes before "object", in the same order with the same tags.
type callbackEntryHead struct {
	ID                 string   `json:"id"`
	EventType          string   `json:"event_type"`
	EventTime          int64    `json:"event_time"`
	ObjectType         string   `json:"object_type,omitempty"`
	ObjectID           string   `json:"object_id,omitempty"`
	AccountIDs         []string `json:"account_ids,omitempty"`
	ClientID           string   `json:"client_id,omitempty"`
	RelatedSignatureID string   `json:"related_signature_id,omitempty"`
	EventMessage       string   `json:"event_message,omitempty"`
}

// jsonWriter writes a page of the log by hand around the stored JSON into
// out, sized once; an encoder writes the plain fields into scratch first.
type jsonWriter struct {
	out     []byte
	scratch bytes.Buffer
	enc     *json.Encoder
}

func newJSONWriter(size int) *jsonWriter {
	w := &jsonWriter{out: make([]byte, 0, size)}
	w.enc = json.NewEncoder(&w.scratch)
	return w
}

// openObject writes v, a struct, as json.Marshal does but without its
// closing brace, so that more fields can follow.
func (w *jsonWriter) openObject(v any) error {
	return w.encode(v, len("}\n")) // Encode ends with a newline
}

// value writes v as json.Marshal does.
func (w *jsonWriter) value(v any) error { return w.encode(v, len("\n")) }

func (w *jsonWriter) encode(v any, drop int) error {
	w.scratch.Reset()
	if err := w.enc.Encode(v); err != nil {
		return err
	}
	b := w.scratch.Bytes()
	w.out = append(w.out, b[:len(b)-drop]...)
	return nil
}

// write writes literal JSON text.
func (w *jsonWriter) write(s string) { w.out = append(w.out, s...) }

// stored writes a stored JSON value (see appendStoredJSON).
func (w *jsonWriter) stored(raw []byte) { w.out = appendStoredJSON(w.out, raw) }

// size estimates the bytes of an entry, to size a page's buffer.
func (e *callbackEntry) size() int {
	n := 512 + len(e.Object)
	for _, d := range e.Deliveries {
		n += 512 + len(d.Payload) + 128*len(d.Attempts)
	}
	return n
}

// writeJSON writes the entry exactly as json.Marshal writes it, with the
// stored object and payloads copied through appendStoredJSON instead of
// being validated again by encoding/json.
func (e *callbackEntry) writeJSON(w *jsonWriter) error {
	err := w.openObject(callbackEntryHead{ID: e.ID, EventType: e.EventType, EventTime: e.EventTime,
		ObjectType: e.ObjectType, ObjectID: e.ObjectID, AccountIDs: e.AccountIDs, ClientID: e.ClientID,
		RelatedSignatureID: e.RelatedSignatureID, EventMessage: e.EventMessage})
	if err != nil {
		return err
	}
	// "id" always leads, so every further field follows a comma.
	if len(e.Object) > 0 {
		w.write(`,"object":`)
		w.stored(e.Object)
	}
	w.write(`,"state":`)
	if err := w.value(e.State); err != nil {
		return err
	}
	w.write(`,"deliveries":[`)
	for i := range e.Deliveries {
		if i > 0 {
			w.write(",")
		}
		if err := e.Deliveries[i].writeJSON(w); err != nil {
			return err
		}
	}
	w.write("]}")
	return nil
}

// writeJSON writes the delivery exactly as json.Marshal writes it.
func (d *deliveryView) writeJSON(w *jsonWriter) error {
	err := w.openObject(d.deliveryHead)
	if err != nil {
		return err
	}
	w.write(`,"payload":`)
	w.stored(d.Payload)
	w.write("}")
	return nil
}
