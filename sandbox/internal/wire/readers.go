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
// goes back: the bytes it buffered stay in its array until overwritten,
// but nothing can read them any more (the scratch buffers, which are
// read from by offset, are wiped instead).
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

// scratchBytes is the size of the pooled buffer a part or body is read into
// first: text fields, JSON bodies and small uploads (a one-page PDF) fit, so
// their reading allocates only the value it keeps.
const scratchBytes = 32 << 10

// scratch is one borrowed read buffer; used is how much of it has held a
// request's bytes, wiped before it goes back.
type scratch struct {
	buf  [scratchBytes]byte
	used int
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

func borrowScratch() *scratch { return scratches.Get().(*scratch) }

// release wipes what the scratch held and puts it back: nothing of this
// request survives into the buffer the next one borrows.
func (s *scratch) release() {
	s.wipe()
	scratches.Put(s)
}

// wipe zeroes every byte the scratch has held.
func (s *scratch) wipe() {
	clear(s.buf[:s.used])
	s.used = 0
}

// read reads r to its end. The answer aliases the scratch buffer (valid
// until the next read or release) when inScratch; a read longer than the
// buffer is gathered in chunks and copied once into a fresh slice of exactly
// its size, so that no buffer is kept at the capacity io.ReadAll grows to
// (up to twice the data), and a body declaring more than it sends costs only
// what it sent.
func (s *scratch) read(r io.Reader) (data []byte, inScratch bool, err error) {
	n, err := s.fill(r)
	if err == io.EOF {
		return s.buf[:n], true, nil
	}
	if err != nil {
		return nil, false, err
	}
	chunks := [][]byte{s.buf[:n]}
	total, size := n, min(scratchBytes, maxChunk)
	for {
		buf := make([]byte, size)
		size = min(2*size, maxChunk)
		n := 0
		for n < len(buf) && err == nil {
			var m int
			m, err = r.Read(buf[n:])
			n += m
		}
		if n > 0 {
			chunks = append(chunks, buf[:n])
			total += n
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, false, nil
}

// fill reads r into the scratch until the scratch is full (err nil), r
// ends (io.EOF) or r fails: the first n bytes of the scratch hold what was
// read.
func (s *scratch) fill(r io.Reader) (n int, err error) {
	for n < len(s.buf) && err == nil {
		var m int
		m, err = r.Read(s.buf[n:])
		n += m
	}
	s.used = max(s.used, n)
	return n, err
}

// readExact reads r to its end into a fresh slice of exactly the size
// read: an upload is kept in a buffer of its size (issue 11).
func (s *scratch) readExact(r io.Reader) ([]byte, error) {
	data, inScratch, err := s.read(r)
	if err != nil || !inScratch {
		return data, err
	}
	out := make([]byte, len(data))
	copy(out, data)
	return out, nil
}

// readString reads r to its end as text.
func (s *scratch) readString(r io.Reader) (string, error) {
	data, _, err := s.read(r)
	return string(data), err
}

// replayReader is a body of which head has been read already, and the read
// stopped by err (nil if it did not): it gives back head, then err, then
// the rest of the body, so that a reader handed it sees the body exactly as
// it came.
type replayReader struct {
	head []byte
	err  error
	rest io.Reader
}

func (r *replayReader) Read(p []byte) (int, error) {
	if len(r.head) > 0 {
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	}
	if r.err != nil {
		err := r.err
		r.err = nil
		return 0, err
	}
	return r.rest.Read(p)
}
