//go:build race

package console_test

// raceFactor loosens time bounds under the race detector.
const raceFactor = 10
