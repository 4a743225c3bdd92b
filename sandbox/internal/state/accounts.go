package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Table and index names of the account-side tables.
const (
	TableAccounts   = "accounts"
	TableAPIKeys    = "api_keys"
	TableTeams      = "teams"
	TableAPIApps    = "api_apps"
	TableOAuthToken = "oauth_tokens"
	TableOAuthCodes = "oauth_codes"

	IndexEmail   = "email"   // accounts by lower-cased e-mail address
	IndexTeam    = "team"    // accounts by team id
	IndexAccount = "account" // rows by owning account id
	IndexOwner   = "owner"   // api apps by owner account id
	IndexRefresh = "refresh" // oauth tokens by refresh token
)

// MaxAPIKeys is the documented limit of API keys per account.
const MaxAPIKeys = 4

// registerAccounts adds the tables of accounts and what belongs to them (OAuth codes, API keys, teams, ...).
func registerAccounts() {
	Register[model.OAuthCode](&memdb.TableSchema{
		Name: TableOAuthCodes,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "Code"}},
		},
	})
	Register[model.Account](&memdb.TableSchema{
		Name: TableAccounts,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:    {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexEmail: {Name: IndexEmail, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "EmailKey"}},
			IndexTeam:  {Name: IndexTeam, AllowMissing: true, Indexer: &memdb.StringFieldIndex{Field: "TeamID"}},
		},
	})
	Register[model.APIKey](&memdb.TableSchema{
		Name: TableAPIKeys,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "Key"}},
			IndexAccount: {Name: IndexAccount, Indexer: &memdb.CompoundIndex{Indexes: []memdb.Indexer{
				&memdb.StringFieldIndex{Field: "AccountID"},
				&UintKey{Field: "Seq"},
			}}},
		},
	})
	Register[model.Team](&memdb.TableSchema{
		Name: TableTeams,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
	Register[model.APIApp](&memdb.TableSchema{
		Name: TableAPIApps,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ClientID"}},
			IndexOwner: {Name: IndexOwner, Indexer: &memdb.CompoundIndex{Indexes: []memdb.Indexer{
				&memdb.StringFieldIndex{Field: "OwnerAccountID"},
				&UintKey{Field: "Seq"},
			}}},
		},
	})
	Register[model.OAuthToken](&memdb.TableSchema{
		Name: TableOAuthToken,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:      {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "AccessToken"}},
			IndexRefresh: {Name: IndexRefresh, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "RefreshToken"}},
		},
	})
}

// AccountByEmail finds an account by e-mail address, case-insensitively.
func AccountByEmail(tx *Txn, email string) (*model.Account, error) {
	return First[model.Account](tx, TableAccounts, IndexEmail, EmailKey(email))
}

// APIKeysOf lists an account's keys in creation order.
func APIKeysOf(tx *Txn, accountID string) ([]*model.APIKey, error) {
	return All[model.APIKey](tx, TableAPIKeys, IndexAccount+"_prefix", OnlyID(accountID))
}

// AppsOf lists the API apps an account owns, oldest first.
func AppsOf(tx *Txn, ownerID string) ([]*model.APIApp, error) {
	return All[model.APIApp](tx, TableAPIApps, IndexOwner+"_prefix", OnlyID(ownerID))
}

// OnlyID makes an id the whole first part of a prefix lookup on a compound
// index. memdb matches the last value of a prefix lookup as a prefix, so
// the rows of account "acct1" would otherwise include those of "acct10";
// the NUL that ends every string key stops the match at the id's end.
func OnlyID(id string) string { return id + "\x00" }

// PrimaryKeyOf returns the account's primary API key ("" when it has none,
// which is the case for accounts created through the API).
func PrimaryKeyOf(tx *Txn, accountID string) string {
	keys, _ := APIKeysOf(tx, accountID)
	for _, k := range keys {
		if k.Primary {
			return k.Key
		}
	}
	return ""
}
