package template

// Team ownership transfers: when a member is removed with
// new_owner_email_address, the templates they own become the new owner's.

import (
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

func RegisterTransfer(r *api.Registry) { r.OnTeamOwnershipTransfer(transferTemplates) }

// transferTemplates gives every template the removed member owns to the new
// owner: ownership (is_creator, can_edit, the owner's operations) and list
// access move, the accounts it was shared with keep it. Templates merely
// shared with the removed member stay as they are.
func transferTemplates(_ *api.Host, _ *world.World, tx *state.Txn, from, to string) error {
	var owned []*model.Template
	err := state.TemplatesOf(tx, from, func(t *model.Template) bool {
		if t.OwnerID == from {
			owned = append(owned, t)
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, cur := range owned {
		t := cloneTemplate(cur)
		t.OwnerID = to
		// The new owner no longer needs a share of their own template.
		t.SharedWith = slices.DeleteFunc(t.SharedWith, func(id string) bool { return id == to || id == from })
		if err := state.PutTemplate(tx, t); err != nil {
			return err
		}
	}
	return nil
}
