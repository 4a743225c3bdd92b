package api

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// ProcessFailure is a failure that ends a signature request's processing:
// the request goes into error with StatusCode on its signatures.
type ProcessFailure struct {
	// StatusCode is one of the signature error statuses (error_file,
	// error_invalid_email, ...).
	StatusCode string
	Message    string
	// SignatureIDs limits the status to the signatures at fault (an
	// undeliverable address); empty means every signature. The others keep
	// their status, but the request is in error and nobody is asked to sign.
	SignatureIDs []string
}

// ProcessFaultHook, when set (Registry.ProcessFault), is consulted when a
// signature request's processing ends, inside the processing job's
// transaction tx and before any other failure is looked for. The scenario
// engine installs it so that rules (fail_file, fail_processing) can fail a
// request; white-box tests inject failures through it. nil means no fault.
// It is a hook because the scenario engine sits above the signature
// requests that call it.
type ProcessFaultHook func(s *Host, w *world.World, tx *state.Txn, req *model.SignatureRequest) *ProcessFailure
