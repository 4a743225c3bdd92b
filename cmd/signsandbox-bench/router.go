package main

// The router's cost and the servers' capacity (--router): one server
// measured directly and through HAProxy with the shipped configuration
// (deploy/haproxy), in rounds that take turns so that the machine's drift
// does not read as the router's cost, then several servers behind the
// router, one world on each. Besides the rates it reads the CPU time each
// process spent per request (Linux /proc), the figure that carries over to
// other machines: a server's share of a core per call, and the router's.

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// routerConfig is what the --router run needs beside config.
type routerConfig struct {
	// HAProxy is the haproxy executable; Dir holds haproxy.cfg and servers.sh.
	HAProxy string
	Dir     string
	Servers int
}

// routerRow is one line of the router table.
type routerRow struct {
	Name           string
	Direct, Routed *loadResult
	// CPU time per request: the servers' (summed) directly and through the
	// router, and the router's own.
	DirectCPU, ServerCPU, RouterCPU time.Duration
}

// findHAProxy looks for haproxy on the PATH and where Debian installs it.
func findHAProxy(given string) (string, error) {
	if given != "" {
		return given, nil
	}
	if p, err := exec.LookPath("haproxy"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/sbin/haproxy", "/usr/local/sbin/haproxy"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("haproxy is not installed (Debian: apt-get install haproxy), or pass --haproxy")
}

// startRouter runs HAProxy with the shipped configuration in front of the
// given servers (tag → base URL), and waits until it sees them all up.
func startRouter(rc routerConfig, dir string, servers map[string]string, tags []string) (*server, error) {
	args := []string{filepath.Join(rc.Dir, "servers.sh")}
	for _, t := range tags {
		args = append(args, t+"="+strings.TrimPrefix(servers[t], "http://"))
	}
	list, err := exec.Command("sh", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("servers.sh: %w", err)
	}
	serversCfg := filepath.Join(dir, fmt.Sprintf("servers-%d.cfg", len(tags)))
	if err := os.WriteFile(serversCfg, list, 0o600); err != nil {
		return nil, err
	}
	addr, admin := freeAddr(), freeAddr()
	if addr == "" || admin == "" {
		return nil, errors.New("no free loopback port")
	}
	cmd := exec.Command(rc.HAProxy, "-db", "-f", filepath.Join(rc.Dir, "haproxy.cfg"), "-f", serversCfg)
	cmd.Env = append(os.Environ(), "SIGNSANDBOX_ROUTER_ADDR="+addr, "SIGNSANDBOX_ROUTER_ADMIN_ADDR="+admin,
		fmt.Sprintf("SIGNSANDBOX_SHARD_LEN=%d", len(tags[0])))
	// The log (a line per call, as shipped) is part of the router's work;
	// it is read and dropped here.
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, Base: "http://" + addr, done: make(chan error, 1)}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	go func() { s.done <- cmd.Wait() }()
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(30 * time.Second); ; {
		if up, err := routerSeesUp(client, "http://"+admin, len(tags)); err == nil && up {
			return s, nil
		}
		if err := s.Exited(); err != nil {
			return nil, fmt.Errorf("haproxy: %w", err)
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, errors.New("haproxy did not see every server up within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// routerSeesUp reads HAProxy's stats CSV: are n shard servers up?
func routerSeesUp(client *http.Client, admin string, n int) (bool, error) {
	resp, err := client.Get(admin + "/stats;csv")
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return false, err
	}
	up := 0
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Split(line, ",")
		if len(f) > 17 && strings.HasPrefix(f[0], "shard_") && f[1] != "BACKEND" && f[17] == "UP" {
			up++
		}
	}
	return up == n, nil
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return ""
	}
	defer ln.Close()
	return ln.Addr().String()
}

// measureRouter runs the --router measurement.
func measureRouter(c config, rc routerConfig, log io.Writer) ([]routerRow, error) {
	b := &bench{c: c, log: log}
	tmp, err := os.MkdirTemp("", "signsandbox-bench-router-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if c.Binary == "" {
		b.logf("building ./cmd/signsandbox")
		if c.Binary, err = buildSandbox(tmp); err != nil {
			return nil, err
		}
	}
	tags := make([]string, rc.Servers)
	bases := map[string]string{}
	var servers []*server
	defer func() {
		for _, s := range servers {
			s.Stop()
		}
	}()
	for i := range tags {
		tags[i] = fmt.Sprintf("%02x", i+1)
		// As behind a router in use: a shard tag and a data directory each.
		s, err := startSandbox(c.Binary, "--offline", "--shard", tags[i], "--data-dir", filepath.Join(tmp, "data-"+tags[i]))
		if err != nil {
			return nil, err
		}
		servers = append(servers, s)
		bases[tags[i]] = s.Base
	}

	// One server, directly and through the router.
	router, err := startRouter(rc, tmp, bases, tags[:1])
	if err != nil {
		return nil, err
	}
	var rows []routerRow
	one := servers[0]
	w, err := newWorld(router.Base)
	if err != nil {
		router.Stop()
		return nil, err
	}
	direct := world{base: one.Base, key: w.key}
	mpType, mpBody := multipartSend(onePagePDF(c.PDFSize))
	id, _, err := w.sendPage(mpType, mpBody)
	if err != nil {
		router.Stop()
		return nil, err
	}
	// The mixed load in a fresh world, as the main table measures it: not
	// beside the queue the send rounds leave.
	mw, err := newWorld(router.Base)
	if err != nil {
		router.Stop()
		return nil, err
	}
	jsType, jsBody := jsonSend()
	mixedID, _, err := mw.sendOnce(jsType, jsBody)
	if err != nil {
		router.Stop()
		return nil, err
	}
	ops, directOps := mixedCalls(mw, mixedID), mixedCalls(world{base: one.Base, key: mw.key}, mixedID)
	mixedConns := 2 * c.Conns
	for _, r := range []struct {
		name           string
		conns          int
		direct, routed request
	}{
		{"GET /v3/signature_request/{id}", c.Conns, direct.get("/v3/signature_request/" + id), w.get("/v3/signature_request/" + id)},
		{fmt.Sprintf("multipart send, 1-page PDF (%.1f KB)", float64(len(mpBody))/1024), c.Conns,
			direct.post("/v3/signature_request/send", mpType, mpBody), w.post("/v3/signature_request/send", mpType, mpBody)},
		{fmt.Sprintf("mixed load, %d connections", mixedConns), mixedConns, cycle(directOps), cycle(ops)},
	} {
		row, err := b.directAndRouted(r.name, r.conns, []*server{one}, router, r.direct, r.routed)
		if err != nil {
			router.Stop()
			return rows, err
		}
		rows = append(rows, row)
	}
	router.Stop()

	// Every server behind the router, one world on each (new worlds go
	// round robin), connections spread over the worlds.
	if rc.Servers > 1 {
		if router, err = startRouter(rc, tmp, bases, tags); err != nil {
			return rows, err
		}
		defer router.Stop()
		var routed, direct [][]request
		for range tags {
			w, err := newWorld(router.Base)
			if err != nil {
				return rows, err
			}
			id, _, err := w.sendOnce(jsType, jsBody)
			if err != nil {
				return rows, err
			}
			routed = append(routed, mixedCalls(w, id))
			// The same world called at its server, which its key's tag names.
			direct = append(direct, mixedCalls(world{base: bases[w.key[:len(tags[0])]], key: w.key}, id))
		}
		name := fmt.Sprintf("mixed load, %d connections, over %d servers (a world on each)", mixedConns, rc.Servers)
		row, err := b.directAndRouted(name, mixedConns, servers, router, spread(direct), spread(routed))
		if err != nil {
			return rows, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// spread gives each connection one world's calls (connection i the
// world i mod n), in turn.
func spread(worlds [][]request) request {
	return func(worker, i int) (*http.Request, error) {
		o := worlds[worker%len(worlds)]
		return o[(worker/len(worlds)+i)%len(o)](worker, i)
	}
}

// directAndRouted measures one load on the servers directly and through
// the router in turns, half a round each, twice; the servers' CPU is
// summed.
func (b *bench) directAndRouted(name string, conns int, servers []*server, router *server, direct, routed request) (routerRow, error) {
	half := loadSpec{Conns: conns, Duration: b.c.Duration / 2}
	var d, r loadResult
	var dCPU, rCPU, hCPU time.Duration
	alive := func() error {
		for _, s := range append([]*server{router}, servers...) {
			if err := s.Exited(); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; i < 2; i++ {
		u0 := usages(servers)
		x := runLoad(half, direct)
		if x.Errors > 0 {
			return routerRow{}, fmt.Errorf("%s, directly: %d of %d requests failed; first: %s", name, x.Errors, x.Requests, x.FirstError)
		}
		dCPU += usages(servers).minus(u0).CPU
		u0, h0 := usages(servers), router.Usage()
		y, err := loadOn(router, half, routed)
		if err != nil {
			return routerRow{}, fmt.Errorf("%s, through the router: %w", name, err)
		}
		if err := alive(); err != nil {
			return routerRow{}, err
		}
		rCPU += usages(servers).minus(u0).CPU
		hCPU += router.Usage().minus(h0).CPU
		d, r = d.plus(x), r.plus(y)
	}
	b.logf("%s: %.0f req/s directly, %.0f through the router", name, d.RPS(), r.RPS())
	return routerRow{Name: name, Direct: &d, Routed: &r, DirectCPU: perRequest(dCPU, d.Requests),
		ServerCPU: perRequest(rCPU, r.Requests), RouterCPU: perRequest(hCPU, r.Requests)}, nil
}

func perRequest(d time.Duration, n int) time.Duration { return d / time.Duration(max(n, 1)) }

func usages(servers []*server) usage {
	var u usage
	for _, s := range servers {
		u = u.plus(s.Usage())
	}
	return u
}

// cycle sends ops in turn on every connection, each connection starting
// at its own place.
func cycle(ops []request) request {
	return func(worker, i int) (*http.Request, error) { return ops[(worker+i)%len(ops)](worker, i) }
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)) }

// printRouterTable writes the router rows as a Markdown table, then what
// they mean for capacity: calls a second per core of each.
func printRouterTable(w io.Writer, c config, rc routerConfig, rows []routerRow) {
	fmt.Fprintf(w, "\nsignsandbox-bench --router (%d connections, %s rounds, loopback, %d CPUs; servers with --shard and --data-dir, HAProxy %s with deploy/haproxy)\n\n",
		c.Conns, c.Duration, runtime.NumCPU(), haproxyVersion(rc.HAProxy))
	fmt.Fprintln(w, "| load | directly | through HAProxy | ratio | p50 direct / routed | p99 direct / routed | server CPU per call, direct / routed | HAProxy CPU per call |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %.0f req/s | %.0f req/s | %.2f× | %s / %s | %s / %s | %s / %s | %s |\n", r.Name,
			r.Direct.RPS(), r.Routed.RPS(), r.Routed.RPS()/max(r.Direct.RPS(), 1e-9),
			ms(r.Direct.P50), ms(r.Routed.P50), ms(r.Direct.P99), ms(r.Routed.P99), us(r.DirectCPU), us(r.ServerCPU), us(r.RouterCPU))
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		if r.ServerCPU > 0 && r.RouterCPU > 0 {
			fmt.Fprintf(w, "- %s: a core of server CPU serves %.0f calls/s; a core of HAProxy routes %.0f calls/s\n",
				r.Name, float64(time.Second)/float64(r.ServerCPU), float64(time.Second)/float64(r.RouterCPU))
		}
	}
}

func haproxyVersion(haproxy string) string {
	out, err := exec.Command(haproxy, "-v").Output()
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(out))
	if len(f) >= 3 {
		return f[2]
	}
	return "?"
}
