package wire

import (
	"bufio"
	"io"
	"sync"
)

// bodyReaders keeps the buffered readers multipart bodies are read through:
// a send would otherwise allocate a 4 KB buffer that is garbage as soon as
// the body is read, and with a large world every byte of garbage costs
// marking time. A reader is only ever lent for one body and reset before it
// goes back, so that no request's bytes can reach another.
var bodyReaders = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// borrowBodyReader answers a buffered reader of r; give it back with
// returnBodyReader once nothing reads from it any more.
func borrowBodyReader(r io.Reader) *bufio.Reader {
	br := bodyReaders.Get().(*bufio.Reader)
	br.Reset(r)
	return br
}

// returnBodyReader forgets what br buffered and where it read from, and
// puts it back for the next body.
func returnBodyReader(br *bufio.Reader) {
	br.Reset(nil)
	bodyReaders.Put(br)
}
