package callnote

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

type taker struct {
	http.ResponseWriter
	got []Note
}

func (t *taker) TakeNote(n Note) { t.got = append(t.got, n) }

type wrapper struct{ http.ResponseWriter }

func (w wrapper) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Tell reaches a taker through writers that wrap it, and does nothing
// when no writer in the chain takes notes.
func TestTellFindsTheTakerThroughWrappers(t *testing.T) {
	tk := &taker{ResponseWriter: httptest.NewRecorder()}
	n := Note{Operation: "accountGet", World: "default"}
	Tell(wrapper{wrapper{tk}}, n)
	assert.Equal(t, []Note{n}, tk.got)

	Tell(httptest.NewRecorder(), n)
	Tell(wrapper{httptest.NewRecorder()}, n)

	var loop wrapper
	loop.ResponseWriter = wrapper{wrapper{wrapper{wrapper{wrapper{wrapper{wrapper{wrapper{wrapper{tk}}}}}}}}}
	Tell(loop, n)
	assert.Len(t, tk.got, 1, "a chain longer than maxWraps is not walked to its end")
}
