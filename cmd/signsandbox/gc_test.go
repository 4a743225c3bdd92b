package main

import (
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestGCPercentFlag(t *testing.T) {
	cases := []struct {
		name     string
		flag     string
		env      map[string]string
		want     int
		wantSet  bool
		wantFail bool
	}{
		{name: "default", want: autoGCPercent, wantSet: true},
		{name: "auto", flag: "auto", env: map[string]string{"GOGC": "400"}, want: autoGCPercent, wantSet: true},
		{name: "GOGC left to the runtime", env: map[string]string{"GOGC": "400"}},
		{name: "flag wins over GOGC", flag: "50", env: map[string]string{"GOGC": "400"}, want: 50, wantSet: true},
		{name: "off", flag: "off", want: -1, wantSet: true},
		{name: "zero", flag: "0", wantFail: true},
		{name: "negative", flag: "-5", wantFail: true},
		{name: "words", flag: "half", wantFail: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gcConfig{Percent: tc.flag}
			p, set, err := c.percent(envOf(tc.env))
			if tc.wantFail {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "must be a whole number of at least 1, off or auto")
				_, err = parseServeConfig([]string{"--gc-percent", tc.flag}, envOf(nil), io.Discard)
				assert.ErrorContains(t, err, "--gc-percent must be")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, p)
			assert.Equal(t, tc.wantSet, set)
		})
	}
}

func TestMemoryLimitFlag(t *testing.T) {
	group := func(n int64) func() int64 { return func() int64 { return n } }
	cases := []struct {
		name    string
		flag    string
		env     map[string]string
		group   int64
		want    int64
		wantSet bool
	}{
		{name: "no container, no limit"},
		{name: "nine tenths of the container's limit", group: 1 << 30, want: (1 << 30) / 10 * 9, wantSet: true},
		{name: "GOMEMLIMIT left to the runtime", env: map[string]string{"GOMEMLIMIT": "1GiB"}, group: 1 << 30},
		{name: "flag wins", flag: "512MiB", env: map[string]string{"GOMEMLIMIT": "1GiB"}, group: 1 << 30, want: 512 << 20, wantSet: true},
		{name: "zero is none", flag: "0", group: 1 << 30, want: 0, wantSet: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gcConfig{MemoryLimit: tc.flag}
			_, err := parseBytes(tc.flag)
			require.NoError(t, err)
			got, set := c.memoryLimit(envOf(tc.env), group(tc.group))
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantSet, set)
		})
	}
	_, err := parseServeConfig([]string{"--memory-limit", "lots"}, envOf(nil), io.Discard)
	assert.ErrorContains(t, err, "--memory-limit")
}

func TestParseGroupLimit(t *testing.T) {
	assert.Equal(t, int64(0), parseGroupLimit("max\n"), "cgroup v2 without a limit")
	assert.Equal(t, int64(0), parseGroupLimit("9223372036854771712\n"), "cgroup v1 without a limit")
	assert.Equal(t, int64(536870912), parseGroupLimit("536870912\n"))
	assert.Equal(t, int64(0), parseGroupLimit(""))
}

// TestGCFlagsParseAndApply: the flags and their environment variables
// reach the runtime, and a bad value is refused naming the flag.
func TestGCFlagsParseAndApply(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	cfg, err := parseServeConfig([]string{"--gc-percent", "60"}, envOf(map[string]string{"SIGNSANDBOX_MEMORY_LIMIT": "3GiB"}), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, gcConfig{Percent: "60", MemoryLimit: "3GiB"}, cfg.GC)
	cfg.GC.apply(envOf(nil))
	assert.Equal(t, 60, debug.SetGCPercent(60))
	assert.Equal(t, int64(3<<30), debug.SetMemoryLimit(-1))

	_, err = parseServeConfig([]string{"--gc-percent", "0"}, envOf(nil), io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--gc-percent")
	_, err = parseServeConfig(nil, envOf(map[string]string{"SIGNSANDBOX_MEMORY_LIMIT": "a lot"}), io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "SIGNSANDBOX_MEMORY_LIMIT", "the error names the variable the value came from")
}

// TestAutoPercentBoundsTheHeadroom: under auto the heap grows by the live
// heap, by at least 64 MiB and at most the headroom, and never by less
// than a quarter of the live heap.
func TestAutoPercentBoundsTheHeadroom(t *testing.T) {
	const mib = 1 << 20
	assert.Equal(t, 100, autoPercent(0, 256*mib), "nothing live yet")
	assert.Equal(t, 320, autoPercent(20*mib, 256*mib), "a small heap may grow by minAutoHeadroom")
	assert.Equal(t, 100, autoPercent(64*mib, 256*mib))
	assert.Equal(t, 100, autoPercent(256*mib, 256*mib))
	assert.Equal(t, 50, autoPercent(512*mib, 256*mib))
	assert.Equal(t, 25, autoPercent(1024*mib, 256*mib))
	assert.Equal(t, minAutoPercent, autoPercent(8192*mib, 256*mib))
}

// TestGoalPercentDiscountsWhatALoadedCollectionMarked: the goal follows
// the live estimate, not the marked heap that includes the garbage of the
// collection's own run, and never comes closer to the mark than
// minAutoPercent.
func TestGoalPercentDiscountsWhatALoadedCollectionMarked(t *testing.T) {
	const mib = 1 << 20
	assert.Equal(t, 100, goalPercent(400*mib, 400*mib, 1024*mib), "nothing to discount: GOGC 100")
	assert.Equal(t, 60, goalPercent(500*mib, 400*mib, 1024*mib), "goal 800 MiB, not 1000")
	assert.Equal(t, minAutoPercent, goalPercent(600*mib, 300*mib, 1024*mib), "600 of 600 would leave no room")
	assert.Equal(t, 100, goalPercent(400*mib, 500*mib, 1024*mib), "an estimate above the mark is the mark")
	assert.Equal(t, defaultGCPercent, goalPercent(0, 0, 1024*mib))
	assert.Equal(t, 31, goalPercent(500*mib, 400*mib, 256*mib), "the headroom still bounds the growth: goal 656 MiB")
}

func TestGCHeadroomFlag(t *testing.T) {
	h, err := (&gcConfig{}).headroom()
	require.NoError(t, err)
	assert.Equal(t, int64(192<<20), h)
	h, err = (&gcConfig{Headroom: "64MiB"}).headroom()
	require.NoError(t, err)
	assert.Equal(t, int64(64<<20), h)
	for _, bad := range []string{"lots", "1KiB"} {
		_, err := parseServeConfig([]string{"--gc-headroom", bad}, envOf(nil), io.Discard)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "--gc-headroom")
	}
}

// TestAutoTunerFollowsTheLiveHeap: once a collection has run, the tuner
// has set GOGC from the live heap it found (here small: 100).
func TestAutoTunerFollowsTheLiveHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	gogc := func() int {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return int(s[0].Value.Uint64())
	}
	tuner := startGCTuner(1 << 10) // a tiny headroom: any test binary's heap is larger
	defer tuner.stop()
	for i := 0; i < 50 && gogc() == 100; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // finalizers run on their own goroutine
	}
	p := gogc()
	assert.NotEqual(t, 100, p, "the tuner never set GOGC")
	assert.GreaterOrEqual(t, p, minAutoPercent)
}
