package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Unclaimed draft tables and indexes.
const (
	// TableUnclaimedDrafts holds the drafts of POST /unclaimed_draft/*: a
	// prepared signature request waiting for its user to claim it.
	TableUnclaimedDrafts = "unclaimed_drafts"
	// IndexClaimToken finds a draft by the token of its claim URL.
	IndexClaimToken = "claim_token"
)

// Draft statuses. A draft is claimed once, by opening its claim URL (or by
// the control plane); the user then sends it (or signs it) and the
// signature request exists from that moment.
const (
	DraftUnclaimed = "unclaimed" // the claim URL was not used yet
	DraftClaimed   = "claimed"   // opened by its user, not sent yet
	DraftSent      = "sent"      // the signature request was created
)

// registerUnclaimedDrafts adds the unclaimed drafts.
func registerUnclaimedDrafts() {
	Register[model.UnclaimedDraft](&memdb.TableSchema{
		Name: TableUnclaimedDrafts,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:         {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexClaimToken: {Name: IndexClaimToken, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "Token"}},
		},
	})
}

// DraftByToken finds the draft of a claim URL token.
func DraftByToken(tx *Txn, token string) (*model.UnclaimedDraft, error) {
	return First[model.UnclaimedDraft](tx, TableUnclaimedDrafts, IndexClaimToken, token)
}
