package main

import (
	"io"
	"sync"
)

// logWriter writes log lines to a stream (the process's stderr or stdout)
// from a goroutine of its own, in batches: a request that logs a line
// copies it into a buffer and goes on, and the lines that come in while
// one batch is being written go out together in the next write. A line
// is written as soon as the writer is free, so a quiet server's lines
// appear at once, and a busy one pays one write system call per batch
// rather than per line. The buffer is bounded: when the stream cannot
// keep up, writers wait for room rather than grow it.
type logWriter struct {
	w       io.Writer
	mu      sync.Mutex
	room    *sync.Cond // signalled when a batch has been written
	work    *sync.Cond // signalled when lines wait or the writer closes
	pending []byte
	closed  bool
	done    chan struct{}
}

// maxPendingLog bounds the bytes waiting to be written.
const maxPendingLog = 1 << 20

func newLogWriter(w io.Writer) *logWriter {
	lw := &logWriter{w: w, done: make(chan struct{})}
	lw.room = sync.NewCond(&lw.mu)
	lw.work = sync.NewCond(&lw.mu)
	go lw.run()
	return lw
}

// Write queues p (one or more whole lines); after Close it writes p
// itself.
func (lw *logWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.closed {
		return lw.w.Write(p)
	}
	for len(lw.pending) > 0 && len(lw.pending)+len(p) > maxPendingLog && !lw.closed {
		lw.room.Wait()
	}
	lw.pending = append(lw.pending, p...)
	lw.work.Signal()
	return len(p), nil
}

func (lw *logWriter) run() {
	defer close(lw.done)
	var spare []byte
	lw.mu.Lock()
	for {
		for len(lw.pending) == 0 && !lw.closed {
			lw.work.Wait()
		}
		if len(lw.pending) == 0 {
			lw.mu.Unlock()
			return
		}
		batch := lw.pending
		lw.pending = spare[:0]
		lw.mu.Unlock()
		_, _ = lw.w.Write(batch)
		lw.mu.Lock()
		spare = batch
		lw.room.Broadcast()
	}
}

// Close writes what waits and stops the writer goroutine; later lines are
// written directly.
func (lw *logWriter) Close() {
	lw.mu.Lock()
	lw.closed = true
	lw.work.Signal()
	lw.room.Broadcast()
	lw.mu.Unlock()
	<-lw.done
}
