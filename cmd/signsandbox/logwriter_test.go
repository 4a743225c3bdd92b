package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gatedWriter blocks its writes until the gate opens, and counts them.
type gatedWriter struct {
	gate   chan struct{}
	mu     sync.Mutex
	out    strings.Builder
	writes int
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	<-g.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	g.writes++
	return g.out.Write(p)
}

// Lines come out whole and in order, in fewer writes than lines when
// they come faster than the stream takes them, all of them by Close;
// lines after Close are written at once.
func TestLogWriterBatchesInOrder(t *testing.T) {
	g := &gatedWriter{gate: make(chan struct{})}
	lw := newLogWriter(g)
	var want strings.Builder
	for i := range 1000 {
		line := fmt.Sprintf("line %d\n", i)
		want.WriteString(line)
		_, err := lw.Write([]byte(line))
		require.NoError(t, err)
	}
	close(g.gate)
	lw.Close()
	assert.Equal(t, want.String(), g.out.String())
	assert.Less(t, g.writes, 1000, "lines that waited went out together")

	_, err := lw.Write([]byte("after\n"))
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(g.out.String(), "line 999\nafter\n"))
}

// A stream that does not keep up makes writers wait for room: the buffer
// never holds much more than maxPendingLog.
func TestLogWriterIsBounded(t *testing.T) {
	g := &gatedWriter{gate: make(chan struct{})}
	lw := newLogWriter(g)
	line := []byte(strings.Repeat("x", 1023) + "\n")
	wrote := make(chan int)
	go func() {
		n := 0
		for range 4 * maxPendingLog / len(line) {
			_, _ = lw.Write(line)
			n++
		}
		wrote <- n
	}()
	// The writer goroutine holds its first batch at the gate; the buffer
	// fills to its bound, and the writing goroutine waits.
	require.Eventually(t, func() bool {
		lw.mu.Lock()
		defer lw.mu.Unlock()
		return len(lw.pending)+len(line) > maxPendingLog
	}, 10*time.Second, 5*time.Millisecond)
	select {
	case <-wrote:
		t.Fatal("the writer did not wait for room")
	default:
	}
	close(g.gate)
	assert.Equal(t, 4*maxPendingLog/len(line), <-wrote)
	lw.Close()
	assert.Equal(t, 4*maxPendingLog, g.out.Len())
}
