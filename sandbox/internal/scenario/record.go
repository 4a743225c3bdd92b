package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml"
)

// Exchange is one recorded call: what was asked and what was answered.
type Exchange struct {
	Method string
	// Target is the path with its raw query.
	Target string
	// Auth is the Authorization header ("" when none was sent).
	Auth string
	// Body is the decoded request body in JSON shapes (nil for none); Form
	// says it came as form fields; Files are its uploads.
	Body  any
	Form  bool
	Files []StepFile
	// Status, ContentType and Answer are the response.
	Status      int
	ContentType string
	Answer      []byte
	// Before and After are the world times around the call (zero when
	// unknown): a recording moves the replay's clock to Before when the
	// world's time moved by itself since the previous call.
	Before, After time.Time
}

// Recorder turns exchanges into a scenario document whose steps replay
// them and expect the recorded answers. It is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	doc   Document
	last  time.Time
	calls int
	// creds, when set, are the credentials the recording leaves out.
	creds *Credentials
}

// NewRecorder starts a recording. state is the exported world the session
// starts from (nil when unknown), start the world time at the start.
func NewRecorder(name, source, host string, state any, start time.Time) *Recorder {
	r := &Recorder{last: start}
	r.doc = Document{
		Name:        name,
		Description: "Recorded session: each step replays a call and expects the recorded answer.",
		Recording:   &Recording{Host: host, Source: source, State: state},
	}
	return r
}

// LeaveOut makes the recording write the credentials creds names as
// placeholders (credentials.go), in the start state from now on and in
// every step. creds may learn more credentials as the session goes on.
func (r *Recorder) LeaveOut(creds *Credentials) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.creds = creds
	if r.doc.Recording != nil {
		r.doc.Recording.State = creds.RedactTree(r.doc.Recording.State)
	}
}

// SetHost sets the Host header replays send (when it was not known at the
// start).
func (r *Recorder) SetHost(host string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.doc.Recording != nil {
		r.doc.Recording.Host = host
	}
}

// Calls is the number of recorded exchanges.
func (r *Recorder) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// Add records one exchange as a step (after an advance step when the
// world's time moved by itself since the previous exchange).
func (r *Recorder) Add(ex Exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if !ex.Before.IsZero() && !r.last.IsZero() && ex.Before.After(r.last) {
		r.doc.Steps = append(r.doc.Steps, Step{Advance: map[string]any{"to": ex.Before.UTC().Format(time.RFC3339Nano)}})
	}
	if !ex.After.IsZero() {
		r.last = ex.After
	}
	// Text the runner reads for ${...} is escaped ($${), so that a body
	// that holds "${" is sent as it was; placeholders go in after.
	s := Step{Request: ex.Method + " " + escapeExpr(ex.Target), Body: mapStrings(ordered(ex.Body), escapeExpr), Form: ex.Form}
	for _, f := range ex.Files {
		f.Name = escapeExpr(f.Name)
		s.Files = append(s.Files, f)
	}
	answer := ex.Answer
	switch {
	case r.creds != nil:
		s.Request = r.creds.Redact(s.Request)
		s.Body = r.creds.RedactTree(s.Body)
		answer = []byte(r.creds.Redact(string(answer)))
		s.Key, s.Auth = r.creds.RedactAuth(ex.Auth)
	default:
		s.Auth = escapeExpr(ex.Auth)
	}
	if s.Key == "" && s.Auth == "" {
		s.Auth = "none"
	}
	sum := sha256.Sum256(answer)
	e := &Expect{Status: ex.Status, BodySHA256: hex.EncodeToString(sum[:])}
	if mt, _, err := mime.ParseMediaType(ex.ContentType); err == nil {
		e.ContentType = mt
		if mt == "application/json" && len(bytes.TrimSpace(answer)) > 0 {
			if v, err := OrderedJSON(answer); err == nil {
				e.JSON = v
			}
		}
	}
	s.Expect = e
	r.doc.Steps = append(r.doc.Steps, s)
}

// AddAttempt records the measured duration of a callback delivery attempt
// (see Recording.AttemptDurations).
func (r *Recorder) AddAttempt(key string, ms int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.doc.Recording == nil {
		return
	}
	if r.doc.Recording.AttemptDurations == nil {
		r.doc.Recording.AttemptDurations = map[string]int64{}
	}
	r.doc.Recording.AttemptDurations[key] = ms
}

// Document returns the recording so far.
func (r *Recorder) Document() *Document {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.doc
	d.Steps = append([]Step(nil), r.doc.Steps...)
	if d.Recording != nil {
		rec := *d.Recording
		rec.AttemptDurations = maps.Clone(rec.AttemptDurations)
		if r.creds != nil {
			rec.Credentials = r.creds.Used()
		}
		d.Recording = &rec
	}
	return &d
}

// Marshal writes a document as YAML (format "yaml") or indented JSON.
func Marshal(d *Document, format string) ([]byte, error) {
	if format == "json" {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	return yaml.MarshalWithOptions(d, yaml.Indent(2), yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(false))
}

// FormatFor picks the format of an output file by its name.
func FormatFor(name string) string {
	if strings.HasSuffix(strings.ToLower(name), ".json") {
		return "json"
	}
	return "yaml"
}

// orderedMap is a JSON object that keeps its key order when written as
// YAML or JSON, so that recorded answers read like the wire.
type orderedMap []orderedItem

type orderedItem struct {
	Key   string
	Value any
}

// MarshalJSON writes the object in order.
func (m orderedMap) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, it := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(it.Key)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(it.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Get reads a key.
func (m orderedMap) Get(key string) (any, bool) {
	for _, it := range m {
		if it.Key == key {
			return it.Value, true
		}
	}
	return nil, false
}

// Each calls fn for every key and value, in order.
func (m orderedMap) Each(fn func(key string, value any)) {
	for _, it := range m {
		fn(it.Key, it.Value)
	}
}

// MarshalYAML writes the object in order.
func (m orderedMap) MarshalYAML() (any, error) {
	out := make(yaml.MapSlice, len(m))
	for i, it := range m {
		out[i] = yaml.MapItem{Key: it.Key, Value: it.Value}
	}
	return out, nil
}

// rawNumber is a JSON number kept as written.
type rawNumber string

// MarshalJSON writes the number as it was.
func (n rawNumber) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// MarshalYAML writes the number as a YAML number (a float that would not
// read back exactly stays text).
func (n rawNumber) MarshalYAML() (any, error) {
	s := string(n)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, nil
	}
	return s, nil
}

// OrderedJSON decodes JSON keeping object key order, so that recorded
// answers and world states are written as they came.
func OrderedJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := readOrdered(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func readOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := orderedMap{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := readOrdered(dec)
				if err != nil {
					return nil, err
				}
				m = append(m, orderedItem{Key: k, Value: v})
			}
			_, err := dec.Token()
			return m, err
		case '[':
			l := []any{}
			for dec.More() {
				v, err := readOrdered(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := dec.Token()
			return l, err
		}
	case json.Number:
		return rawNumber(t), nil
	}
	return tok, nil
}

// ordered converts a decoded value (maps of JSON shapes) into the ordered
// form with sorted keys, so that recorded request bodies are written in a
// stable order.
func ordered(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := orderedMap{}
		for _, k := range sortedKeys(t) {
			m = append(m, orderedItem{Key: k, Value: ordered(t[k])})
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = ordered(x)
		}
		return out
	case json.Number:
		return rawNumber(t)
	}
	return v
}

// escapeExpr writes text the runner interpolates so that it stays as it
// is: every ${ becomes $${.
func escapeExpr(s string) string { return strings.ReplaceAll(s, "${", "$${") }

// FileOf makes a recorded upload.
func FileOf(field, name, contentType string, data []byte) StepFile {
	return StepFile{Field: field, Name: name, ContentType: contentType, Base64: base64.StdEncoding.EncodeToString(data)}
}
