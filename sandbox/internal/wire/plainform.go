package wire

import (
	"bytes"
	"errors"
	"unsafe"
)

// plainForm splits a multipart body that is wholly in memory and has the
// plain shape the official SDKs, curl and Go's own writer send: it starts
// with its boundary line, every part has a Content-Disposition of
// `form-data; name="..."` (with `; filename="..."` for a file) and at most
// a Content-Type, every line ends in CRLF, the names hold no quote,
// backslash or non-ASCII byte, and the body ends with its closing boundary.
// Such a body means exactly what mime/multipart makes of it
// (FuzzPlainFormMatchesMultipart checks that); reading it in place spares
// the reader, header maps and parameter maps mime/multipart allocates per
// body and per part. Any other body is not plain and goes through
// mime/multipart, which alone decides how it is read or refused.
type plainForm struct {
	rest []byte
	// delim is CRLF "--" boundary: what ends a part's data.
	delim []byte
	// closed is set once the closing boundary has been read.
	closed bool
	// partsWithoutFilename counts the parts without a filename: at most that
	// many text values go into the body's Order.
	partsWithoutFilename int
	// sharedTextBytes sums what readPlainForm copies into the backing of
	// the strings a request keeps (sharedBytesOf): its exact size.
	sharedTextBytes int
	// nameBytes sums the names of the named parts: the exact size of the
	// backing of the names.
	nameBytes int
}

// formPart is one part of a plain form, as slices of the body.
type formPart struct {
	name, filename, contentType, data []byte
}

// splitPlainForm answers the parts of raw when raw is a plain form (see
// plainForm); ok is false for any other body.
func splitPlainForm(raw []byte, boundary string) (form plainForm, ok bool) {
	delim := []byte("\r\n--" + boundary)
	open := delim[2:]
	if !bytes.HasPrefix(raw, open) || !bytes.HasPrefix(raw[len(open):], crlf) {
		return plainForm{}, false
	}
	form = plainForm{rest: raw[len(open)+len(crlf):], delim: delim}
	for check := form; ; {
		p, done, ok := check.next()
		if !ok {
			return plainForm{}, false
		}
		if done {
			return form, true
		}
		if len(p.filename) == 0 {
			form.partsWithoutFilename++
		}
		form.sharedTextBytes += sharedBytesOf(p)
		form.nameBytes += len(p.name)
	}
}

// sharedBytesOf is what readPlainForm copies of p into the backing of the
// strings a request keeps: a file's name and type, a text value that
// shares it (sharesBacking).
func sharedBytesOf(p formPart) int {
	switch {
	case len(p.name) == 0:
		return 0
	case len(p.filename) > 0 || isFileParamBytes(p.name):
		return len(p.filename) + len(p.contentType)
	case sharesBacking(p):
		return len(p.data)
	}
	return 0
}

// sharesBacking reports whether the text value of a part without filename
// goes into the form's shared backing: a named text value that does not
// look like JSON text. A JSON array or object (how the official SDKs send
// signers, form fields and metadata) is parsed into values of its own and
// then dropped; in the shared backing it would stay alive as long as any
// value kept from the form (a title in a stored request), so it keeps a
// string of its own.
func sharesBacking(p formPart) bool {
	if len(p.name) == 0 || len(p.data) == 0 || isFileParamBytes(p.name) {
		return false
	}
	v := bytes.TrimSpace(p.data)
	return len(v) == 0 || (v[0] != '[' && v[0] != '{')
}

// isFileParamBytes is isFileParam over a name still in the body.
func isFileParamBytes(name []byte) bool {
	base, _, _ := bytes.Cut(name, []byte("["))
	return fileParams[string(base)]
}

var (
	crlf          = []byte("\r\n")
	closeDashes   = []byte("--")
	dispositionCT = []byte("Content-Disposition")
	contentTypeCT = []byte("Content-Type")
	formDataName  = []byte(`form-data; name="`)
	filenameParam = []byte(`; filename="`)
)

// next answers the next part; done once the closing boundary is reached;
// ok false as soon as the body leaves the plain shape.
func (f *plainForm) next() (p formPart, done, ok bool) {
	if f.closed {
		return formPart{}, true, true
	}
	var haveDisposition, haveType bool
	for {
		if bytes.HasPrefix(f.rest, crlf) {
			f.rest = f.rest[len(crlf):]
			break
		}
		end := bytes.IndexByte(f.rest, '\n')
		if end < 1 || f.rest[end-1] != '\r' {
			return formPart{}, false, false
		}
		line := f.rest[:end-1]
		f.rest = f.rest[end+1:]
		key, value, found := bytes.Cut(line, []byte(": "))
		if !found || !plainHeaderValue(value) {
			return formPart{}, false, false
		}
		switch {
		case !haveDisposition && asciiEqualFold(key, dispositionCT):
			haveDisposition = true
			if p.name, p.filename, ok = plainDisposition(value); !ok {
				return formPart{}, false, false
			}
		case !haveType && asciiEqualFold(key, contentTypeCT):
			haveType = true
			p.contentType = value
		default:
			// Any other header (Content-Transfer-Encoding above all)
			// or a repeated one: not plain.
			return formPart{}, false, false
		}
	}
	if !haveDisposition {
		return formPart{}, false, false
	}
	// Data that starts with the boundary itself, without the CRLF before
	// it, is read by mime/multipart as an empty part.
	if bytes.HasPrefix(f.rest, f.delim[2:]) {
		return formPart{}, false, false
	}
	end := bytes.Index(f.rest, f.delim)
	if end < 0 {
		return formPart{}, false, false
	}
	p.data = f.rest[:end]
	after := f.rest[end+len(f.delim):]
	switch {
	case bytes.HasPrefix(after, crlf):
		f.rest = after[len(crlf):]
	case bytes.Equal(after, closeDashes) || (bytes.HasPrefix(after, closeDashes) && bytes.Equal(after[len(closeDashes):], crlf)):
		f.rest, f.closed = nil, true
	default:
		return formPart{}, false, false
	}
	return p, false, true
}

// plainDisposition reads `form-data; name="N"` or `form-data; name="N";
// filename="F"`, where N and F hold no quote or backslash (which
// mime.ParseMediaType would unescape) and F no slash (which
// multipart.Part.FileName would strip a directory at).
func plainDisposition(v []byte) (name, filename []byte, ok bool) {
	rest, ok := bytes.CutPrefix(v, formDataName)
	if !ok {
		return nil, nil, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return nil, nil, false
	}
	name, rest = rest[:end], rest[end+1:]
	if bytes.IndexByte(name, '\\') >= 0 {
		return nil, nil, false
	}
	if len(rest) == 0 {
		return name, nil, true
	}
	rest, ok = bytes.CutPrefix(rest, filenameParam)
	if !ok {
		return nil, nil, false
	}
	end = bytes.IndexByte(rest, '"')
	if end < 0 || end != len(rest)-1 {
		return nil, nil, false
	}
	filename = rest[:end]
	if bytes.ContainsAny(filename, `\/`) {
		return nil, nil, false
	}
	return name, filename, true
}

// plainHeaderValue reports whether v is a header value textproto keeps as
// it is: printable ASCII, not empty, no space at either end.
func plainHeaderValue(v []byte) bool {
	if len(v) == 0 || v[0] == ' ' || v[len(v)-1] == ' ' {
		return false
	}
	for _, c := range v {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// asciiEqualFold compares header names as textproto canonicalizes them:
// ASCII letters only, whatever their case (bytes.EqualFold would also fold
// non-ASCII runes such as the long s onto ASCII letters).
func asciiEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x|0x20 != y|0x20 || x|0x20 < 'a' || x|0x20 > 'z' {
			return false
		}
	}
	return true
}

// errPlainFormChanged is what readPlainForm answers if a form
// splitPlainForm accepted stopped being plain: it cannot happen.
var errPlainFormChanged = errors.New("wire: a plain multipart body stopped being plain")

// readPlainForm builds the body from a plain form, part for part as
// readMultipart does from mime/multipart's parts: the same counting, the
// same refusals in the same order, uploads in slices of exactly their size.
//
// The strings a form gives a request (a title, a signer's name and
// address, a file's name and type) live as long as the request row stored
// from them is live: until it is frozen, which copies them into its
// encoding (state/bucket_rows_frozen.go), or for as long as something
// else keeps one of them. They are copied into one backing of exactly
// their total size rather than into a string each: one allocation per
// form instead of one per string (textArena), and one live object while
// they live. The parameter names, which
// a request keeps only as the keys of its metadata, have a backing of
// their own, so that they do not live on with every title.
func readPlainForm(b *Body, form plainForm, lim Limits) error {
	kept := textArena{buf: make([]byte, 0, form.sharedTextBytes)}
	names := textArena{buf: make([]byte, 0, form.nameBytes)}
	// The values, in body order, before addFormValues sorts them: on the
	// stack for the forms clients send.
	var room [16]formValue
	values := room[:0]
	n := 0
	for {
		p, done, ok := form.next()
		if !ok {
			// splitPlainForm read the whole body as plain; a part it
			// accepted cannot be refused now. Said rather than counted
			// as an empty part until the parameter limit.
			return errPlainFormChanged
		}
		if done {
			break
		}
		n++
		if n > lim.MaxParams {
			return tooManyParams(lim)
		}
		if len(p.name) == 0 {
			continue
		}
		if len(p.name) > lim.maxKeyBytes() {
			return nameTooLong(len(p.name), lim)
		}
		name := names.text(p.name)
		if len(p.filename) > 0 || isFileParam(name) {
			// Equal to a recent upload: its bytes, not a copy.
			data := lim.Uploads.upload(p.data)
			if err := addFile(b, name, kept.text(p.filename), kept.text(p.contentType), data); err != nil {
				return err
			}
			continue
		}
		var text string
		if sharesBacking(p) {
			text = kept.text(p.data)
		} else {
			text = string(p.data)
		}
		values = append(values, formValue{name: name, value: text})
		if b.Order == nil {
			b.Order = make([]string, 0, form.partsWithoutFilename)
		}
		b.Order = append(b.Order, name)
	}
	return addFormValues(b, values, lim)
}

// textArena makes the strings of one form in one backing, allocated at
// its exact final size. The backing is written once, each string's bytes
// before the string is made over them, and never again, so the strings
// stay immutable; bytes the size did not count (it cannot happen) get a
// string of their own rather than a new backing.
type textArena struct {
	buf []byte
}

func (a *textArena) text(p []byte) string {
	if len(p) == 0 {
		return ""
	}
	if len(p) > cap(a.buf)-len(a.buf) {
		return string(p)
	}
	start := len(a.buf)
	a.buf = append(a.buf, p...)
	return unsafe.String(&a.buf[start], len(p))
}
