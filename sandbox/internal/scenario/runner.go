package scenario

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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
	// Keep leaves the worlds the run creates on the target (for a look
	// afterwards); by default each is deleted when its document's run ends,
	// so that runs against a long-lived sandbox leave nothing behind.
	Keep bool
	// Advance, when set, moves the world's clock for advance steps instead
	// of POST /_sandbox/clock/advance, to the instant to (or by the
	// duration by, when to is zero). A replay of a real-clock recording
	// runs in a world that shows a real clock, which refuses advances as
	// the recorded one did, on a fake clock that only the replay moves.
	Advance func(to time.Time, by time.Duration) error
	// World, when set, is the API key of a world that holds the document
	// already (its scenario loaded, as `signsandbox --scenario` loads it):
	// the steps run there, without a new world or a load.
	World string
	// Receiver, when set, is the URL ${receiver.url} stands for instead of
	// a receiver the runner serves (one that outlives the run, so that a
	// recording of it replays against the same receiver).
	Receiver string
	// SeededSecret is the secret a world's sequence makes from seed at n
	// (state.SeededSecret): a recording's ${credentials.seqN} resolve to
	// it. Without it they resolve to fresh values.
	SeededSecret func(seed string, n uint64) string
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
	// created is the key of the world this run created ("" when it runs in
	// the default world), for deleting it at the end.
	created string
	// creds resolve a recording's ${credentials.NAME} placeholders; the
	// answers are compared with their values written as placeholders
	// again (nil: the recording kept its credentials).
	creds *Credentials
}

// worldInfo is the part of POST /_sandbox/worlds the runner uses.
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
	r.receiver = rn.Receiver
	if r.receiver == "" {
		recv, err := startReceiver()
		if err != nil {
			rep.Error = "starting the callback receiver: " + err.Error()
			rn.printf("  ERROR %s\n", rep.Error)
			return rep
		}
		defer recv.Close()
		r.receiver = recv.url
	}
	defer r.dropWorld()
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

// dropWorld deletes the world the run created, unless told to keep it. A
// world the steps deleted themselves, or whose key they removed, is left
// alone quietly; any other failure is reported.
func (r *run) dropWorld() {
	if r.created == "" {
		return
	}
	if r.Keep {
		r.printf("  world %v kept (API key %s)\n", r.world["world_id"], r.created)
		return
	}
	code, err := r.control(http.MethodDelete, "/_sandbox/world", basic(r.created), nil, nil)
	if err != nil && code != http.StatusUnauthorized && code != http.StatusNotFound {
		r.printf("  note: the world was not deleted: %v\n", err)
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
			auth, r.created = basic(wi.APIKey), wi.APIKey
		}
		st := rec.State
		if len(rec.Credentials) > 0 {
			creds, err := r.resolveCredentials(rec, auth)
			if err != nil {
				return err
			}
			r.creds, st = creds, creds.RestoreTree(rec.State)
		}
		var wi worldInfo
		if code, err := r.control(http.MethodPut, "/_sandbox/state", auth, st, &wi); err != nil {
			if code == http.StatusConflict {
				return fmt.Errorf("importing the recording's start state: %w (the recorded world's API keys are in use on this sandbox: replay the recording in-process, without --target)", err)
			}
			return fmt.Errorf("importing the recording's start state: %w", err)
		}
		r.key = wi.APIKey
		if r.created != "" {
			r.created = wi.APIKey // the imported state brought its own keys
		}
		r.world = map[string]any{"world_id": wi.WorldID, "api_key": wi.APIKey}
		return r.loadAccounts()
	}
	if r.World != "" && r.doc.Recording == nil {
		var wi map[string]any
		if _, err := r.control(http.MethodGet, "/_sandbox/world", basic(r.World), nil, &wi); err != nil {
			return fmt.Errorf("reading the world: %w", err)
		}
		wi["api_key"] = r.World
		r.world, r.key = wi, r.World
		return r.loadAccounts()
	}
	var wi map[string]any
	if _, err := r.control(http.MethodPost, "/_sandbox/worlds", "", map[string]any{}, &wi); err != nil {
		return fmt.Errorf("creating a world: %w", err)
	}
	r.world = wi
	r.key, _ = wi["api_key"].(string)
	if !r.DefaultWorld {
		r.created = r.key
	}
	if rec := r.doc.Recording; rec != nil {
		// A recording has nothing to load: only steps.
		if len(rec.Credentials) > 0 {
			creds, err := r.resolveCredentials(rec, basic(r.key))
			if err != nil {
				return err
			}
			r.creds = creds
		}
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
	// control decodes with UseNumber: the values are in JSON shapes already.
	for _, sc := range out.Scenarios {
		for k, v := range sc.Seeded {
			r.seed[k] = v
		}
	}
	for _, a := range out.Accounts {
		if e, ok := a["email_address"].(string); ok {
			r.accounts[strings.ToLower(e)] = a
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
	case RootCredentials:
		name := ""
		if len(e.Path) == 1 && !e.Path[0].IsIdx {
			name = e.Path[0].Key
		}
		if r.creds == nil {
			return nil, fmt.Errorf("${%s}: the recording names no credentials", e.Text)
		}
		val, ok := r.creds.Value(name)
		if !ok {
			return nil, fmt.Errorf("${%s}: not among the recording's credentials", e.Text)
		}
		return val, nil
	case RootWorld:
		v = r.world
	case RootSeed:
		v = r.seed
	case RootAccounts:
		v = r.accounts
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

func (r *run) step(i int, s *Step) StepReport {
	sr := StepReport{Index: i, Name: s.Name}
	fail := func(err error) StepReport {
		sr.Passed, sr.Error = false, err.Error()
		return sr
	}
	if s.Action() == "advance" && r.Advance != nil {
		label, err := r.advanceDirectly(s)
		sr.Label = label
		if err != nil {
			return fail(err)
		}
		sr.Passed = true
		return sr
	}
	ex, label, err := r.build(s)
	sr.Label = label
	if err != nil {
		return fail(err)
	}
	res, err := r.doPaged(ex)
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

// resolveCredentials gives each credential a recording left out a value in
// the replay's world (see credentials.go): seqN as that world's sequence
// makes it, otherN as the world's own API key or client secret for the
// same account or app, else fresh. auth reaches the world before the
// recording's state is imported into it.
func (r *run) resolveCredentials(rec *Recording, auth string) (*Credentials, error) {
	seed := stateSeed(rec.State)
	own, err := r.ownCredentials(rec.State, auth)
	if err != nil {
		return nil, err
	}
	creds := NewCredentials()
	for _, name := range rec.Credentials {
		kind, n, length, err := ParseCredentialName(name)
		if err != nil {
			return nil, fmt.Errorf("recording.credentials: %w", err)
		}
		var v string
		switch {
		case kind == "seq" && seed != "" && r.SeededSecret != nil:
			v = r.SeededSecret(seed, n)
			if length > 0 && length < len(v) {
				v = v[:length]
			}
		case own[name] != "":
			v = own[name]
		default:
			v = freshSecret(length)
		}
		creds.Add(name, v)
	}
	return creds, nil
}

// stateSeed is the seed of a recorded state's ID sequence.
func stateSeed(st any) string {
	rows, _ := tableOf(st, "meta")
	if len(rows) != 1 {
		return ""
	}
	seed, _ := rows[0]["seed"].(string)
	return seed
}

// ownCredentials answers, for each API key and OAuth client secret of a
// recorded state that is not from the sequence (otherN: the fixtures'),
// the one the replay's world has for the same account or app, before the
// state replaces it: a world made from the same fixtures has the same.
func (r *run) ownCredentials(st any, auth string) (map[string]string, error) {
	own := map[string]string{}
	keys, _ := tableOf(st, "api_keys")
	apps, _ := tableOf(st, "api_apps")
	if !hasOther(keys, "key") && !hasOther(apps, "oauth", "secret") {
		return own, nil
	}
	var cur struct {
		Tables struct {
			APIKeys []map[string]any `json:"api_keys"`
			APIApps []map[string]any `json:"api_apps"`
		} `json:"tables"`
	}
	if _, err := r.control(http.MethodGet, "/_sandbox/state", auth, nil, &cur); err != nil {
		return nil, fmt.Errorf("reading the world's own credentials: %w", err)
	}
	match := func(recorded, mine []map[string]any, id []string, path ...string) {
		for _, row := range recorded {
			name, ok := otherName(row, path...)
			if !ok {
				continue
			}
			for _, m := range mine {
				if sameFields(row, m, id) {
					if v, _ := pathString(m, path...); v != "" {
						own[name] = v
					}
				}
			}
		}
	}
	match(keys, cur.Tables.APIKeys, []string{"account_id", "seq"}, "key")
	match(apps, cur.Tables.APIApps, []string{"client_id"}, "oauth", "secret")
	return own, nil
}

func tableOf(st any, name string) ([]map[string]any, bool) {
	m, _ := st.(map[string]any)
	tables, _ := m["tables"].(map[string]any)
	list, ok := tables[name].([]any)
	var out []map[string]any
	for _, x := range list {
		if row, ok := x.(map[string]any); ok {
			out = append(out, row)
		}
	}
	return out, ok
}

func pathString(row map[string]any, path ...string) (string, bool) {
	var v any = row
	for _, k := range path {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	s, ok := v.(string)
	return s, ok
}

// otherName is the name of the otherN placeholder a row holds at path.
func otherName(row map[string]any, path ...string) (string, bool) {
	s, _ := pathString(row, path...)
	name, ok := strings.CutPrefix(s, "${"+credentialsRoot+".")
	if !ok || !strings.HasSuffix(name, "}") {
		return "", false
	}
	name = strings.TrimSuffix(name, "}")
	return name, strings.HasPrefix(name, "other")
}

func hasOther(rows []map[string]any, path ...string) bool {
	for _, row := range rows {
		if _, ok := otherName(row, path...); ok {
			return true
		}
	}
	return false
}

func sameFields(a, b map[string]any, keys []string) bool {
	for _, k := range keys {
		if a[k] == nil || fmt.Sprint(a[k]) != fmt.Sprint(b[k]) {
			return false
		}
	}
	return true
}
