package jsonenc

import (
	"bytes"
	"encoding/json"
	"sync"
)

// Encoder encodes answers into a buffer that outlives the request:
// json.Marshal copies every answer out of its own pooled buffer into a new
// slice, which was a third of the bytes a GET by id allocated and half of
// a list page's.
type Encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
	// out holds the answers of Appenders, which write their own bytes.
	out []byte
}

// MaxPooled bounds the buffers kept for reuse: one large answer (a
// data URI of a big file) must not stay in memory for every later small one.
const MaxPooled = 64 << 10

var responseEncoders = sync.Pool{New: func() any {
	e := &Encoder{}
	e.enc = json.NewEncoder(&e.buf)
	// json.Marshal escapes <, > and & as \u003c, \u003e and \u0026; the
	// answers keep those bytes (golden files pin them).
	e.enc.SetEscapeHTML(true)
	return e
}}

// Get takes an encoder from the pool; Release gives it back.
func Get() *Encoder { return responseEncoders.Get().(*Encoder) }

// Encode returns the bytes json.Marshal would give for v. They are valid
// until Release. An Appender writes itself; anything else goes through
// encoding/json.
func (e *Encoder) Encode(v any) ([]byte, error) {
	if a, ok := v.(Appender); ok {
		out, err := a.AppendJSON(e.out[:0])
		e.out = out[:0]
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	// Encode ends the value with a newline; Marshal does not.
	return bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), nil
}

// Release returns the encoder for reuse, unless one of its buffers grew
// large.
func (e *Encoder) Release() {
	if e.buf.Cap() > MaxPooled || cap(e.out) > MaxPooled {
		return
	}
	e.buf.Reset()
	responseEncoders.Put(e)
}
