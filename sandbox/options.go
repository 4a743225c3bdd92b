package sandbox

import (
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/edge"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
)

// Option configures a Sandbox.
type Option func(*config) error

type config struct {
	clock     clockwork.Clock
	clockMode string // "fake" or "real"; used when clock is nil
	start     time.Time
	seed      string
	fixtures  fs.FS
	// fixturesDir is the directory fixtures come from (WithFixturesDir).
	fixturesDir string
	httpClient  *http.Client
	logger      *slog.Logger
	apiKey      string
	baseURL     string
	scenarios   []namedSource
	middleware  []func(http.Handler) http.Handler
	offline     bool
	maxWorlds   int
	// maxStoredBytes is the server-wide budget of file bytes (WithMaxStoredBytes).
	maxStoredBytes int64
	// idle frees run-time worlds nobody used for a while (WithIdleWorldTTL).
	idle *idleWorlds
	// shard starts every random credential (see WithShard).
	shard string
	// randomCredentials: see WithRandomCredentials.
	randomCredentials bool
	// dataDir and fsync: see WithDataDir; compactBytes overrides the
	// journal size that triggers a snapshot (tests).
	dataDir      string
	fsync        string
	compactBytes int64
	// record is the file WithRecording records the default world into;
	// recordCredentials keeps credentials in it (WithRecordedCredentials).
	record            string
	recordCredentials bool
	// registryEdits change the registry after every area filled it and
	// before the router is built (tests take a handler away or swap a
	// fault point of their own sandbox).
	registryEdits []func(*api.Registry)
	// allowedHosts and adminToken configure the HTTP edge (package edge).
	allowedHosts []string
	adminToken   string
	// allowOutbound and publicOutboundOnly shape the destination rules of
	// file_urls and callbacks (options_outbound.go).
	allowOutbound      []string
	publicOutboundOnly bool
	// smtpRelay is where outbox e-mails are relayed (WithSMTPRelay).
	smtpRelay string
}

type namedSource struct {
	name string
	data []byte
}

// WithClock gives the default world this clock. A *clockwork.FakeClock makes
// the world's time move only when advanced; any other clock is treated as
// real. Worlds created later get clocks of their own.
func WithClock(c clockwork.Clock) Option {
	return func(cfg *config) error { cfg.clock = c; return nil }
}

// WithFakeClock starts the default world on a fake clock at t.
func WithFakeClock(t time.Time) Option {
	return func(cfg *config) error { cfg.clockMode, cfg.start = "fake", t; return nil }
}

// WithRealClock makes the default world's time the wall time (the binary's
// default; the package default is a fake clock at a fixed instant).
func WithRealClock() Option {
	return func(cfg *config) error { cfg.clockMode = "real"; return nil }
}

// WithSeed sets the seed of the ID sequences: the same seed and the same
// calls give the same IDs.
func WithSeed(seed string) Option {
	return func(cfg *config) error { cfg.seed = seed; return nil }
}

// WithFixtures replaces the embedded fixtures (fixtures/world.json).
func WithFixtures(fsys fs.FS) Option {
	return func(cfg *config) error { cfg.fixtures = fsys; return nil }
}

// WithFixturesDir reads the fixtures from a directory.
func WithFixturesDir(dir string) Option {
	return func(cfg *config) error {
		if _, err := os.Stat(dir); err != nil {
			return optionError("WithFixturesDir", err)
		}
		cfg.fixtures, cfg.fixturesDir = os.DirFS(dir), dir
		return nil
	}
}

// WithHTTPClient sets the client used to deliver callbacks and fetch
// file_urls. Its transport, when it is an *http.Transport (or none), is
// cloned under the destination rules (see WithAllowOutbound) and without
// a proxy; another RoundTripper is used as given.
func WithHTTPClient(c *http.Client) Option {
	return func(cfg *config) error { cfg.httpClient = c; return nil }
}

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option {
	return func(cfg *config) error { cfg.logger = l; return nil }
}

// WithAPIKey fixes the primary API key of the default world's first account.
func WithAPIKey(key string) Option {
	return func(cfg *config) error { cfg.apiKey = key; return nil }
}

// WithBaseURL sets the public base URL (scheme and host, and a path prefix
// when a proxy serves the sandbox under one) used in the URLs the sandbox
// hands out (sign URLs, file URLs). Without it the Host of each request is
// used. A value CheckBaseURL refuses makes New fail.
func WithBaseURL(u string) Option {
	return func(cfg *config) error {
		if err := CheckBaseURL(u); err != nil {
			return err
		}
		cfg.baseURL = u
		return nil
	}
}

// CheckBaseURL reports whether u can be the public base URL: an absolute
// http or https URL with a host and neither query nor fragment (every URL
// the sandbox hands out is the base followed by a path, so anything else
// would make broken links).
func CheckBaseURL(u string) error {
	p, err := url.Parse(u)
	switch {
	case err != nil:
		return fmt.Errorf("base URL %q: %v", u, err)
	case p.Scheme != "http" && p.Scheme != "https":
		return fmt.Errorf("base URL %q must be an absolute http or https URL, such as https://sandbox.example.com", u)
	case p.Host == "" || p.Hostname() == "":
		return fmt.Errorf("base URL %q has no host", u)
	case p.User != nil:
		return fmt.Errorf("base URL %q must not carry user information", u)
	case p.RawQuery != "" || p.ForceQuery:
		return fmt.Errorf("base URL %q must not have a query", u)
	case p.Fragment != "" || strings.Contains(u, "#"):
		return fmt.Errorf("base URL %q must not have a fragment", u)
	}
	return nil
}

// WithOfflineFiles makes every world substitute a generated placeholder
// document for file_urls instead of fetching them.
func WithOfflineFiles() Option {
	return func(cfg *config) error { cfg.offline = true; return nil }
}

// WithScenario loads a scenario file (YAML or JSON) into the default world.
func WithScenario(name string, data []byte) Option {
	return func(cfg *config) error {
		cfg.scenarios = append(cfg.scenarios, namedSource{name: name, data: data})
		return nil
	}
}

// WithScenarioFile loads a scenario file from disk into the default world.
func WithScenarioFile(path string) Option {
	return func(cfg *config) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return optionError("WithScenario", err)
		}
		cfg.scenarios = append(cfg.scenarios, namedSource{name: path, data: b})
		return nil
	}
}

// WithMiddleware wraps the whole handler (outermost first), for recording
// and similar concerns.
func WithMiddleware(mw func(http.Handler) http.Handler) Option {
	return func(cfg *config) error { cfg.middleware = append(cfg.middleware, mw); return nil }
}

// DefaultMaxWorlds bounds the worlds created at run time, so that a
// long-running sandbox cannot grow without limit.
const DefaultMaxWorlds = 1000

// DefaultMaxStoredBytes bounds the distinct file bytes all the worlds of
// one sandbox hold together (each world has its own max_world_bytes too):
// enough for thousands of documents, well below the memory of a small
// container.
const DefaultMaxStoredBytes int64 = 2 << 30

// WithMaxStoredBytes sets the server-wide budget of stored file bytes
// (identical files count once); a write that would go over it is refused
// with a 400 naming the limit, and nothing stored is lost. 0 or less means
// no limit.
func WithMaxStoredBytes(n int64) Option {
	return func(cfg *config) error { cfg.maxStoredBytes = n; return nil }
}

// WithMaxWorlds sets how many worlds POST /_sandbox/worlds may create
// (besides the default world); 0 means no limit.
func WithMaxWorlds(n int) Option {
	return func(cfg *config) error { cfg.maxWorlds = n; return nil }
}

// WithAllowedHosts names host names or IP addresses, besides loopback ones
// and the base URL's host, under which calls without credentials (the
// control plane and its pages) are answered; see package edge for why
// other hosts are refused (DNS rebinding).
func WithAllowedHosts(hosts ...string) Option {
	return func(cfg *config) error {
		for _, h := range hosts {
			if err := edge.CheckAllowedHost(h); err != nil {
				return err
			}
		}
		cfg.allowedHosts = append(cfg.allowedHosts, hosts...)
		return nil
	}
}

// WithAdminToken requires token, in the edge.AdminHeader header, for
// creating and deleting worlds, importing state, and every control call
// without world credentials: a sandbox others can reach stays the
// operator's. An empty token requires nothing.
func WithAdminToken(token string) Option {
	return func(cfg *config) error { cfg.adminToken = token; return nil }
}
