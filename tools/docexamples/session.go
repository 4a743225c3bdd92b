package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A page's runnable blocks run in one bash session, in order, as a reader
// pastes them into a terminal: variables and files one block makes are there
// for the next. The session runs in a work directory of its own holding the
// files of docs/examples/, with a sandbox of its own on a free port: the
// page's background block, or else the binary as the README starts it.
type session struct {
	cfg   *config
	page  string
	steps []step // the page's blocks to run, in order
	work  string // work directory
	bin   string // directory first on PATH: signsandbox, and go install's GOBIN
	ports map[string]string
}

// sessionTimeout bounds one page's session.
const sessionTimeout = 5 * time.Minute

// blockMark starts each block's output in the session's output.
const blockMark = "@@docexamples block "

// result is what became of a page's blocks.
type result struct {
	ran    map[int]time.Duration // line → time from its start to the next block's
	failed int                   // line of the failing block, 0 if none
	err    string
}

var hostPortRe = regexp.MustCompile(`\b(127\.0\.0\.1|localhost):(\d{2,5})\b`)

// newSession prepares the work directory of a page.
func newSession(cfg *config, page string, steps []step) (*session, error) {
	work := filepath.Join(cfg.tmp, strings.NewReplacer("/", "_", ".", "_").Replace(page))
	s := &session{cfg: cfg, page: page, steps: steps, work: work, bin: filepath.Join(work, ".bin"), ports: map[string]string{}}
	if err := os.MkdirAll(s.bin, 0o755); err != nil {
		return nil, err
	}
	if err := os.Symlink(cfg.binary, filepath.Join(s.bin, "signsandbox")); err != nil {
		return nil, err
	}
	// The example files, where a block names them from a clone's root
	// (docs/examples/nda.pdf) and beside it (nda.pdf).
	examples := filepath.Join(cfg.root, "docs", "examples")
	for _, dst := range []string{work, filepath.Join(work, "docs", "examples")} {
		if err := copyDir(examples, dst); err != nil {
			return nil, err
		}
	}
	if err := cfg.rt.prepare(cfg, work); err != nil {
		return nil, err
	}
	// Every loopback port a block names gets a free port, so that pages run
	// side by side and beside anything else on the machine.
	s.ports["8080"] = ""
	for _, st := range steps {
		for _, text := range append([]string{st.Code, st.Ready}, st.Checks...) {
			for _, m := range hostPortRe.FindAllStringSubmatch(text, -1) {
				s.ports[m[2]] = ""
			}
		}
	}
	for p := range s.ports {
		free, err := freePort()
		if err != nil {
			return nil, err
		}
		s.ports[p] = free
	}
	return s, nil
}

// local rewrites the loopback ports of a text to the session's.
func (s *session) local(text string) string {
	return hostPortRe.ReplaceAllStringFunc(text, func(hp string) string {
		m := hostPortRe.FindStringSubmatch(hp)
		return m[1] + ":" + s.ports[m[2]]
	})
}

// script writes the session's bash script and the files of its blocks.
func (s *session) script() (string, error) {
	var b strings.Builder
	b.WriteString(scriptHead)
	background := false
	for _, st := range s.steps {
		background = background || st.Background()
	}
	if !background {
		// No block starts a sandbox: start the binary as the README does.
		b.WriteString(s.local("( signsandbox ) > .logs/signsandbox.log 2>&1 &\n__started $! http://127.0.0.1:8080/_sandbox/ready .logs/signsandbox.log\n"))
	}
	for _, st := range s.steps {
		// A mark starts a line of its own even when the output before it
		// (curl's, often) ends without a newline.
		fmt.Fprintf(&b, "printf '\\n%s%d\\n'\n", blockMark, st.Line)
		dir := `"$__work"`
		if st.InRepo {
			dir = `"$__repo"`
		}
		fmt.Fprintf(&b, "cd %s\n", dir)
		code := s.local(st.Code)
		switch st.Runner {
		case "shell":
			if st.Background() {
				log := fmt.Sprintf(".logs/block-%d.log", st.Line)
				fmt.Fprintf(&b, "(\n%s) > %s 2>&1 &\n__started $! %s %s\n", code, log, shellQuote(s.local(st.Ready)), log)
			} else {
				b.WriteString(code)
			}
		case "go":
			dir, run, err := s.goModule(st, code)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "(cd %s && %s)\n", shellQuote(dir), run)
		default:
			name, err := s.blockFile(st, code)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s %s\n", interpreters[st.Runner], shellQuote(name))
		}
		fmt.Fprintf(&b, "cd \"$__work\"\n")
		for _, c := range st.Checks {
			fmt.Fprintf(&b, "printf '\\n%%s\\n' %s\n%s\n", shellQuote(fmt.Sprintf("@@docexamples check of line %d: %s", st.Line, c)), s.local(c))
		}
	}
	b.WriteString("printf '\\n" + blockMark + "end\\n'\n")
	path := filepath.Join(s.work, ".session.sh")
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

// scriptHead runs before the blocks: strict mode (a failing command fails
// its block), background servers in process groups of their own, stopped
// when the session ends.
const scriptHead = `set -euo pipefail
set -m
__pids=()
__stop() {
  local p
  for p in "${__pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  for p in "${__pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap __stop EXIT
# __started PID URL LOG: wait until the server started as PID answers URL.
__started() {
  __pids+=("$1")
  local i
  for i in $(seq 600); do
    if curl -fsS -o /dev/null "$2" 2>/dev/null; then return 0; fi
    if ! kill -0 "$1" 2>/dev/null; then echo "the server exited before $2 answered:"; cat "$3"; return 1; fi
    sleep 0.1
  done
  echo "$2 did not answer within 60 s:"; cat "$3"; return 1
}
mkdir -p .logs
`

// interpreters run the block files of each runner.
var interpreters = map[string]string{"node": "node", "python": "python3", "ruby": "ruby", "php": "php"}

// blockFile writes a block into the work directory, where its relative
// paths (vendor/autoload.php, nda.txt) resolve as in the reader's project.
func (s *session) blockFile(st step, code string) (string, error) {
	ext := map[string]string{"node": ".js", "python": ".py", "ruby": ".rb", "php": ".php"}[st.Runner]
	if st.Runner == "node" && (st.Lang == "mjs" || regexp.MustCompile(`(?m)^(import|export) `).MatchString(code)) {
		ext = ".mjs"
	}
	name := fmt.Sprintf(".block-%d%s", st.Line, ext)
	return name, os.WriteFile(filepath.Join(s.work, name), []byte(code), 0o644)
}

// goModule writes a Go block as a module of its own that requires this
// checkout (a replace directive), with the checkout's go.sum: it builds
// from the module cache alone. A block with a Test function runs as a
// test; any other as a program.
func (s *session) goModule(st step, code string) (dir, run string, err error) {
	dir = filepath.Join(s.work, fmt.Sprintf(".block-%d", st.Line))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	mod := fmt.Sprintf("module example.com/docblock\n\ngo 1.26\n\nrequire %s v0.0.0\n\nreplace %s => %s\n", modulePath, modulePath, s.cfg.root)
	sum, err := os.ReadFile(filepath.Join(s.cfg.root, "go.sum"))
	if err != nil {
		return "", "", err
	}
	file, run := "main.go", "go run -mod=mod ."
	if regexp.MustCompile(`(?m)^func (Test|Example)\w*\(`).MatchString(code) {
		file, run = "example_test.go", "go test -mod=mod -count=1 ."
	}
	for name, data := range map[string][]byte{"go.mod": []byte(mod), "go.sum": sum, file: []byte(code)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return "", "", err
		}
	}
	return dir, run, nil
}

const modulePath = "github.com/signsandbox/signsandbox"

// run runs the session and reads which blocks ran.
func (s *session) run() result {
	res := result{ran: map[int]time.Duration{}}
	path, err := s.script()
	if err != nil {
		res.err = err.Error()
		return res
	}
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", path)
	cmd.Dir = s.work
	cmd.Env = s.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out := &timedOutput{start: time.Now()}
	cmd.Stdout, cmd.Stderr = out, out
	runErr := cmd.Run()
	out.close()

	// Split the output at the block marks.
	segments := out.segments()
	lines := make([]int, 0, len(segments))
	for line := range segments {
		lines = append(lines, line)
	}
	sort.Ints(lines)
	for _, line := range lines {
		if line > 0 {
			res.ran[line] = out.took[line]
		}
	}
	last := 0
	if len(lines) > 0 {
		last = lines[len(lines)-1]
	}
	switch {
	case runErr != nil:
		res.failed = last
		res.err = fmt.Sprintf("%v\n%s", runErr, tail(segments[last], 60))
		if ctx.Err() != nil {
			res.err = fmt.Sprintf("the page did not finish within %v\n%s", sessionTimeout, tail(segments[last], 60))
		}
	case !out.ended:
		res.failed = last
		res.err = "the session stopped before its last block\n" + tail(segments[last], 60)
	default:
		// An answer in the official error envelope means a call the
		// example makes failed, whatever curl's exit status says.
		for _, line := range lines {
			if strings.Contains(segments[line], `"error_msg"`) {
				res.failed = line
				res.err = "the output holds an error answer:\n" + tail(segments[line], 30)
				break
			}
		}
	}
	if res.failed != 0 {
		delete(res.ran, res.failed)
		for _, log := range s.logs() {
			res.err += "\n" + log
		}
	}
	return res
}

// env is the session's environment: the caller's, less any SIGNSANDBOX_*
// setting, with the page's binary first on PATH, listening on the page's
// port, and what the runtimes need (rt.env).
func (s *session) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SIGNSANDBOX_") || strings.HasPrefix(kv, "GOBIN=") || strings.HasPrefix(kv, "PATH=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, s.cfg.rt.env...)
	return append(env,
		"PATH="+s.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOBIN="+s.bin, // go install lines install here, not into the machine's GOPATH
		"SIGNSANDBOX_ADDR=127.0.0.1:"+s.ports["8080"],
		"SIGNSANDBOX_BINARY="+s.cfg.binary, // the npm package's helper
		"__work="+s.work, "__repo="+s.cfg.root,
	)
}

// logs are the servers' logs of the session, for a failure's report.
func (s *session) logs() []string {
	names, _ := filepath.Glob(filepath.Join(s.work, ".logs", "*.log"))
	var out []string
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err == nil && len(data) > 0 {
			out = append(out, fmt.Sprintf("--- %s\n%s", filepath.Base(n), tail(string(data), 20)))
		}
	}
	return out
}

// timedOutput collects a session's output and when each block began.
type timedOutput struct {
	start time.Time
	buf   bytes.Buffer
	read  int // bytes of buf whose lines were read
	marks []mark
	ended bool
	took  map[int]time.Duration
}

type mark struct {
	line int
	at   time.Duration
}

func (o *timedOutput) Write(p []byte) (int, error) {
	o.buf.Write(p)
	// Marks are whole lines written by echo: read the lines completed since
	// the last write.
	data := o.buf.Bytes()
	end := bytes.LastIndexByte(data, '\n')
	if end < o.read {
		return len(p), nil
	}
	for _, l := range strings.Split(string(data[o.read:end]), "\n") {
		if rest, ok := strings.CutPrefix(l, blockMark); ok {
			if rest == "end" {
				o.ended = true
			} else if n, err := strconv.Atoi(rest); err == nil {
				o.marks = append(o.marks, mark{n, time.Since(o.start)})
			}
		}
	}
	o.read = end + 1
	return len(p), nil
}

// close sets each block's time: from its mark to the next one.
func (o *timedOutput) close() {
	o.took = map[int]time.Duration{}
	end := time.Since(o.start)
	for i, m := range o.marks {
		next := end
		if i+1 < len(o.marks) {
			next = o.marks[i+1].at
		}
		o.took[m.line] = next - m.at
	}
}

// segments splits the output at the block marks: line → its output (0:
// what came before the first block, the session's own sandbox starting).
func (o *timedOutput) segments() map[int]string {
	seg := map[int]string{}
	cur := 0
	for _, l := range strings.SplitAfter(o.buf.String(), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSuffix(l, "\n"), blockMark); ok {
			if n, err := strconv.Atoi(rest); err == nil {
				cur = n
				seg[cur] += ""
				continue
			}
			if rest == "end" {
				continue
			}
		}
		seg[cur] += l
	}
	return seg
}

// tail is the last n lines of a text.
func tail(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// shellQuote quotes a word for bash.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// freePort is a loopback port nothing listens on now.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}

// copyDir copies the files of src (one level deep is all docs/examples
// has, but sub-directories are copied too) into dst; a missing src is
// nothing to copy.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == src {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
