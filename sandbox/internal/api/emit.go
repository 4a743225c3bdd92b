package api

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Emit records an event inside tx and queues its deliveries (see
// notify.Notifier.Emit): the one way every area of the sandbox tells the outside
// world of a change.
func (s *Host) Emit(tx *state.Txn, ev notify.Event) error { return s.reg.notifier.Emit(tx, ev) }

// EmitTo records an event and queues its deliveries to the given targets
// (see notify.Notifier.EmitTo).
func (s *Host) EmitTo(tx *state.Txn, ev notify.Event, targets []notify.Target) (*model.Event, error) {
	return s.reg.notifier.EmitTo(tx, ev, targets)
}
