package sigreq

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Visible reports whether an account can see a request: its requester,
// its signers and CCs (by e-mail address), members of the requester's
// team, and the owner of the API app it was made with, unless the account
// removed its access.
func Visible(tx *state.Txn, req *model.SignatureRequest, acct *model.Account) bool {
	if acct == nil || removedFor(req, acct.ID) {
		return false
	}
	if acct.ID == req.RequesterAccountID {
		return true
	}
	if isParty(req, acct) {
		return true
	}
	if acct.TeamID != "" && api.SameTeam(tx, req.RequesterAccountID, acct.ID) {
		return true
	}
	return ownsApp(tx, req, acct.ID)
}

// isParty reports whether the account is the requester, a signer or a CC.
func isParty(req *model.SignatureRequest, acct *model.Account) bool {
	if acct.ID == req.RequesterAccountID {
		return true
	}
	key := state.EmailKey(acct.Email)
	for _, sg := range req.Signatures {
		if state.EmailKey(sg.Email) == key {
			return true
		}
	}
	for _, cc := range req.CCEmails {
		if state.EmailKey(cc) == key {
			return true
		}
	}
	return false
}

// ownsApp reports whether the account owns the request's API app.
func ownsApp(tx *state.Txn, req *model.SignatureRequest, accountID string) bool {
	if req.ClientID == "" {
		return false
	}
	app, err := state.Get[model.APIApp](tx, state.TableAPIApps, req.ClientID)
	return err == nil && app.OwnerAccountID == accountID
}

// MayManage reports whether the caller acts for the requester: the sender
// or the owner of the API app it was sent with.
func MayManage(tx *state.Txn, req *model.SignatureRequest, acct *model.Account) bool {
	return acct.ID == req.RequesterAccountID || ownsApp(tx, req, acct.ID)
}

// Load finds a request the caller may see: 404 when it does not
// exist, belongs to another world or account, or the caller removed it;
// 410 once it was canceled.
func Load(tx *state.Txn, id string, acct *model.Account) (*model.SignatureRequest, error) {
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
	if err != nil || !Visible(tx, req, acct) {
		return nil, apierr.NotFoundf(apierr.MsgNotFound)
	}
	if req.Phase == model.PhaseCanceled {
		return nil, apierr.Gone()
	}
	return req, nil
}

// loadBySignature finds the request holding a signature id.
func loadBySignature(tx *state.Txn, sigID string) (*model.SignatureRequest, error) {
	req, err := state.SignatureRequestBySignature(tx, sigID)
	if err != nil {
		return nil, apierr.NotFoundf("No signature %s in this world.", sigID)
	}
	return req, nil
}
