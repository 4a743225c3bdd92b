package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox"
)

// sharedConfig is what a server that a team shares needs beyond a local
// one: credentials nobody can guess and a shard tag for a router.
type sharedConfig struct {
	// Credentials is "random" (or empty: the binary's default; worlds
	// created at run time get keys from crypto/rand) or "seeded" (keys
	// follow the seed, as in the Go API, for reproducible local runs).
	Credentials string
	// Shard starts every random credential (see sandbox.WithShard).
	Shard string
	// DataDir keeps the worlds across restarts (see sandbox.WithDataDir);
	// Fsync is its fsync policy, "interval" (default) or "always".
	DataDir string
	Fsync   string
	// MaxStoredBytes bounds the file bytes of all worlds together (see
	// sandbox.WithMaxStoredBytes): a count of bytes, or one with a KiB, MiB
	// or GiB suffix; 0 is no limit.
	MaxStoredBytes string
	// IdleWorldTTL frees run-time worlds no call reached for that long
	// (see sandbox.WithIdleWorldTTL); empty is the default, 24 hours, and
	// "0" keeps them.
	IdleWorldTTL string
}

// settings are the rows of the server's settings table for a shared
// server.
func (c *sharedConfig) settings() []setting {
	return []setting{
		{name: "credentials", arg: "random|seeded", usage: "credentials of worlds created at run time: random (the default) or seeded", parse: func(v string) error {
			if v == "" {
				c.Credentials = ""
				return nil
			}
			return oneOf(&c.Credentials, "random", "seeded")(v)
		}},
		{name: "data-dir", arg: "DIR", usage: "keep every world in this directory across restarts; without it nothing touches the disk", parse: text(&c.DataDir)},
		{name: "fsync", arg: "interval|always", usage: "with --data-dir: interval (fsync every 100ms, the default) or always (fsync every change before answering)", parse: func(v string) error {
			if v != "" {
				if err := sandbox.CheckFsync(v); err != nil {
					return err
				}
			}
			c.Fsync = v
			return nil
		}},
		{name: "max-stored-bytes", arg: "SIZE", usage: "bytes of files all worlds may hold together, e.g. 512MiB or 4GiB; 0 is no limit (default 2GiB)", parse: func(v string) error {
			if _, err := parseBytes(v); err != nil {
				return err
			}
			c.MaxStoredBytes = v
			return nil
		}},
		{name: "idle-world-ttl", arg: "DURATION", usage: "free worlds created at run time that no call reached for this long (wall time; default 24h); 0 keeps them", parse: func(v string) error {
			c.IdleWorldTTL = v
			_, err := c.idleWorldTTL()
			return err
		}},
		{name: "shard", arg: "TAG", usage: "1 to 8 lowercase hex characters that start every random credential, for a router in front of several servers", parse: func(v string) error {
			if v != "" {
				if err := sandbox.CheckShard(v); err != nil {
					return err
				}
			}
			c.Shard = v
			return nil
		}},
	}
}

// checks refuses settings of a shared server that contradict each other.
func (c *sharedConfig) checks(s *settingSet) error {
	if c.Shard != "" && c.Credentials == "seeded" {
		return fmt.Errorf("%s needs random credentials, but %s is seeded", s.origin("shard"), s.origin("credentials"))
	}
	if c.Fsync != "" && c.DataDir == "" {
		return fmt.Errorf("%s needs a data directory: set %s", s.origin("fsync"), s.either("data-dir"))
	}
	return nil
}

// options turns the flags into sandbox options.
func (c *sharedConfig) options() []sandbox.Option {
	opts := []sandbox.Option{sandbox.WithMetrics()}
	if c.Credentials != "seeded" {
		opts = append(opts, sandbox.WithRandomCredentials())
	}
	if c.Shard != "" {
		opts = append(opts, sandbox.WithShard(c.Shard))
	}
	if c.DataDir != "" {
		opts = append(opts, sandbox.WithDataDir(c.DataDir, c.Fsync))
	}
	if d, _ := c.idleWorldTTL(); d > 0 { // check refused what does not parse
		opts = append(opts, sandbox.WithIdleWorldTTL(d, clockwork.NewRealClock()))
	}
	if c.MaxStoredBytes != "" {
		n, _ := parseBytes(c.MaxStoredBytes) // check refused what does not parse
		opts = append(opts, sandbox.WithMaxStoredBytes(n))
	}
	return opts
}

// parseBytes reads a size: a whole number of bytes, or one followed by
// KiB, MiB or GiB ("" is 0, the caller's default).
func parseBytes(v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	number, mult := v, int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(v, suffix) {
			number, mult = strings.TrimSuffix(v, suffix), m
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(number), 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, bad("must be a size: bytes, or a number with KiB, MiB or GiB (got %q)", v)
	}
	return n * mult, nil
}

// defaultIdleWorldTTL is how long a run-time world may go unused on a
// server before it is freed: a working day and a night.
const defaultIdleWorldTTL = 24 * time.Hour

// idleWorldTTL reads --idle-world-ttl: empty is the default, 0 is never.
func (c *sharedConfig) idleWorldTTL() (time.Duration, error) {
	if c.IdleWorldTTL == "" {
		return defaultIdleWorldTTL, nil
	}
	d, err := time.ParseDuration(c.IdleWorldTTL)
	if err != nil || d < 0 {
		return 0, bad("must be a duration such as 24h or 90m, or 0 to keep every world (got %q)", c.IdleWorldTTL)
	}
	return d, nil
}
