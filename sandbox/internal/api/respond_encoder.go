package api

import (
	"bytes"
	"encoding/json"
	"sync"
)

// ResponseEncoder encodes answers into a buffer that outlives the request:
// json.Marshal copies every answer out of its own pooled buffer into a new
// slice, which was a third of the bytes a GET by id allocated and half of
// a list page's.
type ResponseEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// MaxPooledResponse bounds the buffers kept for reuse: one large answer (a
// data URI of a big file) must not stay in memory for every later small one.
const MaxPooledResponse = 64 << 10

var responseEncoders = sync.Pool{New: func() any {
	e := &ResponseEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	// json.Marshal escapes <, > and & as \u003c, \u003e and \u0026; the
	// answers keep those bytes (golden files pin them).
	e.enc.SetEscapeHTML(true)
	return e
}}

func GetEncoder() *ResponseEncoder { return responseEncoders.Get().(*ResponseEncoder) }

// encode answers the bytes json.Marshal would give for v. They are valid
// until release.
func (e *ResponseEncoder) Encode(v any) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	// Encode ends the value with a newline; Marshal does not.
	return bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), nil
}

// release returns the encoder for reuse, unless its buffer grew large.
func (e *ResponseEncoder) Release() {
	if e.buf.Cap() > MaxPooledResponse {
		return
	}
	e.buf.Reset()
	responseEncoders.Put(e)
}
