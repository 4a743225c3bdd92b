package sandbox

// WithRecording records the default world's session into path, as a
// scenario file (YAML, or JSON when path ends in .json) rewritten after
// every call. The recording starts from the world the scenarios given to
// New (WithScenario, WithScenarioFile) leave, whatever the options' order.
func WithRecording(path string) Option {
	return func(cfg *config) error { cfg.record = path; return nil }
}

// WithRecordedCredentials makes the recording of WithRecording keep the
// world's credentials (API keys, OAuth secrets, codes and tokens, the
// tokens of page URLs) as they are. By default a recording writes each as
// a placeholder, ${credentials.NAME}, that its replay resolves to a
// credential of the replay's world, so that the file can be shared.
func WithRecordedCredentials() Option {
	return func(cfg *config) error { cfg.recordCredentials = true; return nil }
}
