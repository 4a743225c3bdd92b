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
func autoPercent(live, headroom int64) int { return goalPercent(live, live, headroom) }

// goalPercent is autoPercent for a collection that marked marked bytes of
// which only about live are the worlds' own: GOGC scales what the last
// collection marked, and a collection that runs under load also marks
// everything allocated while it ran. At 4,000 sends a second a collection
// of a 400 MB world runs for most of a second and marks 150 MB and more of
// request garbage, which GOGC 100 would then double as well. The goal is
// set from live instead, but never closer to what was marked than
// minAutoPercent, so that the collector is not left without room to run.
func goalPercent(marked, live, headroom int64) int {
	if marked <= 0 || live <= 0 {
		return defaultGCPercent
	}
	live = min(live, marked)
	growth := min(max(live, minAutoHeadroom), headroom)
	return max(minAutoPercent, int((live+growth-marked)*100/marked))
}

// liveWindow is how many collections the tuner looks back over for its
// estimate of the live heap: the least any of them marked. The worlds'
// own heap changes slowly next to a collection's garbage, which comes and
// goes with the load, so the least of a few recent marks is close to it;
// a world that grows is seen within liveWindow collections.
const liveWindow = 4

// gcTuner sets GOGC after every collection from the live heap it found.
type gcTuner struct {
	headroom int64
	// percent and sample belong to adjust, which only the finalizer
	// goroutine runs, one collection at a time.
	percent int
	sample  []metrics.Sample
	marks   [liveWindow]int64 // the last collections' marked heaps
	n       int               // collections seen
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
	marked := int64(t.sample[0].Value.Uint64())
	t.marks[t.n%liveWindow] = marked
	t.n++
	live := marked
	for _, m := range t.marks[:min(t.n, liveWindow)] {
		live = min(live, m)
	}
	p := goalPercent(marked, live, t.headroom)
	if d := p - t.percent; d > 4 || d < -4 || (p == defaultGCPercent && t.percent != p) {
		t.percent = p
		debug.SetGCPercent(p)
	}
}
