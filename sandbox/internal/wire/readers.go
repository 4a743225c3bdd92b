package wire

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"strings"
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
	chunks, total, err := gather(r, [][]byte{s.buf[:n]}, n)
	if err != nil {
		return nil, false, err
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, false, nil
}

// readSized is read for a body that declares its length (size; -1 when it
// does not): one longer than the scratch is read into a slice of exactly
// that size, with no chunks to gather and copy. The reader (a body cut to
// its declared length) may still end early or fail.
func (s *scratch) readSized(r io.Reader, size int64) (data []byte, inScratch bool, err error) {
	if size <= scratchBytes {
		return s.read(r)
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // shorter than it said
		}
		return nil, false, err
	}
	// Nothing may follow the declared length (a request's body ends
	// there; a reader handed in by a caller might not).
	var probe [1]byte
	if n, err := r.Read(probe[:]); n > 0 || (err != nil && err != io.EOF) {
		if err == nil || err == io.EOF {
			err = errors.New("the body is longer than its Content-Length")
		}
		return nil, false, err
	}
	return buf, false, nil
}

// ReadRaw reads a request's body as it came, up to max bytes: one that
// declares more is refused before any of it is read, one of a declared
// length is read into a slice of exactly that length, and one without
// (chunked) is read in chunks, cut at max. A body too large is an
// *http.MaxBytesError.
func ReadRaw(r *http.Request, max int64) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if r.ContentLength > max {
		return nil, &http.MaxBytesError{Limit: max}
	}
	s := borrowScratch()
	defer s.release()
	data, inScratch, err := s.readSized(http.MaxBytesReader(nil, r.Body, max), r.ContentLength)
	if err != nil {
		return nil, err
	}
	if inScratch {
		data = append([]byte(nil), data...)
	}
	return data, nil
}

// gather reads the rest of r in chunks (each twice the last, up to
// maxChunk) after the ones read already, which hold total bytes.
func gather(r io.Reader, chunks [][]byte, total int) ([][]byte, int, error) {
	size := min(scratchBytes, maxChunk)
	for {
		buf := make([]byte, size)
		size = min(2*size, maxChunk)
		n := 0
		var err error
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
			return chunks, total, nil
		}
		if err != nil {
			return nil, 0, err
		}
	}
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

// readString reads r to its end as text. Text longer than the scratch is
// gathered in chunks and built once into its string, never held a third
// time as one contiguous copy of the chunks.
func (s *scratch) readString(r io.Reader) (string, error) {
	n, err := s.fill(r)
	if err == io.EOF {
		return string(s.buf[:n]), nil
	}
	if err != nil {
		return "", err
	}
	chunks, total, err := gather(r, [][]byte{s.buf[:n]}, n)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(total)
	for _, c := range chunks {
		b.Write(c)
	}
	return b.String(), nil
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
