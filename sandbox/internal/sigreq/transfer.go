package sigreq

// Team ownership transfers: when a member is removed with
// new_owner_email_address, the requests they sent become the new owner's.

import (
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

func registerTransfer(r *api.Registry) {
	r.OnTeamOwnershipTransfer(transferSignatureRequests)
}

// transferSignatureRequests makes the new owner the requester of every
// request the removed member sent: requester_email_address, list access,
// the right to manage the request and its events follow. The removed
// member keeps in their list only the requests they also sign.
func transferSignatureRequests(_ *api.Host, _ *world.World, tx *state.Txn, from, to string) error {
	heir, err := state.Get[model.Account](tx, state.TableAccounts, to)
	if err != nil {
		return apierr.NotFoundf("The new owner's account no longer exists.")
	}
	all, err := state.All[model.SignatureRequest](tx, state.TableSignatureRequests, state.IndexSeq)
	if err != nil {
		return err
	}
	drop, add := map[string]bool{}, map[string]uint64{}
	for _, cur := range all {
		if cur.RequesterAccountID != from {
			continue
		}
		req := cur.Copy()
		req.RequesterAccountID, req.RequesterEmail, req.RequesterName = heir.ID, heir.Email, heir.Name
		if err := state.Put(tx, state.TableSignatureRequests, req); err != nil {
			return err
		}
		if !slices.Contains(requestAccountIDs(tx, req), from) {
			drop[req.ID] = true
		}
		if !slices.Contains(req.RemovedFor, heir.ID) {
			add[req.ID] = req.Seq
		}
	}
	if err := state.RebuildAccess(tx, from, drop, nil); err != nil {
		return err
	}
	return state.RebuildAccess(tx, heir.ID, nil, add)
}
