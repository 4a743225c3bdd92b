package sandbox

import "github.com/signsandbox/signsandbox/sandbox/internal/secret"

// WithShard starts every random credential this server hands out (API
// keys, OAuth secrets and tokens, URL tokens of worlds created at run time)
// with tag, 1 to 8 lowercase hex characters naming the server, so that a
// router in front of several servers can send each call to the server of
// its world from the credentials alone. The rest stays random. Worlds
// created at run time are named "<tag>-w<n>" instead of "w<n>", so the
// page and file URLs (/_sandbox/w/<world>/...) carry the tag too.
func WithShard(tag string) Option {
	return func(cfg *config) error {
		if err := secret.CheckShard(tag); err != nil {
			return err
		}
		cfg.shard = tag
		return nil
	}
}

// runtimeSeed is what the seeds of worlds created at run time derive from:
// the server's seed, and under WithShard its tag too. Servers behind one
// router are started alike but for their tags; without it their n-th worlds
// would share a seed and make the same object ids (a request id of one
// world also another's), which one server never does. With it, ids stay
// apart across servers as world ids and credentials do, and still follow
// the seed. The default world keeps the server's seed.
func (cfg *config) runtimeSeed() string {
	if cfg.shard == "" {
		return cfg.seed
	}
	return cfg.seed + "/shard/" + cfg.shard
}

// WithRandomCredentials gives every world created at run time without an
// explicit seed credentials from crypto/rand: API keys, OAuth client
// secrets and tokens, and the tokens of signing, editing, claim and file
// URLs. A server that several people share needs it, or anyone could
// compute the keys of everyone's worlds from the public default seed. IDs
// still follow the world's seed. Without it (the default of the Go API)
// every credential follows the seed, as record and replay and golden tests
// expect; the binary turns it on.
func WithRandomCredentials() Option {
	return func(cfg *config) error { cfg.randomCredentials = true; return nil }
}

// CheckShard reports whether tag can be given to WithShard.
func CheckShard(tag string) error { return secret.CheckShard(tag) }
