package account

// Confirming an account: the confirmation e-mail sent when an account is
// created through the API, POST /_sandbox/accounts/{account_id}/confirm
// (the user following the link) with its account_confirmed event, and the
// account object view that event carries.

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// RegisterConfirm adds the control route that confirms an account. The account_confirmed event carries the account
// as the catalog shows it (RegisterViews).
func RegisterConfirm(r *api.Registry) {
	r.ControlNoBody(http.MethodPost, "/accounts/{account_id}/confirm", controlConfirmAccount)
}

// sendConfirmationEmail records the confirmation e-mail the real service
// sends to an account created through the API, inside the creating
// transaction. The account stays unconfirmed
// until POST /_sandbox/accounts/{account_id}/confirm (the user clicking the
// link), which emits account_confirmed.
func sendConfirmationEmail(tx *state.Txn, a *model.Account) error {
	_, err := notify.Email(tx, model.Email{
		Kind: notify.MailAccountConfirm, To: a.Email, Subject: "Please confirm your email address",
	})
	return err
}

// confirmAccount marks an account confirmed and emits account_confirmed,
// reported to the app the account was created through (if any); then the
// requests the account sent while unconfirmed, held until now, are sent
// (OnAccountConfirmed). It answers the confirmed account and the event.
func confirmAccount(s *api.Host, w *world.World, tx *state.Txn, a *model.Account) (*model.Account, *model.Event, error) {
	c := state.Clone(a)
	c.Confirmed = true
	if err := state.Put(tx, state.TableAccounts, c); err != nil {
		return nil, nil, err
	}
	ev := notify.Event{Type: notify.TypeAccountConfirmed, ObjectType: notify.ObjectAccount, ObjectID: c.ID,
		AccountIDs: []string{c.ID}, ClientID: c.CreatedByClientID}
	row, err := s.EmitTo(tx, ev, notify.Route(tx, ev))
	if err != nil {
		return nil, nil, err
	}
	if s.Reg().OnAccountConfirmed != nil {
		if err := s.Reg().OnAccountConfirmed(s, w, tx, c); err != nil {
			return nil, nil, err
		}
	}
	return c, row, nil
}

type confirmResponse struct {
	Account Response `json:"account"`
	// EventID is the account_confirmed event.
	EventID string `json:"event_id"`
}

// controlConfirmAccount confirms an account as its user would by following
// the confirmation e-mail, emitting account_confirmed (to the app the
// account was created through, if any).
func controlConfirmAccount(c *api.Call) (any, error) {
	id := c.Param("account_id")
	var out confirmResponse
	err := c.Update(func(tx *state.Txn) error {
		a, err := state.Get[model.Account](tx, state.TableAccounts, id)
		if err != nil {
			return api.ErrControlNotFound("account", id)
		}
		if a.Confirmed {
			return apierr.Conflictf("Account %s is already confirmed.", id)
		}
		confirmed, ev, err := confirmAccount(c.Host, c.World, tx, a)
		if err != nil {
			return err
		}
		out.Account, out.EventID = View(confirmed), ev.ID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
