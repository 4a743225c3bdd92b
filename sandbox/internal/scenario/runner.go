package scenario

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Runner executes the steps of scenario documents against a sandbox over
// HTTP. The same runner drives an in-process sandbox (listening on a
// loopback port) and a running one (--target).
type Runner struct {
	// Base is the sandbox's base URL (scheme and host, no /v3).
	Base   string
	Client *http.Client
	Voc    *Vocabulary
	// Out receives one line per step and the summary (nil: quiet).
	Out io.Writer
	// DefaultWorld imports recordings into the sandbox's default world
	// (an in-process sandbox made for this run) instead of a new world.
	DefaultWorld bool
}

// StepReport is the outcome of one step.
type StepReport struct {
	Index  int        `json:"index"`
	Name   string     `json:"name,omitempty"`
	Label  string     `json:"label"`
	Status int        `json:"status,omitempty"`
	Passed bool       `json:"passed"`
	Diffs  []Mismatch `json:"diffs,omitempty"`
	Error  string     `json:"error,omitempty"`
}

// Report is the outcome of one document.
type Report struct {
	Scenario string       `json:"scenario"`
	File     string       `json:"file"`
	World    string       `json:"world,omitempty"`
	Steps    []StepReport `json:"steps"`
	Failed   int          `json:"failed"`
	// Error is set when the world could not be prepared (no step ran).
	Error string `json:"error,omitempty"`
}

// OK reports whether every step passed.
func (r *Report) OK() bool { return r.Error == "" && r.Failed == 0 }

// result is what a step left for later expressions.
type result struct {
	Status  int
	Headers map[string]any
	Body    any
	Raw     []byte
	CT      string
}

func (r *result) value() map[string]any {
	return map[string]any{"status": json.Number(strconv.Itoa(r.Status)), "headers": r.Headers, "body": r.Body}
}

// run is the state of one document's run.
type run struct {
	*Runner
	ctx      context.Context
	doc      *Document
	key      string // the world's primary key (default credentials)
	world    map[string]any
	seed     map[string]any
	accounts map[string]any // lower-cased e-mail -> {account_id, email_address, api_key}
	steps    map[string]*result
	receiver string
	host     string
	file     string
	// foreign is set for a recording made without a start state (against
	// the real service): its credentials mean nothing here, so its steps
	// run as the world's first account.
	foreign bool
}

// WorldInfo is the part of POST /_sandbox/worlds the runner uses.
type worldInfo struct {
	WorldID string `json:"world_id"`
	APIKey  string `json:"api_key"`
}

// Run executes doc's steps in a fresh world and reports each step.
func (rn *Runner) Run(ctx context.Context, file string, source []byte, doc *Document) *Report {
	rep := &Report{Scenario: doc.Name, File: file, Steps: []StepReport{}}
	r := &run{Runner: rn, ctx: ctx, doc: doc, file: file, steps: map[string]*result{}, seed: map[string]any{}, accounts: map[string]any{}}
	if r.Client == nil {
		r.Client = &http.Client{Timeout: 2 * time.Minute}
	}
	rn.printf("scenario %s (%s)\n", doc.Name, file)
	recv, err := startReceiver()
	if err != nil {
		rep.Error = "starting the callback receiver: " + err.Error()
		rn.printf("  ERROR %s\n", rep.Error)
		return rep
	}
	defer recv.Close()
	r.receiver = recv.url
	if err := r.prepare(source); err != nil {
		rep.Error = err.Error()
		rn.printf("  ERROR %s\n", rep.Error)
		return rep
	}
	rep.World, _ = r.world["world_id"].(string)
	for i := range doc.Steps {
		sr := r.step(i, &doc.Steps[i])
		rep.Steps = append(rep.Steps, sr)
		if !sr.Passed {
			rep.Failed++
		}
		r.print(sr)
	}
	if rep.OK() {
		rn.printf("PASS %s: %d step(s)\n", doc.Name, len(rep.Steps))
	} else {
		rn.printf("FAIL %s: %d of %d step(s) failed\n", doc.Name, rep.Failed, len(rep.Steps))
	}
	return rep
}

func (rn *Runner) printf(format string, a ...any) {
	if rn.Out != nil {
		fmt.Fprintf(rn.Out, format, a...)
	}
}

func (r *run) print(sr StepReport) {
	mark := "ok  "
	if !sr.Passed {
		mark = "FAIL"
	}
	name := ""
	if sr.Name != "" {
		name = " " + sr.Name
	}
	status := ""
	if sr.Status != 0 {
		status = fmt.Sprintf(" -> %d", sr.Status)
	}
	r.printf("  %s %d%s: %s%s\n", mark, sr.Index+1, name, sr.Label, status)
	if sr.Error != "" {
		r.printf("       error: %s\n", sr.Error)
	}
	for _, d := range sr.Diffs {
		r.printf("       %s\n", d.String())
	}
}

// prepare makes the world the steps run in: a recording's start state, or
// a new world with the document loaded into it.
func (r *run) prepare(source []byte) error {
	if rec := r.doc.Recording; rec != nil {
		r.host = rec.Host
		r.foreign = rec.State == nil
	}
	if rec := r.doc.Recording; rec != nil && rec.State != nil {
		auth := ""
		if !r.DefaultWorld {
			var wi worldInfo
			if _, err := r.control(http.MethodPost, "/_sandbox/worlds", "", map[string]any{}, &wi); err != nil {
				return fmt.Errorf("creating a world: %w", err)
			}
			auth = basic(wi.APIKey)
		}
		var wi worldInfo
		if code, err := r.control(http.MethodPut, "/_sandbox/state", auth, rec.State, &wi); err != nil {
			if code == http.StatusConflict {
				return fmt.Errorf("importing the recording's start state: %w (the recorded world's API keys are in use on this sandbox: replay the recording in-process, without --target)", err)
			}
			return fmt.Errorf("importing the recording's start state: %w", err)
		}
		r.key = wi.APIKey
		r.world = map[string]any{"world_id": wi.WorldID, "api_key": wi.APIKey}
		return r.loadAccounts()
	}
	var wi map[string]any
	if _, err := r.control(http.MethodPost, "/_sandbox/worlds", "", map[string]any{}, &wi); err != nil {
		return fmt.Errorf("creating a world: %w", err)
	}
	r.world = wi
	r.key, _ = wi["api_key"].(string)
	if r.doc.Recording != nil {
		// A recording has nothing to load: only steps.
		return r.loadAccounts()
	}
	if _, err := r.control(http.MethodPost, "/_sandbox/scenarios?source="+url.QueryEscape(r.file), basic(r.key), rawBody(source), nil); err != nil {
		return fmt.Errorf("loading the scenario: %w", err)
	}
	return r.loadAccounts()
}

// rawBody is a request body sent as it is (a scenario file).
type rawBody []byte

// loadAccounts reads the world's accounts and seeded objects from GET
// /_sandbox/scenarios.
func (r *run) loadAccounts() error {
	var out struct {
		Scenarios []struct {
			Name   string         `json:"name"`
			Seeded map[string]any `json:"seeded"`
		} `json:"scenarios"`
		Accounts []map[string]any `json:"accounts"`
	}
	if _, err := r.control(http.MethodGet, "/_sandbox/scenarios", basic(r.key), nil, &out); err != nil {
		return fmt.Errorf("reading the world's scenarios: %w", err)
	}
	for _, sc := range out.Scenarios {
		for k, v := range sc.Seeded {
			r.seed[k] = Normalize(v)
		}
	}
	for _, a := range out.Accounts {
		if e, ok := a["email_address"].(string); ok {
			r.accounts[strings.ToLower(e)] = Normalize(a)
		}
	}
	return nil
}

// control makes a control-plane call and decodes its JSON answer.
func (r *run) control(method, path, auth string, body, out any) (int, error) {
	var rd io.Reader
	ct := "application/json"
	switch b := body.(type) {
	case nil:
	case rawBody:
		rd, ct = bytes.NewReader(b), "application/yaml"
	default:
		enc, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequestWithContext(r.ctx, method, r.Base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", ct)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("%s %s answered %d: %s", method, path, resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	if out != nil {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

func basic(key string) string {
	if key == "" {
		return ""
	}
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":"))
}

// resolve answers expressions for the current step.
func (r *run) resolve(e Expr) (any, error) {
	var v any
	switch e.Root {
	case RootNow:
		var c struct {
			Now json.Number `json:"now"`
		}
		if _, err := r.control(http.MethodGet, "/_sandbox/clock", basic(r.key), nil, &c); err != nil {
			return nil, err
		}
		return c.Now, nil
	case RootReceiver:
		v = map[string]any{"url": r.receiver}
	case RootWorld:
		v = Normalize(r.world)
	case RootSeed:
		v = r.seed
	case RootAccounts:
		m := map[string]any{}
		for k, a := range r.accounts {
			m[k] = a
		}
		v = m
	case RootSteps:
		m := map[string]any{}
		for k, res := range r.steps {
			m[k] = res.value()
		}
		v = m
	}
	p := e.Path
	if e.Root == RootAccounts && len(p) > 0 {
		p = append([]Segment{{Key: strings.ToLower(p[0].Key)}}, p[1:]...)
	}
	got, ok := Resolve(v, p)
	if !ok {
		return nil, fmt.Errorf("${%s} has no value", e.Text)
	}
	return got, nil
}

// exchange is one HTTP call a step makes.
type exchange struct {
	method, path string
	query        url.Values
	body         any
	form         bool
	files        []StepFile
	auth         string
	noAuth       bool
}

func (r *run) step(i int, s *Step) StepReport {
	sr := StepReport{Index: i, Name: s.Name}
	fail := func(err error) StepReport {
		sr.Passed, sr.Error = false, err.Error()
		return sr
	}
	ex, label, err := r.build(s)
	sr.Label = label
	if err != nil {
		return fail(err)
	}
	res, err := r.do(ex)
	if err != nil {
		return fail(err)
	}
	sr.Status = res.Status
	if s.Name != "" {
		r.steps[s.Name] = res
	}
	diffs, err := r.check(s, res)
	if err != nil {
		return fail(err)
	}
	sr.Diffs = diffs
	sr.Passed = len(diffs) == 0
	return sr
}

// build turns a step into the HTTP call it makes.
func (r *run) build(s *Step) (*exchange, string, error) {
	str := func(v string) (string, error) { return InterpolateString(v, r.resolve) }
	val := func(v any) (any, error) { return Interpolate(v, r.resolve) }
	ex := &exchange{}
	switch s.Action() {
	case "call":
		op, ok := r.Voc.Op(s.Call)
		if !ok {
			return nil, s.Call, fmt.Errorf("unknown operation %s", s.Call)
		}
		p, q, _ := strings.Cut(op.Path, "?")
		for _, name := range PathParams(p) {
			v, err := val(s.Params[name])
			if err != nil {
				return nil, s.Call, err
			}
			p = strings.Replace(p, "{"+name+"}", url.PathEscape(textOf(v)), 1)
		}
		ex.method, ex.path = op.Method, "/v3"+p
		if q != "" {
			ex.query = url.Values{q: {""}}
		}
	case "request":
		m, p, _ := SplitRequest(s.Request)
		p, err := str(p)
		if err != nil {
			return nil, s.Request, err
		}
		ex.method, ex.path = m, p
	case "advance":
		body := map[string]any{}
		switch a := s.Advance.(type) {
		case string:
			t, err := str(a)
			if err != nil {
				return nil, "advance", err
			}
			d, err := ParseDuration(t)
			if err != nil {
				return nil, "advance " + t, err
			}
			body["seconds"] = d.Seconds()
		case map[string]any:
			to, err := val(a["to"])
			if err != nil {
				return nil, "advance", err
			}
			body["to"] = textOf(to)
		}
		ex.method, ex.path, ex.body = http.MethodPost, "/_sandbox/clock/advance", body
		return r.finish(s, ex, "advance "+describeAdvance(body))
	case "view", "sign", "decline", "reassign", "bounce":
		raw := map[string]any{"view": s.View, "sign": s.Sign, "decline": s.Decline, "reassign": s.Reassign, "bounce": s.Bounce}[s.Action()]
		v, err := val(raw)
		if err != nil {
			return nil, s.Action(), err
		}
		body := map[string]any{}
		id := ""
		switch t := v.(type) {
		case map[string]any:
			id = textOf(t["signature_id"])
			for k, x := range t {
				if k != "signature_id" {
					body[k] = x
				}
			}
		default:
			id = textOf(t)
		}
		if id == "" {
			return nil, s.Action(), fmt.Errorf("%s: empty signature id", s.Action())
		}
		ex.method, ex.path, ex.body = http.MethodPost, "/_sandbox/signatures/"+url.PathEscape(id)+"/"+s.Action(), body
		return r.finish(s, ex, s.Action()+" "+id)
	case "wait_callbacks":
		ex.method, ex.path, ex.body = http.MethodPost, "/_sandbox/callbacks/wait", map[string]any{}
		return r.finish(s, ex, "wait for callbacks")
	case "events", "emails":
		lc := s.Events
		ex.path = "/_sandbox/callbacks"
		if s.Action() == "emails" {
			lc, ex.path = s.Emails, "/_sandbox/emails"
		}
		ex.method = http.MethodGet
		f, err := val(lc.Filter)
		if err != nil {
			return nil, s.Action(), err
		}
		ex.query = toValues(f)
		return r.finish(s, ex, s.Action()+describeQuery(ex.query))
	default:
		return nil, "?", fmt.Errorf("the step has no action")
	}
	q, err := val(s.Query)
	if err != nil {
		return nil, ex.method + " " + ex.path, err
	}
	for k, vs := range toValues(q) {
		if ex.query == nil {
			ex.query = url.Values{}
		}
		ex.query[k] = append(ex.query[k], vs...)
	}
	if ex.body, err = val(s.Body); err != nil {
		return nil, ex.method + " " + ex.path, err
	}
	ex.form = s.Form
	for _, f := range s.Files {
		name, err := str(f.Name)
		if err != nil {
			return nil, ex.method + " " + ex.path, err
		}
		f.Name = name
		ex.files = append(ex.files, f)
	}
	return r.finish(s, ex, ex.method+" "+ex.path+describeQuery(ex.query))
}

// finish sets the credentials of a step.
func (r *run) finish(s *Step, ex *exchange, label string) (*exchange, string, error) {
	switch {
	case s.Auth != "" && r.foreign && s.Auth != "none":
		ex.auth = basic(r.key)
	case s.Auth != "":
		a, err := InterpolateString(s.Auth, r.resolve)
		if err != nil {
			return nil, label, err
		}
		if a == "none" {
			ex.noAuth = true
		} else {
			ex.auth = a
		}
	case s.Key != "":
		k, err := InterpolateString(s.Key, r.resolve)
		if err != nil {
			return nil, label, err
		}
		ex.auth = basic(k)
	case s.As != "":
		as, err := InterpolateString(s.As, r.resolve)
		if err != nil {
			return nil, label, err
		}
		if as == "none" {
			ex.noAuth = true
			break
		}
		a, ok := r.accounts[strings.ToLower(as)].(map[string]any)
		if !ok {
			return nil, label, fmt.Errorf("as: no account %s in this world", as)
		}
		k, _ := a["api_key"].(string)
		if k == "" {
			return nil, label, fmt.Errorf("as: account %s has no API key", as)
		}
		ex.auth = basic(k)
		label += " as " + as
	default:
		ex.auth = basic(r.key)
	}
	return ex, label, nil
}

func describeAdvance(body map[string]any) string {
	if to, ok := body["to"]; ok {
		return "to " + textOf(to)
	}
	if s, ok := body["seconds"].(float64); ok {
		return time.Duration(s * float64(time.Second)).String()
	}
	return ""
}

func describeQuery(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// toValues writes a query map as URL values (lists repeat the key).
func toValues(v any) url.Values {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := url.Values{}
	for _, k := range sortedKeys(m) {
		switch t := m[k].(type) {
		case []any:
			for _, x := range t {
				out.Add(k, textOf(x))
			}
		default:
			out.Set(k, textOf(t))
		}
	}
	return out
}

// do sends one exchange.
func (r *run) do(ex *exchange) (*result, error) {
	u := r.Base + ex.path
	if len(ex.query) > 0 {
		sep := "?"
		if strings.Contains(ex.path, "?") {
			sep = "&"
		}
		u += sep + encodeQuery(ex.query)
	}
	var rd io.Reader
	ct := ""
	switch {
	case ex.form || len(ex.files) > 0:
		b, c, err := multipartBody(ex.body, ex.files)
		if err != nil {
			return nil, err
		}
		rd, ct = bytes.NewReader(b), c
	case ex.body != nil:
		b, err := json.Marshal(ex.body)
		if err != nil {
			return nil, err
		}
		rd, ct = bytes.NewReader(b), "application/json"
	}
	req, err := http.NewRequestWithContext(r.ctx, ex.method, u, rd)
	if err != nil {
		return nil, err
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if r.host != "" {
		req.Host = r.host
	}
	if !ex.noAuth && ex.auth != "" {
		req.Header.Set("Authorization", ex.auth)
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	res := &result{Status: resp.StatusCode, Raw: raw, Headers: map[string]any{}, CT: resp.Header.Get("Content-Type")}
	for k, vs := range resp.Header {
		res.Headers[k] = vs[0]
	}
	res.Body = string(raw)
	if mt, _, _ := mime.ParseMediaType(res.CT); mt == "application/json" && len(bytes.TrimSpace(raw)) > 0 {
		if v, err := DecodeJSON(raw); err == nil {
			res.Body = v
		}
	}
	return res, nil
}

// encodeQuery keeps a valueless key (the ?refresh marker) without "=".
func encodeQuery(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		for _, v := range q[k] {
			if v == "" && len(q[k]) == 1 {
				parts = append(parts, url.QueryEscape(k))
				continue
			}
			parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(v))
		}
	}
	return strings.Join(parts, "&")
}

// DecodeJSON decodes a JSON document with exact numbers.
func DecodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// multipartBody writes a body as the official SDKs do: scalars as text,
// objects and lists as JSON text, files as file parts.
func multipartBody(body any, files []StepFile) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary("signsandbox-scenario-boundary"); err != nil {
		return nil, "", err
	}
	m, _ := body.(map[string]any)
	for _, k := range sortedKeys(m) {
		if err := w.WriteField(k, formText(m[k])); err != nil {
			return nil, "", err
		}
	}
	for i, f := range files {
		field := f.Field
		if field == "" {
			field = fmt.Sprintf("files[%d]", i)
		}
		data := []byte(f.Text)
		if f.Base64 != "" {
			b, err := base64.StdEncoding.DecodeString(f.Base64)
			if err != nil {
				return nil, "", fmt.Errorf("files[%d]: base64: %v", i, err)
			}
			data = b
		}
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="%s"; filename="%s"`, escapeQuotes(field), escapeQuotes(f.Name))}
		h["Content-Type"] = []string{ct}
		part, err := w.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		if _, err := part.Write(data); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

func escapeQuotes(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }

func formText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// check compares a step's answer with its expectations. Without an
// expected status, call and request steps must answer 2xx.
func (r *run) check(s *Step, res *result) ([]Mismatch, error) {
	var out []Mismatch
	e := s.Expect
	if e == nil {
		e = &Expect{}
	}
	status := json.Number(strconv.Itoa(res.Status))
	if e.Status != nil {
		want, err := Interpolate(e.Status, r.resolve)
		if err != nil {
			return nil, err
		}
		out = append(out, MatchValue("status", want, status, true)...)
	} else if res.Status/100 != 2 {
		out = append(out, Mismatch{"status", fmt.Sprintf("want a 2xx answer, got %d: %s", res.Status, excerpt(res.Raw))})
	}
	if e.Error != "" {
		got, ok := Resolve(res.Body, []Segment{{Key: "error"}, {Key: "error_name"}})
		out = append(out, MatchValue("body.error.error_name", e.Error, got, ok)...)
	}
	if e.ContentType != "" {
		mt, _, _ := mime.ParseMediaType(res.CT)
		if !strings.EqualFold(mt, e.ContentType) && !strings.EqualFold(res.CT, e.ContentType) {
			out = append(out, Mismatch{"content_type", fmt.Sprintf("want %s, got %s", e.ContentType, res.CT)})
		}
	}
	for _, k := range sortedKeys(e.Headers) {
		want, err := Interpolate(e.Headers[k], r.resolve)
		if err != nil {
			return nil, err
		}
		got, ok := res.Headers[http.CanonicalHeaderKey(k)]
		if raw, present := res.Headers[k]; present {
			got, ok = raw, true
		}
		out = append(out, MatchValue("headers."+k, want, got, ok)...)
	}
	if e.Body != nil {
		want, err := Interpolate(e.Body, r.resolve)
		if err != nil {
			return nil, err
		}
		out = append(out, MatchValue("body", want, res.Body, true)...)
	}
	var jsonDiffs []Mismatch
	if e.JSON != nil {
		jsonDiffs = Diff("body", e.JSON, res.Body)
		out = append(out, jsonDiffs...)
	}
	if e.BodySHA256 != "" {
		sum := sha256.Sum256(res.Raw)
		if got := hex.EncodeToString(sum[:]); got != e.BodySHA256 && len(jsonDiffs) == 0 {
			msg := fmt.Sprintf("want bytes with SHA-256 %s, got %s (%d bytes)", e.BodySHA256, got, len(res.Raw))
			if e.JSON != nil {
				msg += ": the same JSON, but not byte for byte (field order, spacing or number format)"
			}
			out = append(out, Mismatch{"body", msg})
		}
	}
	switch s.Action() {
	case "events":
		out = append(out, r.checkList(s.Events, res, "callbacks", "event_type", s.Events.Types)...)
	case "emails":
		out = append(out, r.checkList(s.Emails, res, "emails", "kind", s.Emails.Kinds)...)
	}
	return out, nil
}

func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// checkList applies an events or emails check to the listed entries.
func (r *run) checkList(lc *ListCheck, res *result, key, field string, seq []string) []Mismatch {
	list, ok := Resolve(res.Body, []Segment{{Key: key}})
	entries, isList := list.([]any)
	if !ok || !isList {
		return []Mismatch{{key, "the answer has no list of " + key}}
	}
	var out []Mismatch
	interp := func(v any) any {
		x, err := Interpolate(v, r.resolve)
		if err != nil {
			out = append(out, Mismatch{key, err.Error()})
			return v
		}
		return x
	}
	if lc.Count != nil {
		out = append(out, MatchValue(key+".count", interp(lc.Count), json.Number(strconv.Itoa(len(entries))), true)...)
	}
	if seq != nil {
		var got []string
		for _, e := range entries {
			v, _ := Resolve(e, []Segment{{Key: field}})
			got = append(got, textOf(v))
		}
		if strings.Join(got, ",") != strings.Join(seq, ",") {
			out = append(out, Mismatch{key + "[*]." + field, fmt.Sprintf("want %s, got %s", Show(seq), Show(got))})
		}
	}
	if lc.Sequence != nil {
		out = append(out, MatchValue(key, interp(lc.Sequence), list, true)...)
	}
	for i, m := range lc.Contains {
		m = interp(m)
		found := false
		for _, e := range entries {
			if len(MatchValue("", m, e, true)) == 0 {
				found = true
				break
			}
		}
		if !found {
			out = append(out, Mismatch{fmt.Sprintf("%s (contains[%d])", key, i), fmt.Sprintf("no entry matches %s", Show(m))})
		}
	}
	for i, m := range lc.Absent {
		m = interp(m)
		for j, e := range entries {
			if len(MatchValue("", m, e, true)) == 0 {
				out = append(out, Mismatch{fmt.Sprintf("%s[%d] (absent[%d])", key, j, i), fmt.Sprintf("want no entry matching %s, found %s", Show(m), Show(e))})
			}
		}
	}
	return out
}

// receiver acknowledges every callback delivery, as an integrator's
// endpoint does (${receiver.url}).
type receiver struct {
	url  string
	srv  *http.Server
	ln   net.Listener
	once sync.Once
}

func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rv := &receiver{url: "http://" + ln.Addr().String() + "/callback", ln: ln}
	rv.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, 8<<20))
		_, _ = io.WriteString(w, "Hello API Event Received")
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = rv.srv.Serve(ln) }()
	return rv, nil
}

func (rv *receiver) Close() { rv.once.Do(func() { _ = rv.srv.Close() }) }
