package main

import (
	"flag"
	"fmt"

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
}

// flags declares the flags, each with its environment variable.
func (c *sharedConfig) flags(fs *flag.FlagSet, env func(name, def string) string) {
	fs.StringVar(&c.Credentials, "credentials", env("SIGNSANDBOX_CREDENTIALS", ""), "credentials of worlds created at run time: random (the default) or seeded (SIGNSANDBOX_CREDENTIALS)")
	fs.StringVar(&c.DataDir, "data-dir", env("SIGNSANDBOX_DATA_DIR", ""), "keep every world in this directory across restarts; without it nothing touches the disk (SIGNSANDBOX_DATA_DIR)")
	fs.StringVar(&c.Fsync, "fsync", env("SIGNSANDBOX_FSYNC", ""), "with --data-dir: interval (fsync every 100ms, the default) or always (fsync every change before answering) (SIGNSANDBOX_FSYNC)")
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
	return opts
}
