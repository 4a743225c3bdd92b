// Package callnote carries what the sandbox learns while it answers a
// request out to the HTTP server around it, for that server's access log:
// the operation, the world the call reached, and why a refused call was
// refused. The server asks for notes by handing the sandbox a
// ResponseWriter that takes them; the answer itself never changes, so a
// refusal stays the official one while the log says what lay behind it.
package callnote

import "net/http"

// Note is what the sandbox tells the server about one answered request.
type Note struct {
	// Operation is the official operationId of an API call, or the method
	// and route of a control call ("POST /_sandbox/clock/advance").
	Operation string
	// World is the id of the world the call reached ("" when it reached
	// none).
	World string
	// Refusal says in plain words why the call was refused, when the
	// sandbox knows more than its answer tells ("the access token expired
	// on the world clock"). It never holds a credential.
	Refusal string
}

// Taker is a ResponseWriter that wants the note of the request it answers.
type Taker interface {
	TakeNote(Note)
}

// maxWraps bounds the chain of writers Tell walks.
const maxWraps = 8

// Tell hands n to w, or to the first writer w wraps (through Unwrap, as
// http.ResponseController finds them) that takes notes; to none when no
// writer does. It costs two type checks when nobody listens.
func Tell(w http.ResponseWriter, n Note) {
	for range maxWraps {
		switch t := w.(type) {
		case Taker:
			t.TakeNote(n)
			return
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return
		}
	}
}
