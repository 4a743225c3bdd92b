package sandbox

// Test-only entry points for the black-box callback tests (package
// sandbox_test): emitting arbitrary events and setting callback URLs the API
// has no operation for yet.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// CallbacksTestEvent is an event for CallbacksEmit.
type CallbacksTestEvent struct {
	Type               string
	ObjectType         string
	ObjectID           string
	AccountIDs         []string
	ClientID           string
	RelatedSignatureID string
	EventMessage       string
}

// callbacksWorld is the world of an API key ("" for the default world).
func callbacksWorld(s *Sandbox, apiKey string) *world.World {
	if apiKey == "" {
		return s.host.DefaultWorld()
	}
	w, _ := s.host.FindAPIKey(apiKey)
	if w == nil {
		panic("no world has API key " + apiKey)
	}
	return w
}

// CallbacksEmit emits events in one transaction of the world of apiKey.
func CallbacksEmit(s *Sandbox, apiKey string, evs ...CallbacksTestEvent) error {
	return callbacksWorld(s, apiKey).Store.Update(func(tx *state.Txn) error {
		for _, ev := range evs {
			if err := s.host.Emit(tx, notify.Event(ev)); err != nil {
				return err
			}
		}
		return nil
	})
}

// CallbacksSetAppURL sets an API app's callback URL as the API app
// operations will, with callback_test.
func CallbacksSetAppURL(s *Sandbox, apiKey, clientID, url string) error {
	return callbacksWorld(s, apiKey).Store.Update(func(tx *state.Txn) error {
		cur, err := state.Get[model.APIApp](tx, state.TableAPIApps, clientID)
		if err != nil {
			return err
		}
		app := state.Clone(cur)
		app.CallbackURL = url
		if err := state.Put(tx, state.TableAPIApps, app); err != nil {
			return err
		}
		return callbacks.EmitTestApp(s.host, tx, app)
	})
}

// CallbacksSetAccountURL sets an account's callback URL without
// callback_test (accounts the test cannot authenticate as).
func CallbacksSetAccountURL(s *Sandbox, apiKey, accountID, url string) error {
	return callbacksWorld(s, apiKey).Store.Update(func(tx *state.Txn) error {
		cur, err := state.Get[model.Account](tx, state.TableAccounts, accountID)
		if err != nil {
			return err
		}
		a := state.Clone(cur)
		a.CallbackURL = url
		return state.Put(tx, state.TableAccounts, a)
	})
}

// CallbacksSetFault installs fn as s's callback fault hook and returns a
// function that puts back the hook it replaced (the scenario engine's).
// Other sandboxes keep theirs. Call it while no delivery of s is running
// (before the deliveries it is meant for, or after WaitCallbacks).
func CallbacksSetFault(s *Sandbox, fn func(a CallbackAttempt) (CallbackFault, string)) (restore func()) {
	prev := s.host.Reg().CallbackFault
	s.host.Reg().CallbackFault = func(_ *api.Host, _ *world.World, a CallbackAttempt) (CallbackFault, string) { return fn(a) }
	return func() { s.host.Reg().CallbackFault = prev }
}
