package main

// What the server writes. Its log goes to stderr; the start-up banner and
// the farewell go to stdout. In text format (the default) the banner is
// written for people, as lines to read; with --log-format json every line
// on both streams is one JSON object (log/slog's JSON handler), the banner
// included, so that a collector that parses each line (Docker,
// Kubernetes, Loki) reads them all.
//
// The access log lives here, not in the sandbox package, because a
// duration needs the wall clock, which the sandbox never reads (its
// worlds' clocks are the only time it knows); the sandbox tells it the
// operation, the world and why a refused call was refused (CallNote).

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/edge"
)

// output is where the server speaks: log records on stderr, the banner
// and the farewell on stdout. Its stderr lines go through a logWriter, so
// that the access log costs a request a copy into a buffer rather than a
// system call; close writes what waits.
type output struct {
	json           bool
	stdout, stderr io.Writer
	lines          *logWriter
	// log writes to stderr; said writes to stdout (JSON format only: text
	// banners are plain lines).
	log  *slog.Logger
	said *slog.Logger
}

// newOutput is the server's output for a format ("text" or "json") and a
// log level.
func newOutput(format string, level slog.Level, stdout, stderr io.Writer) *output {
	opts := &slog.HandlerOptions{Level: level}
	lines := newLogWriter(stderr)
	o := &output{json: format == "json", stdout: stdout, stderr: lines, lines: lines}
	if o.json {
		o.log = slog.New(slog.NewJSONHandler(lines, opts))
		o.said = slog.New(slog.NewJSONHandler(stdout, &slog.HandlerOptions{Level: slog.LevelInfo}))
	} else {
		o.log = slog.New(slog.NewTextHandler(lines, opts))
	}
	return o
}

// close writes the log lines that wait; later ones are written at once.
func (o *output) close() { o.lines.Close() }

// formatOf guesses the log format of a command line that did not parse,
// so that its error is written as the rest would have been.
func formatOf(args []string, getenv func(string) string) string {
	format := getenv("SIGNSANDBOX_LOG_FORMAT")
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "log-format" || !strings.HasPrefix(a, "-") {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		format = value
	}
	return format
}

// fail reports why the server cannot start (or stopped): a line of text
// on stderr, or an error record; a command line that cannot be read
// points to -h.
func (o *output) fail(err error) {
	msg := "signsandbox: " + err.Error()
	if isUsage(err) {
		msg += " (signsandbox -h lists the flags)"
	}
	if o.json {
		o.log.Error(msg)
		return
	}
	fmt.Fprintln(o.stderr, msg)
}

// banner says where the sandbox listens and how to call it, and, when the
// listener is reachable beyond loopback without an admin token, that
// anyone who can reach it can administer it.
func (o *output) banner(addr, key string, adminToken bool) {
	base := "http://" + displayAddr(addr)
	warning := ""
	if !adminToken && !isLoopback(addr) {
		warning = "the control plane is open: anyone who can reach " + addr + " can create, delete and replace worlds; set --admin-token (SIGNSANDBOX_ADMIN_TOKEN)"
	}
	if o.json {
		admin := "none"
		if adminToken {
			admin = "required (header " + edge.AdminHeader + ")"
		}
		o.said.Info("listening", "version", sandbox.Version, "url", base, "api_base_url", base+"/v3",
			"api_key", key, "admin_token", admin, "console", base+"/_sandbox/console/",
			"try", "curl -u "+key+": "+base+"/v3/account")
		if warning != "" {
			o.said.Warn(warning, "addr", addr)
		}
		return
	}
	w := o.stdout
	fmt.Fprintf(w, "signsandbox %s listening on %s\n", sandbox.Version, base)
	fmt.Fprintf(w, "API base URL: %s/v3\n", base)
	fmt.Fprintf(w, "API key:      %s\n", key)
	switch {
	case adminToken:
		fmt.Fprintf(w, "admin token:  required (header %s) for worlds, state import and control calls without a key\n", edge.AdminHeader)
	case warning != "":
		fmt.Fprintf(w, "WARNING:      %s\n", warning)
	}
	fmt.Fprintf(w, "console:      %s/_sandbox/console/\n", base)
	fmt.Fprintf(w, "try:          curl -u %s: %s/v3/account\n", key, base)
}

// stopped says the server has stopped.
func (o *output) stopped() {
	if o.json {
		o.said.Info("signsandbox stopped")
		return
	}
	fmt.Fprintln(o.stdout, "signsandbox stopped")
}

// accessLog wraps next with the access log: one info line per request,
// with its method, path (edge.LogPath: page tokens and query values left
// out), status, bytes, duration, operation, world and request id, and for
// a refused call the reason the sandbox gives (never the credential).
// When the logger is quieter than info it returns next itself, at no cost.
func accessLog(logger *slog.Logger, next http.Handler) http.Handler {
	if !logger.Enabled(context.Background(), slog.LevelInfo) {
		return next
	}
	ids := newRequestIDs()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		aw := &accessWriter{ResponseWriter: w}
		next.ServeHTTP(aw, r)
		status := aw.status
		if status == 0 {
			status = http.StatusOK
		}
		attrs := [9]slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", edge.LogPath(r.URL.Path, r.URL.RawQuery)),
			slog.Int("status", status),
			slog.Int64("bytes", aw.bytes),
			slog.Duration("duration", time.Since(start)),
		}
		n := 5
		if aw.note.Operation != "" {
			attrs[n] = slog.String("operation", aw.note.Operation)
			n++
		}
		if aw.note.World != "" {
			attrs[n] = slog.String("world", aw.note.World)
			n++
		}
		attrs[n] = slog.String("request_id", ids.of(r))
		n++
		if aw.note.Refusal != "" {
			attrs[n] = slog.String("reason", aw.note.Refusal)
			n++
		}
		logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs[:n]...)
	})
}

// accessWriter notes the status and counts the bytes of an answer, and
// takes the sandbox's note of the request (sandbox.CallNoteTaker).
type accessWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	note   sandbox.CallNote
}

func (w *accessWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *accessWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// TakeNote keeps what the sandbox says of the request.
func (w *accessWriter) TakeNote(n sandbox.CallNote) { w.note = n }

// Unwrap lets http.ResponseController reach the connection's writer
// (flushing, deadlines).
func (w *accessWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// requestIDs names requests in the access log: by the X-Request-Id a
// client or a proxy in front sent (so that a test's log and the server's
// meet), else by a number of this process, after a random prefix that
// tells the processes of a restart or a scale-out apart. The answer does
// not carry it: the sandbox's answers are the real API's.
type requestIDs struct {
	prefix string
	n      atomic.Uint64
}

func newRequestIDs() *requestIDs {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return &requestIDs{prefix: hex.EncodeToString(b[:]) + "-"}
}

// maxRequestID bounds a request id taken from a client.
const maxRequestID = 128

// of is the request's id.
func (ids *requestIDs) of(r *http.Request) string {
	if v := r.Header.Get("X-Request-Id"); v != "" && validRequestID(v) {
		return v
	}
	return ids.prefix + strconv.FormatUint(ids.n.Add(1), 10)
}

// validRequestID accepts the ids proxies and clients send (UUIDs, hex,
// base64 and the like), nothing that could forge a log line.
func validRequestID(v string) bool {
	if len(v) > maxRequestID {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.:+/=", c) >= 0) {
			return false
		}
	}
	return true
}

// usageError is a command line that cannot be read (an unknown flag, a
// stray argument): its report points to -h.
type usageError struct{ error }

// isUsage reports whether err is about the command line's shape.
func isUsage(err error) bool {
	var u usageError
	return errors.As(err, &u)
}
