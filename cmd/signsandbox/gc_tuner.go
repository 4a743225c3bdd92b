package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The collector's headroom under --gc-percent auto, the default.
//
// At a fixed GOGC the heap grows by a fixed share of what is live before
// the next collection: at Go's 100, a server holding 400 MB of worlds asks
// the system for up to 800 MB. A sandbox that a team keeps running grows
// its worlds for days, so the binary bounds the headroom instead: the heap
// may grow by the live heap (GOGC 100) until that reaches --gc-headroom,
// and by --gc-headroom beyond it, never by less than minAutoPercent of the
// live heap, so that a very large heap is not collected without pause.
// The cost is CPU: each collection walks the whole live heap, and a bounded
// headroom makes collections of a large heap more frequent.

// minAutoPercent is the least heap growth, in percent of the live heap,
// that auto allows between collections.
const minAutoPercent = 25

// minAutoHeadroom is the growth auto allows a small heap: at GOGC 100 a
// server holding 20 MB would collect every 20 MB allocated, dozens of times
// a second under load, for memory nobody misses.
const minAutoHeadroom = 64 << 20

// autoPercent is the GOGC that lets a live heap of live bytes grow by as
// much as is live, but by at least minAutoHeadroom and at most headroom
// bytes.
func autoPercent(live, headroom int64) int {
	if live <= 0 {
		return defaultGCPercent
	}
	growth := min(max(live, minAutoHeadroom), headroom)
	return max(minAutoPercent, int(growth*100/live))
}

// gcTuner sets GOGC after every collection from the live heap it found.
type gcTuner struct {
	headroom int64
	// percent and sample belong to adjust, which only the finalizer
	// goroutine runs, one collection at a time.
	percent int
	sample  []metrics.Sample
	stopped atomic.Bool
}

// startGCTuner sets GOGC to 100 and adjusts it after each collection
// until stopped.
func startGCTuner(headroom int64) *gcTuner {
	t := &gcTuner{headroom: headroom, percent: defaultGCPercent,
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	debug.SetGCPercent(defaultGCPercent)
	t.arm()
	return t
}

// stop ends the adjustments after the next collection.
func (t *gcTuner) stop() { t.stopped.Store(true) }

// gcSentinel is an object nothing references: its finalizer runs once
// after the collection that finds it, and arms the next one.
type gcSentinel struct{ _ [16]byte }

func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		if t.stopped.Load() {
			return
		}
		t.adjust()
		t.arm()
	})
}

// adjust sets GOGC from the live heap the last collection found, when it
// changed by more than a few percent (setting it is not free).
func (t *gcTuner) adjust() {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	p := autoPercent(int64(t.sample[0].Value.Uint64()), t.headroom)
	if d := p - t.percent; d > 4 || d < -4 || (p == defaultGCPercent && t.percent != p) {
		t.percent = p
		debug.SetGCPercent(p)
	}
}
