// Command signsandbox-bench measures the sandbox binary over loopback and
// prints a table. Beside the sandbox it measures a bare net/http server
// answering the same bytes in the same run, so that the figures are ratios
// that hold on any machine:
//
//	go run ./cmd/signsandbox-bench            # full run (100,000 stored requests; a few minutes)
//	go run ./cmd/signsandbox-bench --short    # under a minute, for CI
//
// It builds ./cmd/signsandbox once (or takes --binary), and exits non-zero
// only when the sandbox fails (an error answer, a crash), never because a
// figure is slow: figures are reported, not asserted.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// config is what one run measures.
type config struct {
	Binary   string
	Short    bool
	Duration time.Duration
	Conns    int
	Stored   int
	Jobs     int
	Starts   int
	PDFSize  int
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "--bare-serve" {
		if err := serveBare(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "bare:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("signsandbox-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.Binary, "binary", "", "sandbox binary to measure (default: build ./cmd/signsandbox)")
	fs.BoolVar(&c.Short, "short", false, "short run for CI: 2 s rounds, 5,000 stored requests, 2,000 jobs")
	fs.DurationVar(&c.Duration, "duration", 0, "length of each throughput round (default 4s, 2s with --short)")
	fs.IntVar(&c.Conns, "conns", 32, "connections of the load generator")
	fs.IntVar(&c.Stored, "stored", 0, "requests stored before the second round (default 100000, 5000 with --short)")
	fs.IntVar(&c.Jobs, "jobs", 0, "due jobs the clock advance runs (default 10000, 2000 with --short)")
	fs.IntVar(&c.Starts, "starts", 5, "start-ups timed (the median is reported)")
	fs.IntVar(&c.PDFSize, "pdf-size", 8<<10, "bytes of the uploaded one-page PDF")
	var rc routerConfig
	router := fs.Bool("router", false, "measure the router instead: one server directly and through HAProxy (deploy/haproxy), then --servers behind it")
	fs.IntVar(&rc.Servers, "servers", 3, "with --router: servers behind the router in the last round")
	fs.StringVar(&rc.HAProxy, "haproxy", "", "with --router: the haproxy executable (default: haproxy on the PATH, or /usr/sbin/haproxy)")
	fs.StringVar(&rc.Dir, "haproxy-config", filepath.Join("deploy", "haproxy"), "with --router: the directory of haproxy.cfg and servers.sh")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	def := func(v *int, full, short int) {
		if *v == 0 {
			*v = full
			if c.Short {
				*v = short
			}
		}
	}
	def(&c.Stored, 100000, 5000)
	def(&c.Jobs, 10000, 2000)
	if c.Duration == 0 {
		c.Duration = 4 * time.Second
		if c.Short {
			c.Duration = 2 * time.Second
		}
	}
	if *router {
		return runRouter(c, rc, stdout, stderr)
	}
	rows, err := measure(c, stderr)
	printTable(stdout, c, rows)
	if err != nil {
		fmt.Fprintln(stderr, "signsandbox-bench:", err)
		return 1
	}
	return 0
}

// runRouter is the --router run.
func runRouter(c config, rc routerConfig, stdout, stderr io.Writer) int {
	var err error
	if rc.HAProxy, err = findHAProxy(rc.HAProxy); err != nil {
		fmt.Fprintln(stderr, "signsandbox-bench:", err)
		return 1
	}
	if rc.Servers < 1 || rc.Servers > 255 {
		fmt.Fprintln(stderr, "signsandbox-bench: --servers must be 1 to 255")
		return 2
	}
	rows, err := measureRouter(c, rc, stderr)
	printRouterTable(stdout, c, rc, rows)
	if err != nil {
		fmt.Fprintln(stderr, "signsandbox-bench:", err)
		return 1
	}
	return 0
}

// row is one line of the table.
type row struct {
	Name string
	// Load is set for throughput rows; Bare for rows with a bare twin.
	Load *loadResult
	Bare *loadResult
	// Base is the same measurement in the empty world, for "vs empty".
	Base *loadResult
	// Value is the figure of other rows, already formatted.
	Value string
	Note  string
}

// bench carries the state of one run.
type bench struct {
	c    config
	log  io.Writer
	sb   *server
	bare *server
	rows []row
}

func (b *bench) logf(format string, a ...any) { fmt.Fprintf(b.log, "bench: "+format+"\n", a...) }

// load runs one round against the sandbox and fails on any error answer.
func (b *bench) load(spec loadSpec, req request) (loadResult, error) {
	if spec.Conns == 0 {
		spec.Conns = b.c.Conns
	}
	if spec.Duration == 0 && spec.Count == 0 {
		spec.Duration = b.c.Duration
	}
	return loadOn(b.sb, spec, req)
}

// loadOn runs one round against sb and fails on any error answer or an
// exit of the process.
func loadOn(sb *server, spec loadSpec, req request) (loadResult, error) {
	r := runLoad(spec, req)
	if r.Errors > 0 {
		return r, fmt.Errorf("%d of %d requests failed; first: %s", r.Errors, r.Requests, r.FirstError)
	}
	if err := sb.Exited(); err != nil {
		return r, err
	}
	return r, nil
}

// bareLoad runs the same round against the bare server.
func (b *bench) bareLoad(path, ctype string, body []byte) loadResult {
	w := world{base: b.bare.Base, key: "bare"}
	var req request
	if body == nil {
		req = w.get(path)
	} else {
		req = w.post(path, ctype, body)
	}
	return runLoad(loadSpec{Conns: b.c.Conns, Duration: b.c.Duration}, req)
}

func measure(c config, log io.Writer) ([]row, error) {
	b := &bench{c: c, log: log}
	tmp, err := os.MkdirTemp("", "signsandbox-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if b.c.Binary == "" {
		b.logf("building ./cmd/signsandbox")
		if b.c.Binary, err = buildSandbox(tmp); err != nil {
			return nil, err
		}
	}
	if err := b.startups(); err != nil {
		return b.rows, err
	}
	// A short quiet spell gives memory back (--release-idle), so that the
	// filled world's RSS at rest is measured without a long wait. Only the
	// bare rounds before the fill leave the server quiet that long, while
	// its heap is a few MB.
	if b.sb, err = startSandbox(b.c.Binary, "--offline", "--release-idle", restQuiet.String()); err != nil {
		return b.rows, err
	}
	defer func() { // the server in use when measure returns
		if b.sb != nil {
			b.sb.Stop()
		}
	}()
	err = b.throughput(tmp)
	if b.bare != nil {
		b.bare.Stop() // also when a round failed: no process is left behind
	}
	if err != nil {
		return b.rows, err
	}
	// The flows below start from a fresh server, as the mixed load of issue
	// 11 did, rather than beside the heap of the filled world.
	b.sb.Stop()
	b.sb = nil
	fresh, err := startSandbox(b.c.Binary, "--offline")
	if err != nil {
		return b.rows, err
	}
	b.sb = fresh
	if err := b.callbackFlow(); err != nil {
		return b.rows, err
	}
	if err := b.mixed(); err != nil {
		return b.rows, err
	}
	if err := b.advance(); err != nil {
		return b.rows, err
	}
	return b.rows, nil
}

// restQuiet is the --release-idle of the measured server.
const restQuiet = 3 * time.Second

// restingRSS waits, without a request, until the server has had a quiet
// spell long enough to give memory back (two of its ticks at most), and
// answers its RSS then.
func (b *bench) restingRSS() int64 {
	time.Sleep(2*restQuiet + restQuiet/2)
	return b.sb.RSS()
}

// startups times exec-to-first-answer and reads the idle RSS.
func (b *bench) startups() error {
	var times []time.Duration
	var rss int64
	for i := 0; i < max(1, b.c.Starts); i++ {
		s, err := startSandbox(b.c.Binary)
		if err != nil {
			return err
		}
		times = append(times, s.Startup)
		if i == 0 {
			time.Sleep(500 * time.Millisecond)
			rss = s.RSS()
		}
		s.Stop()
	}
	slices.Sort(times)
	b.rows = append(b.rows,
		row{Name: "start-up, exec to first answer (median)", Value: ms(times[len(times)/2]),
			Note: fmt.Sprintf("%d starts, %s to %s", len(times), ms(times[0]), ms(times[len(times)-1]))},
		row{Name: "idle RSS", Value: mb(rss)})
	b.logf("start-up %s, idle RSS %s", ms(times[len(times)/2]), mb(rss))
	return nil
}

// throughput measures GET by id, a list page and both sends beside the bare
// server, fills a world with stored requests and measures again.
func (b *bench) throughput(tmp string) error {
	pdf := onePagePDF(b.c.PDFSize)
	mpType, mpBody := multipartSend(pdf)
	jsType, jsBody := jsonSend()
	rssStart := b.sb.RSS()
	s, err := newWorld(b.sb.Base)
	if err != nil {
		return err
	}
	liveStart, err := liveHeap(s)
	if err != nil {
		return err
	}
	id, mpAnswer, err := s.sendPage(mpType, mpBody)
	if err != nil {
		return err
	}
	getPath := "/v3/signature_request/" + id
	getType, getBody, err := s.fetch(getPath)
	if err != nil {
		return err
	}
	listType, listBody, err := s.fetch(listPagePath)
	if err != nil {
		return err
	}
	j, err := newWorld(b.sb.Base)
	if err != nil {
		return err
	}
	_, jsAnswer, err := j.sendOnce(jsType, jsBody)
	if err != nil {
		return err
	}
	bareDir := filepath.Join(tmp, "bare")
	if err := os.Mkdir(bareDir, 0o700); err != nil {
		return err
	}
	if err := writeBare(bareDir, []bareBody{
		{"/get", getType, getBody}, {"/list", listType, listBody},
		{"/send_json", "application/json", jsAnswer}, {"/send_multipart", "application/json", mpAnswer},
	}); err != nil {
		return err
	}
	if b.bare, err = startBare(bareDir); err != nil {
		return err
	}

	type round struct {
		name, bare, ctype string
		body              []byte
		req               request
	}
	getRound := round{"GET /v3/signature_request/{id}", "/get", "", nil, s.get(getPath)}
	listRound := round{"list page (page_size=20)", "/list", "", nil, s.get(listPagePath)}
	mpRound := round{fmt.Sprintf("multipart send, 1-page PDF (%.1f KB)", float64(len(pdf))/1024), "/send_multipart", mpType, mpBody,
		s.post("/v3/signature_request/send", mpType, mpBody)}
	jsRound := round{"JSON send (file_urls, offline)", "/send_json", jsType, jsBody, j.post("/v3/signature_request/send", jsType, jsBody)}

	empty := map[string]loadResult{}
	stored := 20
	for _, r := range []round{getRound, listRound, mpRound, jsRound} {
		bare := b.bareLoad(r.bare, r.ctype, r.body)
		res, err := b.load(loadSpec{}, r.req)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		if r.req != nil && r.name == mpRound.name {
			stored += res.Requests
		}
		empty[r.name] = res
		b.rows = append(b.rows, row{Name: r.name, Load: &res, Bare: &bare})
		b.logf("%s: %.0f req/s (bare %.0f)", r.name, res.RPS(), bare.RPS())
	}

	// Fill the world to the stored count, running the clock over each
	// chunk's jobs as a running server would, then measure again.
	fill := max(0, b.c.Stored-stored)
	b.logf("storing %d more requests (multipart, one shared upload)", fill)
	filled, proc, err := b.fill(s, mpRound.req, fill)
	if err != nil {
		return err
	}
	stored += filled.Requests
	if fill > 0 { // the first round may already have stored enough
		b.rows = append(b.rows,
			row{Name: fmt.Sprintf("multipart send while filling to %d stored", stored), Load: &filled,
				Note: "p50/p99 of the slowest chunk"},
			row{Name: "clock advance over the fill's due jobs", Value: ms(proc.took),
				Note: fmt.Sprintf("%d jobs in chunks of %d sends, %.0f µs per job", proc.jobs, fillChunk, float64(proc.took.Microseconds())/float64(max(1, proc.jobs)))})
	}
	// The filled world is compared with an empty one measured at the same
	// time: a second server, in rounds that alternate with the filled
	// world's. The machine's speed drifts over a run (a virtual machine
	// whose host is busy at times), and against the first rounds, a
	// minute earlier, the drift showed as a change of the world's cost.
	twin, err := b.emptyTwin(mpType, mpBody)
	if err != nil {
		return err
	}
	defer twin.sb.Stop()
	twinReq := map[string]request{mpRound.name: twin.send, getRound.name: twin.get, listRound.name: twin.list}
	for _, r := range []round{mpRound, getRound, listRound} {
		res, base, err := b.alternate(r.req, twin, twinReq[r.name])
		if err != nil {
			return fmt.Errorf("%s after fill: %w", r.name, err)
		}
		if r.name == mpRound.name {
			stored += res.Requests
		}
		b.rows = append(b.rows, row{Name: fmt.Sprintf("%s, %d stored", r.name, stored), Load: &res, Base: &base})
		b.logf("%s with %d stored: %.0f req/s (empty world meanwhile %.0f, at first %.0f)", r.name, stored, res.RPS(), base.RPS(), empty[r.name].RPS())
	}
	if _, err := advanceClock(s, 10); err != nil { // the last round's sends are processed too
		return err
	}
	rss := b.sb.RSS()
	rest := b.restingRSS()
	live, err := liveHeap(s)
	if err != nil {
		return err
	}
	b.rows = append(b.rows,
		row{Name: fmt.Sprintf("RSS with %d stored requests", stored), Value: mb(rss), Note: "right after the last round"},
		row{Name: fmt.Sprintf("RSS with %d stored requests, at rest", stored), Value: mb(rest),
			Note: fmt.Sprintf("after --release-idle %s without requests", restQuiet)},
		row{Name: "RSS per stored request", Value: fmt.Sprintf("%.1f KB", float64(rss-rssStart)/float64(stored)/1024),
			Note: fmt.Sprintf("RSS growth / stored; one shared %.1f KB upload", float64(len(pdf))/1024)},
		row{Name: "live heap per stored request", Value: fmt.Sprintf("%.1f KB", float64(live-liveStart)/float64(stored)/1024),
			Note: "growth of signsandbox_heap_live_bytes / stored, jobs run, read at rest after the release's full collection"})
	return nil
}

// twinServer is an empty world on a server of its own, measured beside the
// filled one (alternate).
type twinServer struct {
	sb              *server
	send, get, list request
}

// emptyTwin starts a second server with one world holding a list page of
// requests, as the filled world held before it was filled.
func (b *bench) emptyTwin(mpType string, mpBody []byte) (*twinServer, error) {
	sb, err := startSandbox(b.c.Binary, "--offline")
	if err != nil {
		return nil, err
	}
	w, err := newWorld(sb.Base)
	if err != nil {
		sb.Stop()
		return nil, err
	}
	id, _, err := w.sendPage(mpType, mpBody)
	if err != nil {
		sb.Stop()
		return nil, err
	}
	return &twinServer{sb: sb, send: w.post("/v3/signature_request/send", mpType, mpBody),
		get: w.get("/v3/signature_request/" + id), list: w.get(listPagePath)}, nil
}

// alternate measures req on the filled server and twin on the empty one in
// rounds that take turns, half a round each, twice: what each answered in
// its two turns together.
func (b *bench) alternate(req request, twin *twinServer, twinReq request) (filled, empty loadResult, err error) {
	half := loadSpec{Conns: b.c.Conns, Duration: b.c.Duration / 2}
	var fu, eu usage
	for i := 0; i < 2; i++ {
		u0 := b.sb.Usage()
		f, err := b.load(half, req)
		if err != nil {
			return filled, empty, err
		}
		fu = fu.plus(b.sb.Usage().minus(u0))
		t0 := twin.sb.Usage()
		e, err := loadOn(twin.sb, half, twinReq)
		if err != nil {
			return filled, empty, fmt.Errorf("empty world: %w", err)
		}
		eu = eu.plus(twin.sb.Usage().minus(t0))
		filled, empty = filled.plus(f), empty.plus(e)
	}
	per := func(u usage, n int) string {
		n = max(n, 1)
		return fmt.Sprintf("%.0f µs CPU and %.1f page faults per request", float64(u.CPU.Microseconds())/float64(n), float64(u.Faults)/float64(n))
	}
	b.logf("  filled world: %s; empty world: %s", per(fu, filled.Requests), per(eu, empty.Requests))
	return filled, empty, nil
}

// fillChunk is how many sends the fill stores between two clock advances.
const fillChunk = 10000

// processing is what the fill's clock advances ran.
type processing struct {
	jobs int
	took time.Duration
}

// fill stores n sends in chunks and advances the clock over each chunk's
// jobs, so that the world holds processed requests as it would on a
// running clock, not a queue of 2n jobs. The result sums the chunks'
// requests and send time (the advances excluded) and keeps the slowest
// chunk's percentiles.
func (b *bench) fill(w world, send request, n int) (loadResult, processing, error) {
	var sum loadResult
	var proc processing
	for done := 0; done < n; {
		res, err := b.load(loadSpec{Count: min(fillChunk, n-done), Duration: -1}, send)
		if err != nil {
			return sum, proc, fmt.Errorf("fill: %w", err)
		}
		done += res.Requests
		sum.Requests += res.Requests
		sum.Elapsed += res.Elapsed
		sum.P50, sum.P99 = max(sum.P50, res.P50), max(sum.P99, res.P99)
		t0 := time.Now()
		jobs, err := advanceClock(w, 10)
		if err != nil {
			return sum, proc, err
		}
		proc.took += time.Since(t0)
		proc.jobs += jobs
	}
	return sum, proc, nil
}

// advanceClock moves a world's fake clock and answers how many jobs ran.
func advanceClock(w world, seconds int) (int, error) {
	var out struct {
		Jobs []struct{} `json:"jobs"`
	}
	err := call(http.MethodPost, w.base+"/_sandbox/clock/advance", w.key, map[string]any{"seconds": seconds}, &out)
	return len(out.Jobs), err
}

// callbackFlow is a callback-heavy mix in a world whose account has a
// callback URL: sends, clock advances that wait for the callbacks they
// made due, and pages of the callback log and the outbox.
func (b *bench) callbackFlow() error {
	url, stop, err := startReceiver()
	if err != nil {
		return err
	}
	defer stop()
	w, err := newWorld(b.sb.Base)
	if err != nil {
		return err
	}
	if err := call(http.MethodPut, w.base+"/v3/account", w.key, map[string]any{"callback_url": url}, nil); err != nil {
		return err
	}
	mpType, mpBody := multipartSend(onePagePDF(b.c.PDFSize))
	ops := []request{
		w.post("/v3/signature_request/send", mpType, mpBody),
		w.post("/_sandbox/clock/advance", "application/json", []byte(`{"seconds": 3, "wait_callbacks": true}`)),
		w.get("/_sandbox/callbacks?limit=100&order=desc"),
		w.get("/_sandbox/emails?limit=100&order=desc"),
	}
	res, err := b.load(loadSpec{}, func(worker, i int) (*http.Request, error) {
		return ops[(worker+i)%len(ops)](worker, i)
	})
	if err != nil {
		return fmt.Errorf("callback flow: %w", err)
	}
	b.rows = append(b.rows, row{Name: "callback-heavy flow (send, advance+wait, callbacks page, emails page)", Load: &res})
	b.logf("callback flow: %.0f req/s", res.RPS())
	return nil
}

// mixed is issue 11's mixed load at twice the connections: account, a
// list page, an offline JSON send, GET by id, a clock advance, the template
// list and a page of the callback log, in turn on every connection.
func (b *bench) mixed() error {
	w, err := newWorld(b.sb.Base)
	if err != nil {
		return err
	}
	ops, err := mixedOps(w)
	if err != nil {
		return err
	}
	rss := b.sb.RSS()
	conns := 2 * b.c.Conns
	res, err := b.load(loadSpec{Conns: conns}, func(worker, i int) (*http.Request, error) {
		return ops[(worker+i)%len(ops)](worker, i)
	})
	if err != nil {
		return fmt.Errorf("mixed load: %w", err)
	}
	b.rows = append(b.rows,
		row{Name: fmt.Sprintf("mixed load, %d connections (account, list, JSON send, GET, advance, templates, callbacks page)", conns), Load: &res},
		row{Name: "RSS after the mixed load", Value: mb(b.sb.RSS()), Note: "before: " + mb(rss)})
	b.logf("mixed load: %.0f req/s", res.RPS())
	return nil
}

// mixedOps are the calls of the mixed load in a world, after one send
// whose request the GET reads.
func mixedOps(w world) ([]request, error) {
	jsType, jsBody := jsonSend()
	id, _, err := w.sendOnce(jsType, jsBody)
	if err != nil {
		return nil, err
	}
	return mixedCalls(w, id), nil
}

// mixedCalls are the calls of the mixed load in a world holding the
// request id.
func mixedCalls(w world, id string) []request {
	jsType, jsBody := jsonSend()
	return []request{
		w.get("/v3/account"),
		w.get("/v3/signature_request/list?page_size=20"),
		w.post("/v3/signature_request/send", jsType, jsBody),
		w.get("/v3/signature_request/" + id),
		w.post("/_sandbox/clock/advance", "application/json", []byte(`{"seconds": 1}`)),
		w.get("/v3/template/list"),
		w.get("/_sandbox/callbacks?limit=100&order=desc"),
	}
}

// advance times one clock advance over the processing jobs of Jobs sends.
func (b *bench) advance() error {
	w, err := newWorld(b.sb.Base)
	if err != nil {
		return err
	}
	mpType, mpBody := multipartSend(onePagePDF(b.c.PDFSize))
	if _, err := b.load(loadSpec{Count: b.c.Jobs, Duration: -1}, w.post("/v3/signature_request/send", mpType, mpBody)); err != nil {
		return fmt.Errorf("advance setup: %w", err)
	}
	var out struct {
		Jobs []struct{} `json:"jobs"`
	}
	t0 := time.Now()
	if err := call(http.MethodPost, w.base+"/_sandbox/clock/advance", w.key, map[string]any{"seconds": 3}, &out); err != nil {
		return err
	}
	took := time.Since(t0)
	b.rows = append(b.rows, row{Name: fmt.Sprintf("clock advance over %d due jobs", len(out.Jobs)), Value: ms(took),
		Note: "request processing of as many sends"})
	b.logf("advance over %d jobs: %s", len(out.Jobs), ms(took))
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
func mb(n int64) string         { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// printTable writes the rows as a Markdown table.
func printTable(w io.Writer, c config, rows []row) {
	mode := "full"
	if c.Short {
		mode = "short"
	}
	fmt.Fprintf(w, "\nsignsandbox-bench (%s run: %d connections, %s rounds, loopback)\n\n", mode, c.Conns, c.Duration)
	fmt.Fprintln(w, "| measurement | sandbox | bare net/http | ratio | p50 | p99 | vs empty world |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		if r.Load == nil {
			note := r.Value
			if r.Note != "" {
				note += " (" + r.Note + ")"
			}
			fmt.Fprintf(w, "| %s | %s | | | | | |\n", r.Name, note)
			continue
		}
		bare, ratio, vs := "", "", ""
		if r.Bare != nil && r.Bare.RPS() > 0 {
			bare = fmt.Sprintf("%.0f req/s", r.Bare.RPS())
			ratio = fmt.Sprintf("%.2f×", r.Load.RPS()/r.Bare.RPS())
		}
		if r.Base != nil && r.Base.RPS() > 0 {
			vs = fmt.Sprintf("%.2f×", r.Load.RPS()/r.Base.RPS())
		}
		fmt.Fprintf(w, "| %s | %.0f req/s | %s | %s | %s | %s | %s |\n", r.Name, r.Load.RPS(), bare, ratio,
			ms(r.Load.P50), ms(r.Load.P99), vs)
	}
}
