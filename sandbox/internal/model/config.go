package model

import (
	"encoding/json"
	"errors"
	"time"
)

// Config is a world's tunable behaviour: the delays of asynchronous work, URL
// lifetimes, limits and rate limiting. It is stored in the world so that it is
// exported, imported and reset with everything else. The defaults are
// documented in docs/fidelity.md and set by DefaultConfig.
type Config struct {
	ID string `json:"id"`

	// SendProcessingDelay is the time between a send and the request being
	// processed (signature_request_sent or file_error).
	SendProcessingDelay Duration `json:"send_processing_delay"`
	// FilePreparationDelay is the time after creation, each signature and
	// completion until downloads stop answering 409.
	FilePreparationDelay Duration `json:"file_preparation_delay"`
	// TemplatePreparationDelay is the time until template_created.
	TemplatePreparationDelay Duration `json:"template_preparation_delay"`
	// CancelDelay is the time a queued cancelation takes to complete.
	CancelDelay Duration `json:"cancel_delay"`
	// ReminderInterval is the minimum spacing of reminders to one signer.
	ReminderInterval Duration `json:"reminder_interval"`
	// AutoReminders is the service's own reminder schedule for requests
	// not yet signed. Left out when zero (off, no delays), the value of a
	// world exported before the setting existed, which so exports as it
	// was imported.
	AutoReminders AutoReminderConfig `json:"auto_reminders,omitzero"`

	SignURLTTL    Duration `json:"sign_url_ttl"`
	EditURLTTL    Duration `json:"edit_url_ttl"`
	ClaimURLTTL   Duration `json:"claim_url_ttl"`
	FileURLTTL    Duration `json:"file_url_ttl"`
	OAuthTokenTTL Duration `json:"oauth_token_ttl"`

	// MaxFileBytes caps one uploaded or fetched file; MaxWorldBytes caps all
	// stored file bytes of the world.
	MaxFileBytes  int64 `json:"max_file_bytes"`
	MaxWorldBytes int64 `json:"max_world_bytes"`
	// FetchFileURLs makes the sandbox download file_urls; when false a
	// generated placeholder document stands in (offline runs).
	FetchFileURLs bool `json:"fetch_file_urls"`

	RateLimit RateLimitConfig `json:"rate_limit"`

	// CallbackTimeout bounds one delivery attempt.
	CallbackTimeout Duration `json:"callback_timeout"`

	// TestValues turns on the reserved test values (signer addresses on
	// signsandbox.test, trigger file names and text): see
	// internal/testvalues and docs/test-values.md. On unless turned off,
	// also in worlds exported before the setting existed; a world that
	// leaves it on exports without it, as such worlds did.
	TestValues DefaultOn `json:"test_values,omitzero"`
	// TestValuesDelay is how long after a reserved signer's turn comes
	// (their signing e-mail goes out) they act. 0 means
	// DefaultTestValuesDelay (TestValueDelay reads it), so that worlds
	// exported before the setting existed import with the default and
	// export as they were.
	TestValuesDelay Duration `json:"test_values_delay,omitempty"`

	// LogEntries is how many entries of the callback log and, separately,
	// of the e-mail outbox the world keeps (the oldest settled ones go
	// first). 0 means DefaultLogLimit, so that worlds exported before the
	// setting existed import with the default.
	LogEntries int `json:"log_limit,omitempty"`
}

// AutoReminderConfig is the schedule of automatic reminders: each delay in
// After, counted from the last time the request asked someone to sign, is
// one reminder to every signer whose turn it is. The zero value is off, so
// that a world exported before the setting existed imports as it ran.
type AutoReminderConfig struct {
	Enabled bool       `json:"enabled"`
	After   []Duration `json:"after"`
}

// Bounds of an automatic reminder schedule: a few delays, each at most
// MaxAutoReminderDelay, so that a due time stays far inside the clock's
// range and a reminder job reads a short list.
const (
	MaxAutoReminders     = 50
	MaxAutoReminderDelay = Duration(366 * 24 * time.Hour)
)

// Check says what is wrong with a schedule ("" when nothing): on, it needs
// at least one delay; every delay is positive and at most a year.
func (a AutoReminderConfig) Check() string {
	switch {
	case len(a.After) > MaxAutoReminders:
		return "auto_reminders.after holds at most 50 delays"
	case a.Enabled && len(a.After) == 0:
		return "auto_reminders.after needs at least one delay when automatic reminders are enabled"
	}
	for _, d := range a.After {
		if d <= 0 || d > MaxAutoReminderDelay {
			return "each delay of auto_reminders.after is positive and at most 366 days (8784h)"
		}
	}
	return ""
}

// CheckImported refuses an imported configuration whose reminder schedule
// the control plane would refuse.
func (c *Config) CheckImported() error {
	if msg := c.AutoReminders.Check(); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// DefaultTestValuesDelay is the default of Config.TestValuesDelay.
const DefaultTestValuesDelay = Duration(3 * time.Second)

// TestValueDelay is how long after their turn a reserved test signer acts.
func (c Config) TestValueDelay() time.Duration {
	if c.TestValuesDelay == 0 {
		return DefaultTestValuesDelay.D()
	}
	return c.TestValuesDelay.D()
}

// DefaultOn is a switch that is on unless turned off: its zero value is on,
// so a row decoded without it (a world exported before the switch
// existed) has it on. It is written as a JSON boolean.
type DefaultOn struct {
	// Off is true once the switch was turned off.
	Off bool
}

// On reports whether the switch is on.
func (d DefaultOn) On() bool { return !d.Off }

// MarshalJSON writes the switch as true or false.
func (d DefaultOn) MarshalJSON() ([]byte, error) { return json.Marshal(!d.Off) }

// UnmarshalJSON reads true or false; null leaves the switch as it is.
func (d *DefaultOn) UnmarshalJSON(b []byte) error {
	var v *bool
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v != nil {
		d.Off = !*v
	}
	return nil
}

// RateLimitConfig is the per-account request limit. Headers are always sent;
// Enforce turns on 429 exceeded_rate answers.
type RateLimitConfig struct {
	Enforce bool     `json:"enforce"`
	Limit   int      `json:"limit"`
	Window  Duration `json:"window"`
}

// DefaultLogLimit is the number of entries of each log a world keeps when
// its configuration does not say.
const DefaultLogLimit = 10000

// LogLimit is the configured number of entries of each log.
func (c Config) LogLimit() int {
	if c.LogEntries > 0 {
		return c.LogEntries
	}
	return DefaultLogLimit
}
