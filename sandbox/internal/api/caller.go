package api

// The caller's account as the transaction sees it, and the team relation
// every area checks access with (signature requests, templates, lists).

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// ReloadCaller reads the caller's account inside tx (c.account is the
// account as the call began).
func ReloadCaller(c *Call, tx *state.Txn) (*model.Account, error) {
	me, err := state.Get[model.Account](tx, state.TableAccounts, c.Account.ID)
	if err != nil {
		return nil, apierr.NotFoundf("Account not found.")
	}
	return me, nil
}

// SameTeam reports whether two accounts are members of one team.
func SameTeam(tx *state.Txn, a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := state.Get[model.Account](tx, state.TableAccounts, a)
	y, err2 := state.Get[model.Account](tx, state.TableAccounts, b)
	return err1 == nil && err2 == nil && x.TeamID != "" && x.TeamID == y.TeamID
}
