package pdf

import (
	"bytes"
	"compress/zlib"
	"io"
)

// pdfcpu decodes the prolog of every object stream while it reads a file,
// before decodeObjectStreams can apply the document's budget. Each prolog
// is capped (maxObjectStreamProlog) but their sum was not: a 400 KB file of
// a thousand object streams, each a few hundred bytes inflating to a
// 256 KiB prolog, cost 1.7 s of CPU and 655 MB of heap to read. The limits
// below bound what those prologs may decode to together, from the raw bytes
// and before pdfcpu parses anything.
const (
	// prologFactor is how many times its size a document's object stream
	// prologs may decode to together, within the bounds below. Real
	// prologs hold about 12 bytes per object, far less than the objects.
	prologFactor = 2
	// minPrologBudget is what any document's prologs may decode to.
	minPrologBudget = 4 << 20
	// maxPrologBudget bounds what any document's prologs decode to.
	maxPrologBudget = 32 << 20
	// objectStreamOverhead is what reading one object stream is charged
	// beyond its prolog: each one costs a decompressor, so that many tiny
	// object streams count too.
	objectStreamOverhead = 4 << 10
)

// prologBudget is what the object stream prologs of a document of size
// bytes may decode to in all.
func prologBudget(size int64) int64 {
	return min(max(prologFactor*size, minPrologBudget), maxPrologBudget)
}

// checkObjectStreamPrologs refuses a PDF whose object streams' prologs
// (as their dictionaries declare them by /First) would decode to more than
// its prolog budget. It scans the raw bytes once: every stream keyword
// ends a window since the previous one, whose last "obj" starts the
// stream's dictionary; the windows do not overlap, so the scan is linear.
// A window starts after the last endobj that pdfcpu would take for one
// (followed by white space), so that objects before the stream's do not
// count, while names in the dictionary cannot hide its entries.
// A dictionary that names /Type/ObjStm (with any spacing, ordering or #xx
// escapes) is charged its /First, or the largest prolog pdfcpu allows when
// /First cannot be read; counting a dictionary that is not really an object
// stream only errs on the safe side.
func checkObjectStreamPrologs(data []byte) error {
	budget := prologBudget(int64(len(data)))
	var total int64
	from := 0
	for {
		i := bytes.Index(data[from:], []byte("stream"))
		if i < 0 {
			return nil
		}
		end := from + i
		window := data[from:end]
		from = end + len("stream")
		if bytes.HasSuffix(window, []byte("end")) {
			continue // endstream closes a stream; the next window starts after it
		}
		window = afterLastEndobj(window)
		if !bytes.Contains(window, []byte("ObjStm")) && !bytes.Contains(window, []byte("XRef")) && !bytes.Contains(window, []byte("#")) {
			continue
		}
		window = unescapeNames(window) // once: both checks below read names
		if nameValueIs(window, "/Type", "/XRef") {
			// pdfcpu inflates every cross-reference stream it follows
			// (through /Prev too) while it reads; charge what each really
			// inflates to, inflating it here no further than the budget.
			total += xrefStreamSize(data[from:], budget-total+1) + objectStreamOverhead
			if total > budget {
				return fileErr(ReasonTooLarge, "The PDF's cross-reference streams decode to more than %d MiB, more than a PDF of its size may have.",
					budget>>20)
			}
			continue
		}
		prolog, ok := objectStreamProlog(window)
		if !ok {
			continue
		}
		total += prolog + objectStreamOverhead
		if total > budget {
			return fileErr(ReasonTooLarge, "The PDF's object streams declare object tables of more than %d MiB, more than a PDF of its size may have.",
				budget>>20)
		}
	}
}

// afterLastEndobj is what follows the last endobj keyword of b that is
// followed by white space, or b.
func afterLastEndobj(b []byte) []byte {
	for end := len(b); ; {
		i := bytes.LastIndex(b[:end], []byte("endobj"))
		if i < 0 {
			return b
		}
		if j := i + len("endobj"); j < len(b) && isPDFSpace(b[j]) {
			return b[j:]
		}
		end = i
	}
}

// objectStreamProlog reports whether d, the text of a stream's dictionary
// with its names unescaped, makes it an object stream, and how many bytes
// pdfcpu would decode of its prolog.
func objectStreamProlog(d []byte) (int64, bool) {
	if !nameValueIs(d, "/Type", "/ObjStm") {
		return 0, false
	}
	first, ok := intValue(d, "/First")
	if !ok || first < 0 || first > maxObjectStreamProlog {
		return maxObjectStreamProlog, true
	}
	return first, true
}

// unescapeNames replaces every #xx escape (a byte in hex, as names may
// spell any character) by its byte.
func unescapeNames(b []byte) []byte {
	if bytes.IndexByte(b, '#') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) {
			if h, ok := hexByte(b[i+1], b[i+2]); ok {
				out = append(out, h)
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

func hexByte(a, b byte) (byte, bool) {
	x, ok1 := hexDigit(a)
	y, ok2 := hexDigit(b)
	return x<<4 | y, ok1 && ok2
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// isPDFSpace reports whether c is PDF white space.
func isPDFSpace(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\f', '\r', ' ':
		return true
	}
	return false
}

// isNameEnd reports whether c ends a name: white space or a delimiter.
func isNameEnd(c byte) bool {
	return isPDFSpace(c) || bytes.IndexByte([]byte("()<>[]{}/%"), c) >= 0
}

// valuesOf calls fn with what follows each occurrence of the name key in d
// (the key whole, not a prefix of a longer name), white space skipped.
func valuesOf(d []byte, key string, fn func(rest []byte) bool) {
	for from := 0; ; {
		i := bytes.Index(d[from:], []byte(key))
		if i < 0 {
			return
		}
		rest := d[from+i+len(key):]
		from += i + len(key)
		if len(rest) > 0 && !isNameEnd(rest[0]) {
			continue
		}
		for len(rest) > 0 && isPDFSpace(rest[0]) {
			rest = rest[1:]
		}
		if fn(rest) {
			return
		}
	}
}

// nameValueIs reports whether some key in d has the name value.
func nameValueIs(d []byte, key, value string) bool {
	found := false
	valuesOf(d, key, func(rest []byte) bool {
		found = bytes.HasPrefix(rest, []byte(value)) && (len(rest) == len(value) || isNameEnd(rest[len(value)]))
		return found
	})
	return found
}

// intValue is the largest direct integer value of key in d; a value that
// is not a plain integer (a reference included) makes it unknown.
func intValue(d []byte, key string) (int64, bool) {
	var largest int64
	ok, seen := true, false
	valuesOf(d, key, func(rest []byte) bool {
		var n int64
		digits := 0
		for digits < len(rest) && digits < 12 && '0' <= rest[digits] && rest[digits] <= '9' {
			n = n*10 + int64(rest[digits]-'0')
			digits++
		}
		if digits == 0 || digits == 12 || (digits < len(rest) && !isNameEnd(rest[digits])) || isReference(rest[digits:]) {
			ok = false
			return true
		}
		seen = true
		largest = max(largest, n)
		return false
	})
	return largest, ok && seen
}

// isReference reports whether rest, which follows an integer, continues it
// into a reference ("5 0 R").
func isReference(rest []byte) bool {
	spaces := func() int {
		n := 0
		for n < len(rest) && isPDFSpace(rest[n]) {
			n++
		}
		return n
	}
	n := spaces()
	if n == 0 {
		return false
	}
	rest = rest[n:]
	digits := 0
	for digits < len(rest) && '0' <= rest[digits] && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 {
		return false
	}
	rest = rest[digits:]
	n = spaces()
	return n > 0 && n < len(rest) && rest[n] == 'R'
}

// xrefStreamSize is how many bytes the stream whose data starts after the
// stream keyword at the head of rest decodes to, counted up to limit:
// inflated when it is zlib data, its raw length otherwise (a stream that
// does not inflate is refused by the reader anyway). The data ends at the
// next endstream keyword, or at the end of the file.
func xrefStreamSize(rest []byte, limit int64) int64 {
	if len(rest) > 0 && rest[0] == '\r' {
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0] == '\n' {
		rest = rest[1:]
	}
	if end := bytes.Index(rest, []byte("endstream")); end >= 0 {
		rest = rest[:end]
	}
	zr, err := zlib.NewReader(bytes.NewReader(rest))
	if err != nil {
		return int64(len(rest))
	}
	defer zr.Close()
	n, _ := io.Copy(io.Discard, io.LimitReader(zr, limit))
	return max(n, int64(len(rest)))
}
