package main

// Request logging of the binary: one debug line per request (method, path,
// status, bytes, duration). It lives here, not in the sandbox package,
// because a duration needs the wall clock, which the sandbox never reads
// (its worlds' clocks are the only time it knows).

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// logRequests wraps next with the debug request log; below debug it
// returns next itself, so the default level costs nothing.
func logRequests(logger *slog.Logger, next http.Handler) http.Handler {
	if !logger.Enabled(context.Background(), slog.LevelDebug) {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := &loggingWriter{ResponseWriter: w}
		next.ServeHTTP(lw, r)
		status := lw.status
		if status == 0 {
			status = http.StatusOK
		}
		logger.LogAttrs(r.Context(), slog.LevelDebug, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", status), slog.Int64("bytes", lw.bytes),
			slog.Duration("duration", time.Since(start)))
	})
}

// loggingWriter notes the status and counts the bytes of an answer.
type loggingWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *loggingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *loggingWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer
// (flushing, deadlines).
func (w *loggingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
