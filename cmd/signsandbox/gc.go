package main

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// gcConfig is how the binary's garbage collector trades memory for CPU
// time. A world's rows and indexes are many small objects that every
// collection walks, so a server holding a large world spends much of its
// CPU there, and the heap it asks of the system grows with the space the
// collector leaves between collections.
type gcConfig struct {
	// Percent is --gc-percent (Go's GOGC): the heap may grow by this
	// percentage of the live heap before the next collection; "off" turns
	// collection off below the memory limit; "auto" bounds the growth by
	// Headroom (gc_tuner.go). Empty is GOGC from the environment, else
	// auto.
	Percent string
	// Headroom is --gc-headroom: under auto, the most the heap may grow
	// between collections once the live heap is larger (bytes, or a number
	// with KiB, MiB or GiB).
	Headroom string
	// auto is set by apply when the tuner is to run (see startTuning).
	auto bool
	// MemoryLimit is --memory-limit (Go's GOMEMLIMIT): a soft limit on the
	// memory the runtime holds, which makes collections more frequent as
	// the heap nears it; bytes, or a number with KiB, MiB or GiB, and 0 for
	// none. Empty is GOMEMLIMIT from the environment, else the default:
	// nine tenths of the memory limit of the process's control group (a
	// container's limit), so that the collector works harder before the
	// kernel kills the process, and none outside one.
	MemoryLimit string
	// ReleaseIdle is --release-idle: how long the server must go without
	// a request before it hands free memory back to the system
	// (memory_release.go); 0 never. Empty is the default.
	ReleaseIdle string
}

// defaultGCPercent is Go's own default: the best throughput per byte
// allocated; lower values hold less memory for more collections.
const defaultGCPercent = 100

// autoGCPercent is what percent answers for auto.
const autoGCPercent = 0

// defaultGCHeadroom is --gc-headroom's default.
const defaultGCHeadroom = "192MiB"

// settings are the rows of the server's settings table for the garbage
// collector.
func (c *gcConfig) settings() []setting {
	return []setting{
		{name: "gc-percent", arg: "N|off|auto", usage: "heap growth between garbage collections, in percent of the live heap (Go's GOGC); lower holds less memory for more CPU; off collects only at --memory-limit; auto (the default unless GOGC is set) is 100 until the growth reaches --gc-headroom", parse: func(v string) error {
			c.Percent = v
			_, _, err := c.percent(func(string) string { return "" })
			return err
		}},
		{name: "gc-headroom", arg: "SIZE", usage: "under --gc-percent auto, the most the heap may grow between garbage collections (default " + defaultGCHeadroom + ")", parse: func(v string) error {
			c.Headroom = v
			_, err := c.headroom()
			return err
		}},
		{name: "release-idle", arg: "DURATION", usage: "after this long without a request, collect and give free memory back to the system, once per quiet spell; 0 never (default " + defaultReleaseIdle.String() + ")", parse: func(v string) error {
			c.ReleaseIdle = v
			_, err := c.releaseIdle()
			return err
		}},
		{name: "memory-limit", arg: "SIZE", usage: "soft limit of the memory the process holds, e.g. 512MiB or 2GiB; the collector runs more often near it; 0 is none (Go's GOMEMLIMIT; default: 90% of the container's memory limit, none outside a container)", parse: func(v string) error {
			if _, err := parseBytes(v); err != nil {
				return err
			}
			c.MemoryLimit = v
			return nil
		}},
	}
}

// releaseIdle reads --release-idle (empty: the default).
func (c *gcConfig) releaseIdle() (time.Duration, error) {
	if c.ReleaseIdle == "" {
		return defaultReleaseIdle, nil
	}
	d, err := time.ParseDuration(c.ReleaseIdle)
	if err != nil || d < 0 {
		return 0, bad("must be a duration such as 30s or 5m, or 0 for never (got %q)", c.ReleaseIdle)
	}
	return d, nil
}

// percent reads --gc-percent: set says whether the binary sets it (not
// when it is empty and GOGC is set: the runtime already read that).
func (c *gcConfig) percent(getenv func(string) string) (p int, set bool, err error) {
	v := strings.TrimSpace(c.Percent)
	switch {
	case v == "" && getenv("GOGC") != "":
		return 0, false, nil
	case v == "" || v == "auto":
		return autoGCPercent, true, nil
	case v == "off":
		return -1, true, nil
	}
	p, err = strconv.Atoi(v)
	if err != nil || p < 1 {
		return 0, false, bad("must be a whole number of at least 1, off or auto (got %q)", c.Percent)
	}
	return p, true, nil
}

// headroom reads --gc-headroom (empty: the default).
func (c *gcConfig) headroom() (int64, error) {
	v := c.Headroom
	if v == "" {
		v = defaultGCHeadroom
	}
	n, err := parseBytes(v)
	if err == nil && n < 1<<20 {
		err = bad("must be at least 1MiB (got %q)", v)
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// memoryLimit reads --memory-limit the same way; limit 0 is no limit.
func (c *gcConfig) memoryLimit(getenv func(string) string, group func() int64) (limit int64, set bool) {
	switch {
	case c.MemoryLimit != "":
		n, _ := parseBytes(c.MemoryLimit) // check refused what does not parse
		return n, true
	case getenv("GOMEMLIMIT") != "":
		return 0, false
	}
	if g := group(); g > 0 {
		return g / 10 * 9, true
	}
	return 0, false
}

// apply sets the collector of this process.
func (c *gcConfig) apply(getenv func(string) string) {
	if p, set, err := c.percent(getenv); err == nil && set {
		if p == autoGCPercent {
			debug.SetGCPercent(defaultGCPercent) // until startTuning
			c.auto = true
		} else {
			debug.SetGCPercent(p)
		}
	}
	if limit, set := c.memoryLimit(getenv, groupMemoryLimit); set {
		if limit == 0 {
			limit = 1<<63 - 1 // Go's value for no limit
		}
		debug.SetMemoryLimit(limit)
	}
}

// groupMemoryLimit is the memory limit of the process's control group
// (cgroup v2, then v1), or 0 when there is none or it cannot be read.
func groupMemoryLimit() int64 {
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		return parseGroupLimit(string(raw))
	}
	return 0
}

// parseGroupLimit reads a control group's memory limit file: "max" (v2)
// or a value near the largest int64 (v1's way of saying none) is no limit.
func parseGroupLimit(raw string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || n <= 0 || n >= 1<<62 {
		return 0
	}
	return n
}

// startTuning starts the auto tuner (gc_tuner.go) when apply chose it. The
// server calls it once it is ready, so that start-up garbage is collected
// at Go's default pace rather than kept in the headroom of a small heap.
func (c *gcConfig) startTuning() {
	if c.auto {
		h, _ := c.headroom() // check refused what does not parse
		startGCTuner(h)
	}
}
