package sandbox

// WithRecording records the default world's session into path, as a
// scenario file (YAML, or JSON when path ends in .json) rewritten after
// every call. The recording starts from the world the scenarios given to
// New (WithScenario, WithScenarioFile) leave, whatever the options' order.
func WithRecording(path string) Option {
	return func(cfg *config) error { cfg.record = path; return nil }
}
