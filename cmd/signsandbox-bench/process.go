package main

// The processes under test: the sandbox binary (built once from this
// checkout, or given) and the bare net/http server (this binary again, in
// bare mode), so that both are measured as separate processes alike.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// buildSandbox compiles ./cmd/signsandbox of the module that contains the
// working directory into dir, as the Dockerfile does.
func buildSandbox(dir string) (string, error) {
	out := filepath.Join(dir, "signsandbox")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./cmd/signsandbox")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/signsandbox (run from the repository root or pass --binary): %w", err)
	}
	return out, nil
}

// server is a started process that answers HTTP on Base.
type server struct {
	cmd  *exec.Cmd
	Base string
	// Key is the default world's API key (the sandbox only).
	Key string
	// Startup is the time from exec until the first answer.
	Startup time.Duration
	done    chan error
}

// startSandbox starts the binary on a free loopback port and waits until
// /_sandbox/health answers.
func startSandbox(binary string, extra ...string) (*server, error) {
	args := append([]string{"--addr", "127.0.0.1:0", "--log-level", "error", "--clock", "fake"}, extra...)
	return startProcess(exec.Command(binary, args...), "/_sandbox/health")
}

// startBare starts this program in bare mode serving the files of dir.
func startBare(dir string) (*server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return startProcess(exec.Command(self, "--bare-serve", dir), "/health")
}

// startProcess reads the "listening on URL" line (and the "API key:" line)
// the process prints, then polls health until it answers 200.
func startProcess(cmd *exec.Cmd, health string) (*server, error) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, done: make(chan error, 1)}
	lines := bufio.NewScanner(stdout)
	found := make(chan struct{})
	go func() {
		for lines.Scan() {
			line := lines.Text()
			if _, url, ok := strings.Cut(line, "listening on "); ok && s.Base == "" {
				s.Base = strings.TrimSpace(url)
			}
			if k, ok := strings.CutPrefix(line, "API key:"); ok {
				s.Key = strings.TrimSpace(k)
			}
			if s.Base != "" && (s.Key != "" || !strings.Contains(health, "_sandbox")) {
				close(found)
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() { s.done <- cmd.Wait() }()
	select {
	case <-found:
	case err := <-s.done:
		return nil, fmt.Errorf("%s exited before listening: %v", cmd.Path, err)
	case <-time.After(30 * time.Second):
		s.Stop()
		return nil, fmt.Errorf("%s did not say where it listens within 30 s", cmd.Path)
	}
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, err := client.Get(s.Base + health)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("%s: %s did not answer 200 within 30 s", cmd.Path, health)
		}
		time.Sleep(time.Millisecond)
	}
	s.Startup = time.Since(t0)
	return s, nil
}

// RSS is the resident memory of the process in bytes (Linux /proc; 0
// elsewhere).
func (s *server) RSS() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// usage is what a process has used so far: CPU time (user and system)
// and minor page faults.
type usage struct {
	CPU    time.Duration
	Faults int64
}

// Usage reads the process's CPU time and minor faults from /proc (zero
// where /proc is not there).
func (s *server) Usage() usage {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return usage{}
	}
	// Fields after the command name, which is in parentheses and may
	// hold spaces: state is field 3, minflt 10, utime 14, stime 15.
	end := strings.LastIndex(string(b), ") ")
	if end < 0 {
		return usage{}
	}
	rest := string(b)[end+2:]
	f := strings.Fields(rest)
	if len(f) < 13 {
		return usage{}
	}
	num := func(i int) int64 { n, _ := strconv.ParseInt(f[i-3], 10, 64); return n }
	const ticks = 100 // USER_HZ on Linux
	return usage{CPU: time.Duration(num(14)+num(15)) * time.Second / ticks, Faults: num(10)}
}

func (u usage) minus(o usage) usage { return usage{CPU: u.CPU - o.CPU, Faults: u.Faults - o.Faults} }

func (u usage) plus(o usage) usage { return usage{CPU: u.CPU + o.CPU, Faults: u.Faults + o.Faults} }

// Exited reports an early exit of the process (a crash), nil while it runs.
func (s *server) Exited() error {
	select {
	case err := <-s.done:
		s.done <- err
		if err == nil {
			err = errors.New("exited")
		}
		return fmt.Errorf("%s %v", s.cmd.Path, err)
	default:
		return nil
	}
}

// Stop interrupts the process and waits for it, killing it after ten
// seconds.
func (s *server) Stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	kill := time.AfterFunc(10*time.Second, func() { _ = s.cmd.Process.Kill() })
	defer kill.Stop()
	<-s.done //nolint:errcheck // how a stopped server exited is no figure of the benchmark
}

// bareBody is one canned answer of the bare server: the bytes and content
// type the sandbox answered for the same request.
type bareBody struct {
	Path        string
	ContentType string
	Body        []byte
}

// writeBare stores the canned answers for the bare server.
func writeBare(dir string, bodies []bareBody) error {
	for _, b := range bodies {
		name := filepath.Join(dir, strings.TrimPrefix(b.Path, "/"))
		if err := os.WriteFile(name+".body", b.Body, 0o600); err != nil {
			return err
		}
		if err := os.WriteFile(name+".type", []byte(b.ContentType), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// serveBare is bare mode: a plain net/http server that reads each request
// body and answers the canned bytes of its path, the floor the sandbox is
// compared with.
func serveBare(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".body")
		if !ok {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		ctype, _ := os.ReadFile(filepath.Join(dir, name+".type"))
		mux.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", string(ctype))
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			_, _ = w.Write(body)
		})
	}
	srv := &http.Server{Handler: mux}
	ln, err := listenLoopback()
	if err != nil {
		return err
	}
	fmt.Printf("bare listening on http://%s\n", ln.Addr())
	ctx, stop := signalContext()
	defer stop()
	go func() { <-ctx.Done(); _ = srv.Shutdown(context.Background()) }()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
