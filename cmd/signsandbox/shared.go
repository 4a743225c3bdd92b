package main

import (
	"flag"
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

// flags declares the flags, each with its environment variable.
func (c *sharedConfig) flags(fs *flag.FlagSet, env func(name, def string) string) {
	fs.StringVar(&c.Credentials, "credentials", env("SIGNSANDBOX_CREDENTIALS", ""), "credentials of worlds created at run time: random (the default) or seeded (SIGNSANDBOX_CREDENTIALS)")
	fs.StringVar(&c.DataDir, "data-dir", env("SIGNSANDBOX_DATA_DIR", ""), "keep every world in this directory across restarts; without it nothing touches the disk (SIGNSANDBOX_DATA_DIR)")
	fs.StringVar(&c.Fsync, "fsync", env("SIGNSANDBOX_FSYNC", ""), "with --data-dir: interval (fsync every 100ms, the default) or always (fsync every change before answering) (SIGNSANDBOX_FSYNC)")
	fs.StringVar(&c.MaxStoredBytes, "max-stored-bytes", env("SIGNSANDBOX_MAX_STORED_BYTES", ""), "bytes of files all worlds may hold together, e.g. 512MiB or 4GiB; 0 is no limit (default 2GiB) (SIGNSANDBOX_MAX_STORED_BYTES)")
	fs.StringVar(&c.IdleWorldTTL, "idle-world-ttl", env("SIGNSANDBOX_IDLE_WORLD_TTL", ""), "free worlds created at run time that no call reached for this long (wall time; default 24h); 0 keeps them (SIGNSANDBOX_IDLE_WORLD_TTL)")
	fs.StringVar(&c.Shard, "shard", env("SIGNSANDBOX_SHARD", ""), "1 to 8 lowercase hex characters that start every random credential, for a router in front of several servers (SIGNSANDBOX_SHARD)")
}

// check refuses values the sandbox would refuse, naming the flag.
func (c *sharedConfig) check() error {
	if c.Credentials != "" && c.Credentials != "random" && c.Credentials != "seeded" {
		return fmt.Errorf("--credentials must be random or seeded, not %q", c.Credentials)
	}
	if c.Shard != "" {
		if err := sandbox.CheckShard(c.Shard); err != nil {
			return fmt.Errorf("--shard: %v", err)
		}
		if c.Credentials == "seeded" {
			return fmt.Errorf("--shard needs --credentials random")
		}
	}
	if _, err := c.idleWorldTTL(); err != nil {
		return err
	}
	if _, err := parseBytes(c.MaxStoredBytes); err != nil {
		return fmt.Errorf("--max-stored-bytes: %v", err)
	}
	if c.Fsync != "" {
		if err := sandbox.CheckFsync(c.Fsync); err != nil {
			return fmt.Errorf("--fsync: %v", err)
		}
		if c.DataDir == "" {
			return fmt.Errorf("--fsync needs --data-dir")
		}
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
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(v, suffix) {
			v, mult = strings.TrimSuffix(v, suffix), m
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size: give bytes, or a number with KiB, MiB or GiB", v)
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
		return 0, fmt.Errorf("--idle-world-ttl: %q is not a duration such as 24h or 90m (0 keeps every world)", c.IdleWorldTTL)
	}
	return d, nil
}
