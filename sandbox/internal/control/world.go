package control

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenarioworld"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// RegisterWorld adds the world lifecycle on the control plane: health,
// worlds, clock, configuration and reset.
func RegisterWorld(r *api.Registry) {
	r.ControlPublic(http.MethodGet, "/health", controlHealth)
	r.ControlPublic(http.MethodPost, "/worlds", controlCreateWorld)
	r.ControlPublic(http.MethodGet, "/worlds", controlListWorlds)
	r.Control(http.MethodGet, "/world", controlGetWorld)
	r.ControlNoBody(http.MethodDelete, "/world", controlDeleteWorld)
	r.Control(http.MethodGet, "/clock", controlGetClock)
	r.ControlNoBody(http.MethodPost, "/clock/pin", controlPinClock)
	r.ControlNoBody(http.MethodDelete, "/clock/pin", controlUnpinClock)
	r.Control(http.MethodPost, "/clock/advance", controlAdvance)
	r.ControlNoBody(http.MethodPost, "/reset", controlReset)
	r.Control(http.MethodGet, "/config", controlGetConfig)
	r.Control(http.MethodPatch, "/config", controlPatchConfig)
	r.Control(http.MethodPut, "/config", controlPatchConfig)
}

type healthResponse struct {
	Status  string `json:"status"`
	Version string `json:"version"`
	Worlds  int    `json:"worlds"`
}

func controlHealth(c *api.Call) (any, error) {
	return healthResponse{Status: "ok", Version: api.Version, Worlds: len(c.Host.Worlds())}, nil
}

type createWorldRequest struct {
	// Clock is "fake" (the default) or "real".
	Clock string `json:"clock"`
	// Time is the start instant of a fake clock (RFC 3339).
	Time string `json:"time"`
	// Scenarios names ready scenarios (see scenarios/) or holds scenario
	// documents to load into the new world.
	Scenarios []string `json:"scenarios"`
	// Seed, when given, makes the world's IDs and credentials follow it
	// (tests that want fixed keys); without it credentials are random.
	Seed string `json:"seed"`
}

// WorldInfo describes a world and the credentials of its first account.
type WorldInfo struct {
	WorldID      string `json:"world_id"`
	APIKey       string `json:"api_key"`
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
	ClientID     string `json:"client_id,omitempty"`
	ClientSecret string `json:"client_secret,omitempty"`
	Clock        string `json:"clock"`
	Now          int64  `json:"now"`
}

func controlCreateWorld(c *api.Call) (any, error) {
	var req createWorldRequest
	if err := c.BindStrict(&req); err != nil {
		return nil, err
	}
	mode := world.ClockFake
	switch req.Clock {
	case "", "fake":
	case "real":
		mode = world.ClockReal
	default:
		return nil, apierr.Badf("clock", `clock must be "fake" or "real", not %q`, req.Clock)
	}
	var start time.Time
	if req.Time != "" {
		t, err := time.Parse(time.RFC3339, req.Time)
		if err != nil {
			return nil, apierr.Badf("time", "time must be an RFC 3339 instant such as 2025-01-01T00:00:00Z: %v", err)
		}
		if mode == world.ClockReal {
			return nil, apierr.Badf("time", "time can only be chosen for a fake clock")
		}
		if err := world.CheckInstant(t); err != nil {
			return nil, apierr.Badf("time", "%v", err)
		}
		start = t
	}
	if len(req.Seed) > 200 {
		return nil, apierr.Badf("seed", "seed must have at most 200 characters")
	}
	w, err := c.Host.CreateWorldSeeded(mode, start, req.Seed)
	if err != nil {
		return nil, err
	}
	for i, name := range req.Scenarios {
		if _, err := scenarioworld.LoadNamedOrInline(c.Host, w, name, nil); err != nil {
			c.Host.DropWorld(w)
			if e, ok := apierr.As(err); ok {
				return nil, e.WithPath(apierr.IndexPath("scenarios", i))
			}
			return nil, apierr.Badf(apierr.IndexPath("scenarios", i), "scenario %q: %v", name, err)
		}
	}
	return api.WithStatus{Status: http.StatusCreated, Value: WorldInfoOf(c.Host, w)}, nil
}

func controlGetWorld(c *api.Call) (any, error) { return WorldInfoOf(c.Host, c.World), nil }

// WorldInfoOf reports a world and its first fixture account's credentials.
func WorldInfoOf(s *api.Host, w *world.World) WorldInfo {
	tx := w.Store.Read()
	first := s.FirstAccountID()
	info := WorldInfo{WorldID: w.ID, AccountID: first, Clock: string(w.Mode()), Now: w.Now().Unix()}
	if a, err := state.Get[model.Account](tx, state.TableAccounts, first); err == nil {
		info.EmailAddress = a.Email
	}
	info.APIKey = state.PrimaryKeyOf(tx, first)
	if apps, _ := state.AppsOf(tx, first); len(apps) > 0 {
		info.ClientID = apps[0].ClientID
		if apps[0].OAuth != nil {
			info.ClientSecret = apps[0].OAuth.Secret
		}
	}
	return info
}

// controlDeleteWorld removes the caller's world and everything in it; its
// credentials stop working. The default world is reset, never deleted.
func controlDeleteWorld(c *api.Call) (any, error) {
	if c.World == c.Host.DefaultWorld() {
		return nil, apierr.Badf("", "The default world cannot be deleted; POST /_sandbox/reset puts it back to its fixtures.")
	}
	c.Host.DropWorld(c.World)
	return api.EmptyOK(), nil
}

type clockResponse struct {
	Now  int64           `json:"now"`
	Time string          `json:"time"`
	Mode world.ClockMode `json:"mode"`
	// NextJobAt is when the earliest queued job is due (Unix seconds), or 0.
	NextJobAt int64 `json:"next_job_at,omitempty"`
}

// advanceResponse is the clock after an advance and the jobs that ran on
// the way, in the order they ran (always a list, possibly empty).
type advanceResponse struct {
	clockResponse
	Jobs []world.RanJob `json:"jobs"`
}

func clockOf(w *world.World) clockResponse {
	now := w.Now()
	r := clockResponse{Now: now.Unix(), Time: now.Format(time.RFC3339), Mode: w.Mode()}
	if j := state.NextJob(w.Store.Read()); j != nil {
		r.NextJobAt = j.DueTime().Unix()
	}
	return r
}

func controlGetClock(c *api.Call) (any, error) { return clockOf(c.World), nil }

// pinResponse says whether the world's time is pinned, and the instant of
// the call.
type pinResponse struct {
	Pinned  bool   `json:"pinned"`
	Instant string `json:"instant"`
}

// clockPins counts the pins of POST /_sandbox/clock/pin not yet undone,
// so that DELETE undoes only those (never a recording's).
type clockPins struct {
	mu sync.Mutex
	n  int
}

const extClockPins = "control.clock_pins"

// controlPinClock pins the world's time (world.StartPinned) for a
// recording made outside the sandbox: the recording proxy pins its
// upstream's world, and every answer then carries its call's instant
// (api.InstantHeader). A world whose fake clock only moves when advanced
// is discrete already: it answers pinned false.
func controlPinClock(c *api.Call) (any, error) {
	var at time.Time
	pinned := c.World.StartPinned(func(now time.Time) { at = now })
	if pinned {
		p := world.Ext(c.World, extClockPins, func() *clockPins { return &clockPins{} })
		p.mu.Lock()
		p.n++
		p.mu.Unlock()
	}
	return pinResponse{Pinned: pinned, Instant: at.Format(time.RFC3339Nano)}, nil
}

// controlUnpinClock undoes one pin of POST /_sandbox/clock/pin.
func controlUnpinClock(c *api.Call) (any, error) {
	p := world.Ext(c.World, extClockPins, func() *clockPins { return &clockPins{} })
	p.mu.Lock()
	if p.n > 0 {
		p.n--
		c.World.Unpin()
	}
	p.mu.Unlock()
	return pinResponse{Pinned: c.World.Pinned(), Instant: c.World.Now().Format(time.RFC3339Nano)}, nil
}

type advanceRequest struct {
	Seconds  *float64 `json:"seconds"`
	Duration string   `json:"duration"`
	// To advances to an absolute instant (RFC 3339 or Unix seconds).
	To string `json:"to"`
	// WaitCallbacks makes the answer wait until every callback attempt that
	// fell due has been made, so a test can read the delivery log next.
	WaitCallbacks bool `json:"wait_callbacks"`
}

func controlAdvance(c *api.Call) (any, error) {
	var req advanceRequest
	if err := c.BindStrict(&req); err != nil {
		return nil, err
	}
	d, err := req.delta(c.World.Now())
	if err != nil {
		return nil, err
	}
	ran, err := advance(c.World, d)
	if err != nil {
		return nil, err
	}
	if req.WaitCallbacks {
		if err := callbacks.WaitAfterAdvance(c); err != nil {
			return nil, err
		}
	}
	r := advanceResponse{clockResponse: clockOf(c.World), Jobs: ran}
	if r.Jobs == nil {
		r.Jobs = []world.RanJob{}
	}
	return r, nil
}

// AdvanceRefusal is the error POST /_sandbox/clock/advance answers for a
// move of w's clock, or nil when the clock can be moved (the console
// disables its clock buttons with this reason).
func AdvanceRefusal(w *world.World) *apierr.Error {
	if w.Mode() == world.ClockReal {
		return apierr.Conflictf("This world's clock is real and cannot be advanced; create a world with \"clock\": \"fake\".")
	}
	return nil
}

// advance moves a world's clock, or on a real clock runs what is due.
func advance(w *world.World, d time.Duration) ([]world.RanJob, error) {
	if e := AdvanceRefusal(w); e != nil {
		if d != 0 {
			return nil, e
		}
		return w.RunDue(), nil
	}
	ran, err := w.Advance(d)
	if err != nil {
		return nil, apierr.Badf("seconds", "%v", err)
	}
	return ran, nil
}

// maxAdvance is the longest advance of one call.
const maxAdvance = 100 * 365 * 24 * time.Hour

// durationSyntax is a Go duration's shape: one that does not parse is too
// large for a time.Duration.
var durationSyntax = regexp.MustCompile(`^\+?([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h)(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))*$`)

func (a advanceRequest) delta(now time.Time) (time.Duration, error) {
	given := 0
	var d time.Duration
	if a.Seconds != nil {
		given++
		if *a.Seconds < 0 {
			return 0, apierr.Badf("seconds", "seconds must not be negative: the clock only moves forward")
		}
		// Checked before the conversion, which would overflow.
		if *a.Seconds > maxAdvance.Seconds() {
			return 0, apierr.Badf("seconds", "seconds is too large: the clock cannot advance by more than 100 years at once")
		}
		d = time.Duration(*a.Seconds * float64(time.Second))
	}
	if a.Duration != "" {
		given++
		v, err := time.ParseDuration(a.Duration)
		if err != nil && durationSyntax.MatchString(a.Duration) {
			return 0, apierr.Badf("duration", "duration is too large: the clock cannot advance by more than 100 years at once")
		}
		if err != nil {
			return 0, apierr.Badf("duration", "duration must be a Go duration such as 90s or 1h30m: %v", err)
		}
		if v < 0 {
			return 0, apierr.Badf("duration", "duration must not be negative: the clock only moves forward")
		}
		d = v
	}
	if a.To != "" {
		given++
		t, err := parseInstant(a.To)
		if err != nil {
			return 0, apierr.Badf("to", "to must be an RFC 3339 instant or Unix seconds: %v", err)
		}
		if t.Before(now) {
			return 0, apierr.Badf("to", "to is before the world's current time: the clock only moves forward")
		}
		d = t.Sub(now)
	}
	if given > 1 {
		return 0, apierr.Badf("", "give only one of seconds, duration and to")
	}
	if d > maxAdvance {
		return 0, apierr.Badf("seconds", "cannot advance by more than 100 years")
	}
	return d, nil
}

func controlReset(c *api.Call) (any, error) {
	derive := c.World != c.Host.DefaultWorld()
	if err := c.World.Reset(c.Host.SeedFunc(derive)); err != nil {
		return nil, err
	}
	c.Host.AfterWorldReplaced(c.World)
	return WorldInfoOf(c.Host, c.World), nil
}

func controlGetConfig(c *api.Call) (any, error) { return configAnswer(c.Config()), nil }

// configView is the configuration as the control plane shows it: every
// setting with the value in force, including those a world stores only
// when they differ from their default (so that worlds exported before
// them export as they were).
type configView struct {
	model.Config
	TestValues      bool           `json:"test_values"`
	TestValuesDelay model.Duration `json:"test_values_delay"`
}

func configAnswer(cfg model.Config) configView {
	return configView{Config: cfg, TestValues: cfg.TestValues.On(), TestValuesDelay: model.Duration(cfg.TestValueDelay())}
}

// controlPatchConfig changes parts of the world configuration: the body is a
// partial Config (for example {"rate_limit": {"enforce": true, "limit": 5}}).
func controlPatchConfig(c *api.Call) (any, error) {
	b, err := c.ReadBody()
	if err != nil {
		return nil, err
	}
	// Unknown settings are refused below too; here the error names them.
	if err := wire.CheckKnown(b, &model.Config{}); err != nil {
		return nil, err
	}
	var out configView
	err = c.Update(func(tx *state.Txn) error {
		cfg := state.GetConfig(tx)
		if err := scenarioworld.MergeConfig(b.Tree, &cfg); err != nil {
			return err
		}
		if err := scenarioworld.ValidateConfig(cfg); err != nil {
			return err
		}
		out = configAnswer(cfg)
		return state.PutConfig(tx, cfg)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func parseInstant(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Parse(time.RFC3339, s)
}
