package recording

// The recording proxy: it forwards every request to another server that
// speaks this API (the real service's test mode, or another sandbox) and
// writes the session in the recording format. A session recorded against
// the real service can then be replayed against the sandbox as a fidelity
// check (`signsandbox run` reports every difference by field). When the
// upstream is a sandbox, the proxy also captures the world's state at the
// first call and the world time around each call, so that the recording
// replays exactly.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Proxy is an http.Handler that forwards to an upstream and
// records each exchange.
type Proxy struct {
	upstream *url.URL
	out      string
	client   *http.Client

	// KeepCredentials writes the credentials the traffic carries into
	// the file as they are; by default each is a placeholder
	// (credentials.go). Set it before serving.
	KeepCredentials bool

	mu      sync.Mutex
	rec     *scenario.Recorder
	sandbox bool // the upstream answers /_sandbox/health
	started bool
	err     error
	// creds are the credentials found so far (nil when kept); seq names
	// them by their number in the upstream's sequence (a sandbox's).
	creds *scenario.Credentials
	seq   sequenceSearch
	// pinAuth, when set, is the credentials the proxy pinned its sandbox
	// upstream's world with (POST /_sandbox/clock/pin): every answer then
	// carries its call's instant. Close undoes the pin.
	pinAuth string
}

// maxProxyBody bounds a request or answer the proxy keeps.
const maxProxyBody = 64 << 20

// NewProxy records the traffic it forwards to upstream into the
// file out (YAML, or JSON when out ends in .json), rewritten after every
// exchange. client defaults to one with a generous timeout.
func NewProxy(upstream, out string, client *http.Client) (*Proxy, error) {
	u, err := url.Parse(strings.TrimSuffix(upstream, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q is not an http(s) URL", upstream)
	}
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Minute, CheckRedirect: api.NoRedirects}
	}
	return &Proxy{upstream: u, out: out, client: client}, nil
}

// Err is the last problem writing the file, if any.
func (p *Proxy) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Calls is the number of recorded exchanges.
func (p *Proxy) Calls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rec == nil {
		return 0
	}
	return p.rec.Calls()
}

// ServeHTTP forwards one request and records it. Exchanges are recorded
// one at a time, in the order they complete.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := wire.ReadRaw(r, maxProxyBody)
	if err != nil {
		http.Error(w, "signsandbox record: the request body could not be read or is too large", http.StatusBadRequest)
		return
	}
	auth := r.Header.Get("Authorization")
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		p.start(auth)
	}
	var before, after time.Time
	if p.pinAuth == "" {
		before = p.worldTime(auth)
	}
	resp, answer, err := p.forward(r, body)
	if err != nil {
		http.Error(w, "signsandbox record: upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	if at, err := time.Parse(time.RFC3339Nano, resp.Header.Get(world.InstantHeader)); err == nil {
		// A pinned world's call ran at one instant, which it says.
		before, after = at, at
	} else if p.pinAuth == "" {
		after = p.worldTime(auth)
	}
	for k, vs := range resp.Header {
		if hopHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(answer)

	ex := scenario.Exchange{Method: r.Method, Target: r.URL.RequestURI(), Auth: auth, Status: resp.StatusCode,
		ContentType: resp.Header.Get("Content-Type"), Answer: answer, Before: before, After: after}
	if len(body) > 0 {
		req, _ := http.NewRequest(r.Method, r.URL.String(), bytes.NewReader(body))
		ct := r.Header.Get("Content-Type")
		if api.ControlBodyIsJSON(r.URL.Path, ct, body) {
			// The sandbox reads `curl -d '{...}'` to a control path as
			// JSON; so must its recording, or the replay sends a form.
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
		if b, err := wire.ReadBody(req, wire.Limits{MaxBodyBytes: maxProxyBody, MaxDepth: 64, MaxParams: 100000}); err == nil {
			recordBody(&ex, b)
		}
	}
	if p.creds != nil {
		p.discover(ex, resp.Header.Get("Content-Type"))
	}
	if p.sandbox {
		p.attemptDurations(ex, resp.Header.Get("Content-Type"))
	}
	p.rec.Add(ex)
	if err := writeRecording(p.out, p.rec.Document()); err != nil {
		p.err = err
	}
}

// hopHeaders are not forwarded.
var hopHeaders = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Authenticate": true, "Proxy-Authorization": true,
	"Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true, "Content-Length": true,
}

// start begins the recording at the first call: when the upstream is a
// sandbox, from the state of the world the call's credentials reach, whose
// time it pins (a world whose time flows then runs each call at an instant
// its answer gives, as a recorded world does).
func (p *Proxy) start(auth string) {
	p.started = true
	var st any
	var start time.Time
	if code, _, err := p.get("/_sandbox/health", ""); err == nil && code == http.StatusOK {
		p.sandbox = true
		var pin struct {
			Pinned bool `json:"pinned"`
		}
		if code, raw, err := p.call(http.MethodPost, "/_sandbox/clock/pin", auth); err == nil && code == http.StatusOK &&
			json.Unmarshal(raw, &pin) == nil && pin.Pinned {
			p.pinAuth = auth
		}
		if code, raw, err := p.get("/_sandbox/state", auth); err == nil && code == http.StatusOK {
			if v, err := scenario.OrderedJSON(raw); err == nil {
				st = v
			}
			var ws world.State
			if json.Unmarshal(raw, &ws) == nil {
				start, _ = time.Parse(time.RFC3339Nano, ws.Clock.Now)
			}
		}
	}
	p.rec = scenario.NewRecorder(recordingName(p.out), "upstream "+p.upstream.String(), p.upstream.Host, st, start)
	if !p.KeepCredentials {
		p.creds = scenario.NewCredentials()
		if st != nil {
			nameStartCredentials(p.creds, st, true)
			if seed, counter, ok := sequenceOf(st); ok {
				p.seq = sequenceSearch{seed: seed, cursor: counter}
			}
		}
		p.rec.LeaveOut(p.creds)
	}
}

// discover names the credentials an exchange carries: its Authorization
// header, the credential fields and page URLs of its body and answer, and
// every credential of an exported state it answers.
func (p *Proxy) discover(ex scenario.Exchange, contentType string) {
	name := func(v string) {
		if _, known := p.creds.Name(v); known {
			return
		}
		if n, length, ok := p.seq.find(v); ok {
			p.creds.Add(seqName(n, length), v)
			return
		}
		p.creds.AddOther(v)
	}
	if ex.Auth != "" {
		cred, _ := scenario.AuthCredential(ex.Auth)
		name(cred)
	}
	discoverURLs(ex.Target, name)
	discoverIn(ex.Body, name)
	if mt, _, _ := mime.ParseMediaType(contentType); mt == "application/json" {
		if v, err := scenario.OrderedJSON(ex.Answer); err == nil {
			discoverIn(v, name)
			if f, _ := field(v, "format"); f == world.StateFormat {
				for _, c := range stateCredentials(v) {
					name(c)
				}
			}
		}
		return
	}
	if strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "yaml") {
		discoverURLs(string(ex.Answer), name)
	}
}

// attemptDurations keeps the durations of the callback attempts a sandbox
// answer shows (the delivery log, a state export), which a replay cannot
// measure again (scenario.Recording.AttemptDurations).
func (p *Proxy) attemptDurations(ex scenario.Exchange, contentType string) {
	if mt, _, _ := mime.ParseMediaType(contentType); mt != "application/json" || !bytes.Contains(ex.Answer, []byte(`"duration_ms"`)) {
		return
	}
	v, err := scenario.OrderedJSON(ex.Answer)
	if err != nil {
		return
	}
	eachAttempt(v, func(key string, ms int64) {
		if ms > 0 {
			p.rec.AddAttempt(key, ms)
		}
	})
}

// eachAttempt finds the deliveries of a decoded answer (objects with an id
// and a list of attempts) and calls fn with each attempt's key
// (callbacks.AttemptKey: the delivery's id and the attempt's place) and
// duration.
func eachAttempt(v any, fn func(key string, ms int64)) {
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			eachAttempt(x, fn)
		}
	case interface{ Each(func(string, any)) }:
		id, _ := field(t, "id")
		attempts, _ := field(t, "attempts")
		if s, ok := id.(string); ok {
			if list, ok := attempts.([]any); ok {
				for i, a := range list {
					d, _ := field(a, "duration_ms")
					if ms, err := strconv.ParseInt(textOf(d), 10, 64); err == nil {
						fn(s+"/"+strconv.Itoa(i), ms)
					}
				}
			}
		}
		t.Each(func(_ string, x any) { eachAttempt(x, fn) })
	}
}

// sequenceSearch finds the number of a secret in a sandbox upstream's
// sequence: near the numbers found last, since a session's new secrets
// are the world's newest.
type sequenceSearch struct {
	seed   string
	cursor uint64
}

// Bounds of a search around the cursor.
const (
	searchBack  = 1 << 12
	searchAhead = 1 << 16
)

func (s *sequenceSearch) find(v string) (n uint64, length int, ok bool) {
	if s.seed == "" || (len(v) != 64 && len(v) != 32) {
		return 0, 0, false
	}
	lo := uint64(0)
	if s.cursor > searchBack {
		lo = s.cursor - searchBack
	}
	found := findInSequence(s.seed, lo, s.cursor+searchAhead, []string{v})
	n, ok = found[v]
	if ok && n > s.cursor {
		s.cursor = n
	}
	return n, len(v), ok
}

// worldTime asks a sandbox upstream for its world time (zero otherwise).
func (p *Proxy) worldTime(auth string) time.Time {
	if !p.sandbox {
		return time.Time{}
	}
	code, raw, err := p.get("/_sandbox/clock", auth)
	if err != nil || code != http.StatusOK {
		return time.Time{}
	}
	var c struct {
		Time string `json:"time"`
		Now  int64  `json:"now"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return time.Time{}
	}
	// The clock's RFC 3339 time has whole seconds; the export's state has
	// nanoseconds. Both move only by advances on a fake clock.
	return time.Unix(c.Now, 0).UTC()
}

// Close ends the recording: it undoes the pin of the upstream's world.
func (p *Proxy) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pinAuth == "" {
		return nil
	}
	_, _, err := p.call(http.MethodDelete, "/_sandbox/clock/pin", p.pinAuth)
	p.pinAuth = ""
	return err
}

func (p *Proxy) get(path, auth string) (int, []byte, error) {
	return p.call(http.MethodGet, path, auth)
}

func (p *Proxy) call(method, path, auth string) (int, []byte, error) {
	req, err := http.NewRequest(method, p.upstream.String()+path, nil)
	if err != nil {
		return 0, nil, err
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<30))
	return resp.StatusCode, raw, err
}

// forward sends the request upstream with the upstream's host.
func (p *Proxy) forward(r *http.Request, body []byte) (*http.Response, []byte, error) {
	u := *p.upstream
	u.Path = strings.TrimSuffix(p.upstream.Path, "/") + r.URL.Path
	u.RawQuery = r.URL.RawQuery
	req, err := http.NewRequestWithContext(r.Context(), r.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	for k, vs := range r.Header {
		if hopHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		req.Header[k] = vs
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxProxyBody))
	if err != nil {
		return nil, nil, err
	}
	return resp, answer, nil
}
