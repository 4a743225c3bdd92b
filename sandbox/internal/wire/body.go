// Package wire decodes requests the way the real API accepts them: JSON
// bodies; multipart bodies as the official SDKs send them (each object or
// array as one part holding JSON text, files as files[0], files[1], ...);
// multipart and urlencoded bodies with bracket notation as curl and older
// clients send them (signers[0][email_address], cc_email_addresses[],
// metadata[key], file[0]); booleans as true/false/1/0; integers as strings.
//
// Every format becomes one tree of JSON-like values plus the uploaded files;
// Decode then fills a typed struct from the tree, coercing scalars and naming
// the offending field, in bracket notation, when a value does not fit.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// File is one uploaded file.
type File struct {
	// Field is the form field it came in (files[0], file[1], signer_file).
	Field       string
	Name        string
	ContentType string
	Data        []byte
}

// Body is a decoded request body.
type Body struct {
	// Tree holds the parameters: strings, json.Number, bools, nil, []any and
	// map[string]any, as a JSON body would give them.
	Tree map[string]any
	// Files maps a file parameter's base name (files, signer_file,
	// custom_logo_file) to its files in index order.
	Files map[string][]File
	// Form is true when the parameters came as form fields, whose scalars are
	// all text.
	Form bool
	// Order lists a form body's field names in the order the body gave them
	// (repeats included): the tree's maps have no order, and some older
	// forms (signers keyed by role name) mean the order the client wrote.
	Order []string
	// ListKeys keeps, for a top-level form parameter given with list
	// indexes that have gaps (signers[0], signers[2]), the indexes its list
	// was made from: they name its entries (php_arrays.go).
	ListKeys map[string][]string
}

// Has reports whether a top-level parameter or file parameter was given.
func (b *Body) Has(name string) bool {
	if _, ok := b.Tree[name]; ok {
		return true
	}
	_, ok := b.Files[name]
	return ok
}

// Limits bound what a request may contain.
type Limits struct {
	MaxBodyBytes int64
	// MaxDepth bounds the nesting of JSON values and of bracket keys
	// (a[b][c] is 3 levels).
	MaxDepth int
	// MaxParams bounds the form fields or multipart parts of a body.
	MaxParams int
	// MaxValues bounds the values of a JSON body (every scalar, object and
	// array counts); 0 means ten times MaxParams.
	MaxValues int
	// MaxKeyBytes bounds the length of one form or multipart field name;
	// 0 means DefaultMaxKeyBytes.
	MaxKeyBytes int
	// Uploads, when set, lets an upload equal to a recent one of the same
	// ring share its bytes instead of being copied (the ring of the
	// caller's world); nil copies every upload.
	Uploads *UploadRing
}

// DefaultMaxKeyBytes bounds a field name: the longest the official schemas
// need (form_fields_per_document[9][99][validation_custom_regex_format_label]
// and metadata keys of up to 40 characters) is well under 100 bytes.
const DefaultMaxKeyBytes = 512

// DefaultLimits are generous for real documents and small enough to keep a
// hostile request from exhausting memory.
var DefaultLimits = Limits{MaxBodyBytes: 64 << 20, MaxDepth: 16, MaxParams: 10000}

func (l Limits) maxValues() int {
	if l.MaxValues > 0 {
		return l.MaxValues
	}
	return 10 * l.MaxParams
}

func (l Limits) maxKeyBytes() int {
	if l.MaxKeyBytes > 0 {
		return l.MaxKeyBytes
	}
	return DefaultMaxKeyBytes
}

// ReadBody decodes the body of r by its Content-Type.
func ReadBody(r *http.Request, lim Limits) (*Body, error) {
	b := &Body{Tree: map[string]any{}, Files: map[string][]File{}}
	if r.Body == nil {
		return b, nil
	}
	// A body that declares more than the limit is refused before a byte
	// of it is read; one without a length (chunked) is counted as it
	// comes and cut at the limit.
	if r.ContentLength > lim.MaxBodyBytes {
		return nil, tooLarge(lim)
	}
	body := http.MaxBytesReader(nil, r.Body, lim.MaxBodyBytes)
	// The body is read through a borrowed buffer: only what the tree and
	// the uploads keep is allocated.
	s := borrowScratch()
	defer s.release()
	ct := r.Header.Get("Content-Type")
	mediaType, boundary, err := parseContentType(ct)
	if ct == "" {
		mediaType = ""
	} else if err != nil {
		return nil, apierr.Badf("", "Invalid Content-Type header %q: %v", ct, err)
	}
	switch mediaType {
	case "", "application/json", "text/json":
		// The decoder copies what it keeps, so raw may stay in the scratch.
		raw, err := readAll(s, body, r.ContentLength, lim)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			return b, nil
		}
		if mediaType == "" && !looksLikeJSON(raw) {
			return nil, apierr.Badf("", "Missing Content-Type header: send application/json, multipart/form-data or application/x-www-form-urlencoded")
		}
		tree, err := parseJSONObject(raw, lim)
		if err != nil {
			return nil, err
		}
		b.Tree = tree
	case "multipart/form-data":
		b.Form = true
		if boundary == "" {
			return nil, apierr.Badf("", "Malformed multipart body: missing boundary")
		}
		if err := readMultipartBody(b, body, boundary, s, lim); err != nil {
			return nil, err
		}
	case "application/x-www-form-urlencoded":
		b.Form = true
		raw, err := readAll(s, body, r.ContentLength, lim)
		if err != nil {
			return nil, err
		}
		// url.ParseQuery builds every field before anything can count
		// them: count the separators first.
		if n := bytes.Count(raw, []byte("&")) + 1; n > lim.MaxParams {
			return nil, apierr.Badf("", "Too many parameters (more than %d)", lim.MaxParams)
		}
		// One copy of the text serves the values (they are its substrings
		// where nothing was escaped) and the order of the names.
		text := string(raw)
		vals, err := url.ParseQuery(text)
		if err != nil {
			return nil, apierr.Badf("", "Malformed form body: %v", err)
		}
		b.Order = formKeyOrder(text)
		if err := addValues(b, vals, lim); err != nil {
			return nil, err
		}
	default:
		return nil, apierr.Badf("", "Unsupported Content-Type %q: send application/json, multipart/form-data or application/x-www-form-urlencoded", mediaType)
	}
	return b, nil
}

func looksLikeJSON(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// readAll reads a whole body of the declared length size (-1: unknown);
// the answer may alias s, so whatever is kept of it must be copied.
func readAll(s *scratch, r io.Reader, size int64, lim Limits) ([]byte, error) {
	raw, _, err := s.readSized(r, size)
	if err != nil {
		return nil, bodyError(err, lim)
	}
	return raw, nil
}

func bodyError(err error, lim Limits) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(lim)
	}
	return apierr.Badf("", "Could not read the request body: %v", err)
}

func tooLarge(lim Limits) error {
	return apierr.Badf("", "Request body is larger than the limit of %d bytes", lim.MaxBodyBytes)
}

// parseJSONObject parses a JSON body, keeping numbers exact. A valid body
// is built straight from raw (jsonTree), holding nothing but raw and what
// the tree keeps; an invalid one goes through encoding/json's decoder, whose
// errors name what is wrong and where.
func parseJSONObject(raw []byte, lim Limits) (map[string]any, error) {
	if err := ScanJSON(raw, lim.MaxDepth, lim.maxValues()); err != nil {
		return nil, apierr.Badf("", "Invalid JSON body: %v", err)
	}
	if json.Valid(raw) {
		m, ok := jsonTree(raw).(map[string]any)
		if !ok {
			return nil, apierr.Badf("", "Invalid JSON body: the top-level value must be an object")
		}
		return m, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, apierr.Badf("", "Invalid JSON body: %v", jsonErrText(err))
	}
	if trailingData(raw, dec.InputOffset()) {
		return nil, apierr.Badf("", "Invalid JSON body: unexpected data after the top-level value (at byte %d)", dec.InputOffset())
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.Badf("", "Invalid JSON body: the top-level value must be an object")
	}
	return m, nil
}

func jsonErrText(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return err.Error()
}

// readMultipartBody reads a multipart body into b. A body that fits the
// scratch and is a plain form is split where it lies (plainForm); any other
// goes, exactly as it came, through mime/multipart.
func readMultipartBody(b *Body, body io.Reader, boundary string, s *scratch, lim Limits) error {
	n, err := s.fill(body)
	if n == 0 && err == io.EOF {
		// An empty body carries no parameters, whatever its type says
		// (some clients send a multipart Content-Type on bodiless POSTs).
		return nil
	}
	if err == io.EOF {
		if form, ok := splitPlainForm(s.buf[:n], boundary); ok {
			return readPlainForm(b, form, lim)
		}
	}
	br := borrowBodyReader(&replayReader{head: s.buf[:n], err: err, rest: body})
	defer returnBodyReader(br)
	if _, err := br.Peek(1); err == io.EOF {
		return nil
	}
	// The scratch holds the body's first bytes until they are read again:
	// the parts are read through another.
	parts := borrowScratch()
	defer parts.release()
	return readMultipart(b, multipart.NewReader(br, boundary), parts, lim)
}

func readMultipart(b *Body, mr *multipart.Reader, s *scratch, lim Limits) error {
	vals := url.Values{}
	n := 0
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return bodyError(err, lim)
			}
			return apierr.Badf("", "Malformed multipart body: %v", err)
		}
		n++
		if n > lim.MaxParams {
			return tooManyParams(lim)
		}
		name := part.FormName()
		if name == "" {
			part.Close()
			continue
		}
		if len(name) > lim.maxKeyBytes() {
			part.Close()
			return nameTooLong(len(name), lim)
		}
		// An upload is kept in a slice of exactly its size; a text value
		// is copied once, from the scratch, into its string.
		isFile := part.FileName() != "" || isFileParam(name)
		var data []byte
		var text string
		if isFile {
			data, err = s.readExact(part)
		} else {
			text, err = s.readString(part)
		}
		part.Close()
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return bodyError(err, lim)
			}
			return apierr.Badf(name, "Malformed multipart body in part %q: %v", name, err)
		}
		if isFile {
			if err := addFile(b, name, part.FileName(), part.Header.Get("Content-Type"), data); err != nil {
				return err
			}
			continue
		}
		vals[name] = append(vals[name], text)
		b.Order = append(b.Order, name)
	}
	return addValues(b, vals, lim)
}

func tooManyParams(lim Limits) error {
	return apierr.Badf("", "Too many parameters (more than %d)", lim.MaxParams)
}

func nameTooLong(n int, lim Limits) error {
	return apierr.Badf("", "Parameter name of %d bytes is longer than the limit of %d", n, lim.maxKeyBytes())
}

// fileParams are the binary parameters of the official request schemas.
var fileParams = map[string]bool{"files": true, "file": true, "signer_file": true, "custom_logo_file": true}

func isFileParam(name string) bool {
	base, _, _ := strings.Cut(name, "[")
	return fileParams[base]
}

// addFile files an upload under its base name, at the index its field names
// (files[2] goes third); file[N] of older clients counts as files[N].
func addFile(b *Body, field, filename, contentType string, data []byte) error {
	base, rest, _ := strings.Cut(field, "[")
	if base == "file" {
		base = "files"
	}
	idx := -1
	if rest != "" {
		inner := strings.TrimSuffix(rest, "]")
		if inner != "" {
			i, err := strconv.Atoi(inner)
			if err != nil || i < 0 || i > 1000 {
				return apierr.Badf(field, "Invalid file parameter name %q", field)
			}
			idx = i
		}
	}
	f := File{Field: field, Name: filename, ContentType: contentType, Data: data}
	list := b.Files[base]
	if idx < 0 {
		b.Files[base] = append(list, f)
		return nil
	}
	for len(list) <= idx {
		list = append(list, File{})
	}
	if list[idx].Field != "" {
		return apierr.Badf(field, "File parameter %q given twice", field)
	}
	list[idx] = f
	b.Files[base] = list
	return nil
}

// compactFiles drops the gaps left by sparse indexes (files[0], files[2]),
// keeping index order.
func compactFiles(b *Body) {
	for k, list := range b.Files {
		out := list[:0]
		for _, f := range list {
			if f.Field != "" {
				out = append(out, f)
			}
		}
		b.Files[k] = out
	}
}

// addValues builds the tree from form values, expanding bracket notation.
func addValues(b *Body, vals url.Values, lim Limits) error {
	defer compactFiles(b)
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	count := 0
	for _, k := range keys {
		for _, v := range vals[k] {
			if err := addValue(b, k, v, &count, lim); err != nil {
				return err
			}
		}
	}
	normalizeIndexed(b)
	return nil
}

// formValue is one text value of a form.
type formValue struct {
	name, value string
}

// addFormValues is addValues over values in body order (sorted here, in
// place): in name order, a name's values in body order, as addValues goes
// through url.Values, without the map and a slice per name.
func addFormValues(b *Body, values []formValue, lim Limits) error {
	defer compactFiles(b)
	slices.SortStableFunc(values, func(x, y formValue) int { return strings.Compare(x.name, y.name) })
	count := 0
	for _, v := range values {
		if err := addValue(b, v.name, v.value, &count, lim); err != nil {
			return err
		}
	}
	normalizeIndexed(b)
	return nil
}

// addValue puts the value v of key k in the tree, counting it.
func addValue(b *Body, k, v string, count *int, lim Limits) error {
	*count++
	if *count > lim.MaxParams {
		return apierr.Badf("", "Too many parameters (more than %d)", lim.MaxParams)
	}
	if len(k) > lim.maxKeyBytes() {
		return apierr.Badf("", "Parameter name of %d bytes is longer than the limit of %d", len(k), lim.maxKeyBytes())
	}
	// The path is only read by setPath: on the stack for the keys
	// clients send.
	var room [8]string
	path, err := splitKey(room[:0], k, lim.MaxDepth)
	if err != nil {
		return err
	}
	return setPath(b.Tree, path, v, k)
}

// splitKey turns "signers[0][email_address]" into [signers 0 email_address]
// and "cc_email_addresses[]" into [cc_email_addresses ""]; a key of more
// than maxDepth segments is refused as soon as the segment after the limit
// is seen. The segments go into dst's room (dst[:0]).
func splitKey(dst []string, k string, maxDepth int) ([]string, error) {
	base, rest, found := strings.Cut(k, "[")
	if base == "" {
		return nil, apierr.Badf(k, "Invalid parameter name %q", k)
	}
	if !found {
		return append(dst[:0], base), nil
	}
	// One slice with room for every segment (as far as the depth limit
	// allows); rest starts inside the first bracket.
	segments := 2 + strings.Count(rest, "[")
	if maxDepth > 0 {
		segments = min(segments, maxDepth)
	}
	path := slices.Grow(dst[:0], segments)
	path = append(path, base)
	for {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return nil, apierr.Badf(k, "Invalid parameter name %q: unclosed bracket", k)
		}
		if maxDepth > 0 && len(path) >= maxDepth {
			return nil, apierr.Badf(k, "Parameter %q is nested more than %d levels deep", k, maxDepth)
		}
		path = append(path, rest[:end])
		rest = rest[end+1:]
		if rest == "" {
			return path, nil
		}
		if rest[0] != '[' {
			return nil, apierr.Badf(k, "Invalid parameter name %q", k)
		}
		rest = rest[1:]
	}
}

// setPath stores v at path. "" segments append to a list; numeric segments
// index a list (kept as a map until normalizeIndexed, so that sparse or
// unordered indexes work).
func setPath(tree map[string]any, path []string, v, key string) error {
	cur := tree
	for i, seg := range path {
		last := i == len(path)-1
		if seg == "" {
			// name[] appends; only as the final segment.
			if !last {
				return apierr.Badf(key, "Invalid parameter name %q: [] must come last", key)
			}
			_, exists := cur[appendKey]
			list, _ := cur[appendKey].([]any)
			if (exists && list == nil) || (!exists && len(cur) > 0) {
				// name[] next to name[0] or name[key]: one list cannot be
				// both appended to and indexed.
				return apierr.Badf(key, "Parameter %q conflicts with another parameter", key)
			}
			cur[appendKey] = append(list, v)
			return nil
		}
		if _, appended := cur[appendKey]; appended {
			return apierr.Badf(key, "Parameter %q conflicts with another parameter", key)
		}
		if last {
			if old, exists := cur[seg]; exists {
				// A repeated plain key becomes a list (a=1&a=2).
				switch o := old.(type) {
				case string:
					cur[seg] = []any{o, v}
				case []any:
					cur[seg] = append(o, v)
				default:
					return apierr.Badf(key, "Parameter %q conflicts with another parameter", key)
				}
				return nil
			}
			cur[seg] = v
			return nil
		}
		child, exists := cur[seg]
		if !exists {
			m := map[string]any{}
			cur[seg] = m
			cur = m
			continue
		}
		m, ok := child.(map[string]any)
		if !ok {
			return apierr.Badf(key, "Parameter %q conflicts with another parameter", key)
		}
		cur = m
	}
	return nil
}

// appendKey is where name[] values collect before normalization.
const appendKey = "\x00append"

// normalizeIndexed turns maps whose keys are all list indexes (or appends)
// into lists in index order, recursively; the indexes of a top-level list
// with gaps are kept in b.ListKeys.
func normalizeIndexed(b *Body) {
	for k, v := range b.Tree {
		if keys := sparseIndexKeys(k, v); keys != nil {
			if b.ListKeys == nil {
				b.ListKeys = map[string][]string{}
			}
			b.ListKeys[k] = keys
		}
		b.Tree[k] = normalizeValue(v)
	}
}

func normalizeValue(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k, c := range m {
		m[k] = normalizeValue(c)
	}
	if app, ok := m[appendKey]; ok && len(m) == 1 {
		return app
	}
	if len(m) == 0 {
		return m
	}
	idx := make([]int, 0, len(m))
	for k := range m {
		// Only canonical decimal indexes make a list: "01" or "+1" next to
		// "1" would otherwise collide, so such keys keep the map a map.
		i, ok := canonicalIndex(k)
		if !ok {
			return m
		}
		idx = append(idx, i)
	}
	sort.Ints(idx)
	list := make([]any, 0, len(idx))
	for _, i := range idx {
		list = append(list, m[strconv.Itoa(i)])
	}
	return list
}

// canonicalIndex reads k as a list index when it is the canonical decimal
// form of a non-negative int (what strconv.Itoa writes), without the error
// value strconv.Atoi allocates for every key that is not a number.
func canonicalIndex(k string) (int, bool) {
	if k == "" || (k[0] == '0' && len(k) > 1) {
		return 0, false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(k)
	return i, err == nil
}

// QueryTree turns a query string into a tree (bracket notation included).
func QueryTree(vals url.Values, lim Limits) (map[string]any, error) {
	b := &Body{Tree: map[string]any{}, Files: map[string][]File{}}
	if err := addValues(b, vals, lim); err != nil {
		return nil, err
	}
	return b.Tree, nil
}
