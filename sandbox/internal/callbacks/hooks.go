package callbacks

// Where the callbacks subsystem plugs into the rest of the sandbox: world
// start and replacement (hooks, since api sits below this package), and
// callback_test when an account's or an API app's callback URL is set
// (called straight by the accounts, API apps and scenario seeding, which sit
// above it).

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

func registerHooks(r *api.Registry) {
	r.OnWorldStart(startCallbacks)
	r.WorldReplacedHooks = append(r.WorldReplacedHooks, func(s *api.Host, w *world.World) { dispatcherOf(s, w).replaced() })
}

// EmitTestAccount sends callback_test to an account's callback URL (and
// only there), as the real service does when the URL is set to a new value.
// Call it inside the transaction that stored the new URL.
func EmitTestAccount(s *api.Host, tx *state.Txn, a *model.Account) error {
	if a.CallbackURL == "" {
		return nil
	}
	_, err := s.EmitTo(tx, notify.Event{Type: notify.TypeCallbackTest, AccountIDs: []string{a.ID}}, []notify.Target{notify.AccountTarget(a)})
	return err
}

// EmitTestApp sends callback_test to an API app's callback URL (and only
// there). The API app operations call it inside the transaction that stored a new, non-empty callback_url (create, or
// update to a different URL), after putting the app row. The event reports
// for the app's owner and is signed with the owner's primary API key.
func EmitTestApp(s *api.Host, tx *state.Txn, app *model.APIApp) error {
	if app.CallbackURL == "" {
		return nil
	}
	ev := notify.Event{Type: notify.TypeCallbackTest, AccountIDs: []string{app.OwnerAccountID}, ClientID: app.ClientID}
	_, err := s.EmitTo(tx, ev, []notify.Target{notify.AppTarget(app, app.OwnerAccountID)})
	return err
}
