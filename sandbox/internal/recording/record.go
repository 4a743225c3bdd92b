package recording

// Recording a world's session as a scenario file: every API call with its
// answer, every control action and every clock move becomes a step whose
// expectations are the recorded answer (status, content type, exact JSON
// and the SHA-256 of the exact bytes). The file starts from the world's
// exported state at the moment recording began, so that a replay (by
// `signsandbox run`) imports that state into a fresh world and gets the
// same IDs and times: they come from the world's seeded sequence and
// clock, which the state carries.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

const recorderExt = "scenario.recorder"

// worldRecorder is a world's recording state.
type worldRecorder struct {
	mu   sync.Mutex
	rec  *scenario.Recorder
	file string
	// starting is set while a recording starts (the world's state is
	// exported outside mu); pinned says the recording pinned the world's
	// time (world.StartPinned), which its stop undoes.
	starting, pinned bool
	// creds are the world's credentials the recording leaves out (nil
	// when it keeps them).
	creds *scenario.Credentials
	// before holds the world time at which calls started (set by the call
	// hook, read by the after-call hook).
	before sync.Map // *call -> time.Time
	host   string
	err    error
}

func recorderOf(w *world.World) *worldRecorder {
	return world.Ext(w, recorderExt, func() *worldRecorder { return &worldRecorder{} })
}

// active returns the running recorder, or nil.
func (wr *worldRecorder) active() *scenario.Recorder {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	return wr.rec
}

// Close writes the file a last time when the world closes.
func (wr *worldRecorder) Close() {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.rec != nil && wr.file != "" {
		_ = writeRecording(wr.file, wr.rec.Document())
	}
}

// RegisterHooks adds the call hooks that record the API and control calls
// of a world being recorded.
func RegisterHooks(r *api.Registry) {
	r.CallHooks = append(r.CallHooks, recordCallStart)
	r.AfterCallHooks = append(r.AfterCallHooks, recordCall)
	r.ControlStartHooks = append(r.ControlStartHooks, func(c *api.Call) { _, _, _ = recordCallStart(c) })
	r.AfterControlHooks = append(r.AfterControlHooks, recordControl)
}

var recordNameRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// recordingName makes a scenario name of a file name.
func recordingName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	n := strings.Trim(recordNameRE.ReplaceAllString(base, "-"), "-._")
	if n == "" {
		return "recording"
	}
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// startRecording begins recording w from its current state. A world whose
// time flows is pinned while it is recorded (world.StartPinned): its calls
// then run one at a time, each at an instant the recording notes to the
// nanosecond, and its jobs at their due times, which is what a replay on a
// fake clock does.
func startRecording(w *world.World, name, host, file string, keepCredentials bool) error {
	wr := recorderOf(w)
	wr.mu.Lock()
	if wr.rec != nil || wr.starting {
		wr.mu.Unlock()
		return fmt.Errorf("this world is already being recorded; POST /_sandbox/record/stop first")
	}
	wr.starting = true
	wr.mu.Unlock()
	// mu is not held while StartPinned waits for the world's gate: a
	// pinned call holds the gate when it takes mu to record itself. The
	// recorder is installed under the gate, so that no call falls between
	// the exported state and the first recorded step.
	var err error
	pinned := w.StartPinned(func(now time.Time) {
		var st any
		if st, err = exportWorld(w); err != nil {
			return
		}
		wr.mu.Lock()
		defer wr.mu.Unlock()
		wr.rec = scenario.NewRecorder(name, "sandbox world "+w.ID, host, st, now)
		callbacks.ObserveAttempts(w, wr.rec.AddAttempt)
		wr.file, wr.host, wr.err, wr.creds = file, host, nil, nil
		if !keepCredentials {
			wr.creds = scenario.NewCredentials()
			nameStartCredentials(wr.creds, st, !w.RandomSecrets())
			wr.rec.LeaveOut(wr.creds)
			w.Store.SetSecretObserver(observeSecrets(wr.creds))
		}
		if file != "" {
			err = writeRecording(file, wr.rec.Document())
		}
	})
	wr.mu.Lock()
	defer wr.mu.Unlock()
	wr.starting = false
	wr.pinned = pinned
	if err != nil && wr.rec == nil && pinned {
		wr.pinned = false
		w.Unpin()
	}
	return err
}

// StartFile serves WithRecording (signsandbox --record FILE): the file
// leaves the world's credentials out unless keepCredentials.
func StartFile(w *world.World, path string, keepCredentials bool) error {
	if err := startRecording(w, recordingName(path), "", path, keepCredentials); err != nil {
		return fmt.Errorf("record %s: %w", path, err)
	}
	return nil
}

// stopRecording ends the recording of w and answers its document.
func stopRecording(w *world.World) (*scenario.Document, error) {
	wr := recorderOf(w)
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.rec == nil {
		return nil, fmt.Errorf("this world is not being recorded; POST /_sandbox/record/start first")
	}
	doc := wr.rec.Document()
	if wr.file != "" {
		if err := writeRecording(wr.file, doc); err != nil {
			return nil, err
		}
	}
	wr.rec, wr.file = nil, ""
	callbacks.ObserveAttempts(w, nil)
	if wr.creds != nil {
		wr.creds = nil
		w.Store.SetSecretObserver(nil)
	}
	if wr.pinned {
		wr.pinned = false
		w.Unpin()
	}
	return doc, nil
}

// exportWorld is the state a recording starts from (as GET /_sandbox/state).
func exportWorld(w *world.World) (any, error) {
	st, err := world.Export(w)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return scenario.OrderedJSON(raw)
}

// writeRecording replaces the file atomically.
func writeRecording(path string, doc *scenario.Document) error {
	b, err := scenario.Marshal(doc, scenario.FormatFor(path))
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// recordCallStart notes the world time at which an API or control call
// starts: on a real clock, time that passed since the previous call becomes
// an advance step in front of this one, so the replay sees the same times.
func recordCallStart(c *api.Call) (any, error, bool) {
	if c.World == nil {
		return nil, nil, false
	}
	if wr := recorderOf(c.World); wr.active() != nil {
		wr.before.Store(c, c.World.Now())
	}
	return nil, nil, false
}

// recordCall records an API call of a world being recorded.
func recordCall(c *api.Call, v any, err error) {
	if c.World == nil {
		return
	}
	recorderOf(c.World).addCall(c, v, err)
}

// addCall records a call with the world time noted at its start (none for
// calls whose world was only known inside the handler: public pages).
func (wr *worldRecorder) addCall(c *api.Call, v any, err error) {
	b, hadStart := wr.before.LoadAndDelete(c)
	rec := wr.active()
	if rec == nil {
		return
	}
	ex := exchangeOf(c, v, err)
	wr.discover(ex)
	if hadStart {
		ex.Before = b.(time.Time)
	} else {
		ex.Before = ex.After
	}
	wr.add(rec, ex, c.Request.Host)
}

// recordControl records a control call of a world being recorded (not the
// recording's own calls, nor state imports, whose body is not kept, nor
// the console's reads, which change nothing).
func recordControl(c *api.Call, v any, err error) {
	if c.World == nil {
		return
	}
	wr := recorderOf(c.World)
	p := strings.TrimPrefix(c.Request.URL.Path, api.ControlPrefix)
	if strings.HasPrefix(p, "/record") || strings.HasPrefix(p, "/console") || (p == "/state" && c.Request.Method == http.MethodPut) {
		wr.before.Delete(c)
		return
	}
	wr.addCall(c, v, err)
}

// discover names the credentials a call brings that the world did not
// make: an API key a control call gives (POST /_sandbox/api_keys with a
// key of the caller's choosing). Those it makes, the recording knows from
// the world.
func (wr *worldRecorder) discover(ex scenario.Exchange) {
	wr.mu.Lock()
	creds := wr.creds
	wr.mu.Unlock()
	if creds == nil || ex.Method != http.MethodPost || strings.TrimSuffix(strings.SplitN(ex.Target, "?", 2)[0], "/") != api.ControlPrefix+"/api_keys" {
		return
	}
	if body, ok := ex.Body.(map[string]any); ok {
		if key, ok := body["key"].(string); ok && key != "" {
			if _, known := creds.Name(key); !known {
				creds.AddOther(key)
			}
		}
	}
}

func (wr *worldRecorder) add(rec *scenario.Recorder, ex scenario.Exchange, host string) {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.rec != rec {
		return
	}
	if wr.host == "" && host != "" {
		wr.host = host
		rec.SetHost(host)
	}
	rec.Add(ex)
	if wr.file != "" {
		if err := writeRecording(wr.file, rec.Document()); err != nil && wr.err == nil {
			wr.err = err
		}
	}
}

// exchangeOf captures a call and the exact answer the response adapter
// writes for it.
func exchangeOf(c *api.Call, v any, err error) scenario.Exchange {
	ex := scenario.Exchange{Method: c.Request.Method, Target: c.Request.URL.RequestURI(), Auth: c.Request.Header.Get("Authorization"), After: c.World.Now()}
	if c.Body == nil && c.BodyErr == nil && c.Request.Body != nil && c.Request.Method != http.MethodGet {
		_, _ = c.ReadBody()
	}
	if c.Body != nil {
		recordBody(&ex, c.Body)
	}
	rw := &bufferWriter{header: http.Header{}}
	c.Host.WriteResult(rw, c, v, err)
	ex.Status, ex.ContentType, ex.Answer = rw.status, rw.header.Get("Content-Type"), rw.body.Bytes()
	return ex
}

// recordBody puts a decoded request body into ex as a step sends it again:
// its fields in JSON shapes, whether it came as a form (always with
// uploads), and its uploads by field name.
func recordBody(ex *scenario.Exchange, b *wire.Body) {
	if len(b.Tree) > 0 {
		ex.Body = scenario.Normalize(b.Tree)
	}
	ex.Form = b.Form
	for _, name := range slices.Sorted(maps.Keys(b.Files)) {
		for i, f := range b.Files[name] {
			field := f.Field
			if field == "" {
				field = fmt.Sprintf("%s[%d]", name, i)
			}
			ex.Files = append(ex.Files, scenario.FileOf(field, f.Name, f.ContentType, f.Data))
		}
	}
	if len(ex.Files) > 0 {
		ex.Form = true
	}
}

// bufferWriter is a ResponseWriter that keeps the answer.
type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.header }
func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
func (b *bufferWriter) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}
