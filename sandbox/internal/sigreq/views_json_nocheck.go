//go:build !readcheck

package sigreq

import "github.com/signsandbox/signsandbox/sandbox/internal/state"

// checkShape does nothing outside -tags readcheck (views_json_check.go).
func checkShape(*state.SignatureRequest, []byte) {}
