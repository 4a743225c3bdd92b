package sandbox

// Where the callbacks subsystem plugs into the rest of the sandbox: world
// start and replacement, the account hooks (callback_test, confirmation),
// the account object view, and the callback_test helpers for API apps.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/account"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

func registerCallbacksHooks(r *api.Registry) {
	r.OnWorldStart(startCallbacks)
	r.WorldReplacedHooks = append(r.WorldReplacedHooks, func(s *api.Host, w *world.World) { dispatcherOf(s, w).replaced() })
	r.OnAccountCallbackSet = func(s *api.Host, _ *world.World, tx *state.Txn, a *state.Account) error {
		return callbackTestAccount(s, tx, a)
	}
	r.OnAccountCreated = accountCreatedHook
	r.OnAppCallbackSet = func(s *api.Host, _ *world.World, tx *state.Txn, app *state.APIApp) error {
		return callbackTestApp(s, tx, app)
	}
	r.ObjectViews[notify.ObjectAccount] = func(tx *state.Txn, id, _ string) (any, error) {
		a, err := state.Get[state.Account](tx, state.TableAccounts, id)
		if err != nil {
			return nil, err
		}
		return account.View(a), nil
	}
}

// callbackTestAccount sends callback_test to an account's callback URL (and
// only there), as the real service does when the URL is set. Call it inside
// the transaction that stored the new URL.
func callbackTestAccount(s *api.Host, tx *state.Txn, a *state.Account) error {
	if a.CallbackURL == "" {
		return nil
	}
	_, err := s.EmitTo(tx, notify.Event{Type: notify.TypeCallbackTest, AccountIDs: []string{a.ID}}, []notify.Target{notify.AccountTarget(a)})
	return err
}

// callbackTestApp sends callback_test to an API app's callback URL (and only
// there). The API app operations reach it through onAppCallbackSet inside
// the transaction that stored a new, non-empty callback_url (create, or
// update to a different URL), after putting the app row. The event reports
// for the app's owner and is signed with the owner's primary API key.
func callbackTestApp(s *api.Host, tx *state.Txn, app *state.APIApp) error {
	if app.CallbackURL == "" {
		return nil
	}
	ev := notify.Event{Type: notify.TypeCallbackTest, AccountIDs: []string{app.OwnerAccountID}, ClientID: app.ClientID}
	_, err := s.EmitTo(tx, ev, []notify.Target{notify.AppTarget(app, app.OwnerAccountID)})
	return err
}

// accountCreatedHook records the confirmation e-mail the real service sends
// to an account created through the API. The account stays unconfirmed
// until POST /_sandbox/accounts/{account_id}/confirm (the user clicking the
// link), which emits account_confirmed.
func accountCreatedHook(_ *api.Host, _ *world.World, tx *state.Txn, a *state.Account) error {
	_, err := notify.Email(tx, state.Email{
		Kind: notify.MailAccountConfirm, To: a.Email, Subject: "Please confirm your email address",
	})
	return err
}

// confirmAccount marks an account confirmed and emits account_confirmed,
// reported to the app the account was created through (if any). It answers
// the confirmed account and the event.
func confirmAccount(s *api.Host, tx *state.Txn, a *state.Account) (*state.Account, *state.Event, error) {
	c := state.Clone(a)
	c.Confirmed = true
	if err := state.Put(tx, state.TableAccounts, c); err != nil {
		return nil, nil, err
	}
	ev := notify.Event{Type: notify.TypeAccountConfirmed, ObjectType: notify.ObjectAccount, ObjectID: c.ID,
		AccountIDs: []string{c.ID}, ClientID: c.CreatedByClientID}
	row, err := s.EmitTo(tx, ev, notify.Route(tx, ev))
	return c, row, err
}
