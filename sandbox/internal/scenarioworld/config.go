package scenarioworld

// The world configuration as scenarios and the control plane change it: a
// partial tree merged onto the current values, then the whole checked.

import (
	"bytes"
	"encoding/json"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// MergeConfig applies a partial JSON tree onto a configuration: fields present in the
// tree change, the others keep their values. Unknown keys are refused so that
// a typo in a control call does not pass silently.
func MergeConfig(tree map[string]any, dst *model.Config) error {
	b, err := json.Marshal(tree)
	if err != nil {
		return apierr.Badf("", "invalid body: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return apierr.Badf("", "invalid body: %v", err)
	}
	return nil
}

// ValidateConfig checks a whole configuration; the durations are checked in
// the order Config declares them, so that a change with several bad values
// always names the same one.
func ValidateConfig(c model.Config) error {
	for _, d := range []struct {
		name string
		v    model.Duration
	}{
		{"send_processing_delay", c.SendProcessingDelay}, {"file_preparation_delay", c.FilePreparationDelay},
		{"template_preparation_delay", c.TemplatePreparationDelay}, {"cancel_delay", c.CancelDelay},
		{"reminder_interval", c.ReminderInterval}, {"sign_url_ttl", c.SignURLTTL}, {"edit_url_ttl", c.EditURLTTL},
		{"claim_url_ttl", c.ClaimURLTTL}, {"file_url_ttl", c.FileURLTTL}, {"oauth_token_ttl", c.OAuthTokenTTL},
		{"rate_limit[window]", c.RateLimit.Window}, {"callback_timeout", c.CallbackTimeout},
		{"test_values_delay", c.TestValuesDelay},
	} {
		if d.v < 0 {
			return apierr.Badf(d.name, "%s must not be negative", d.name)
		}
	}
	if c.RateLimit.Limit < 1 {
		return apierr.Badf("rate_limit[limit]", "rate_limit.limit must be at least 1")
	}
	if c.LogEntries < 0 {
		return apierr.Badf("log_limit", "log_limit must not be negative (0 keeps the default of %d entries)", model.DefaultLogLimit)
	}
	if msg := c.AutoReminders.Check(); msg != "" {
		return apierr.Badf("auto_reminders[after]", "%s", msg)
	}
	if c.MaxFileBytes < 1 || c.MaxWorldBytes < 1 {
		return apierr.Badf("max_file_bytes", "file size limits must be positive")
	}
	return nil
}
