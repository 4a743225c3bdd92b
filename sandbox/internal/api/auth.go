package api

import (
	"slices"
	"strings"
	"time"
	"weak"

	memdb "github.com/hashicorp/go-memdb"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/authheader"
	"github.com/signsandbox/signsandbox/sandbox/internal/operations"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// authenticate finds the world and account of a call's credentials. A
// refusal is the official 401; its Reason tells the server's log which of
// the ways a credential fails this one took.
func (s *Host) authenticate(c *Call, creds authheader.Credentials) *apierr.Error {
	if creds.APIKey != "" {
		found := s.findCredential(state.TableAPIKeys, creds.APIKey)
		if found == nil || found.key == nil {
			return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid).Because(s.missingReason(state.TableAPIKeys, creds.APIKey, "API key"))
		}
		if found.account == nil {
			return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid).Because("the API key's account no longer exists")
		}
		c.World, c.Account, c.apiKey = found.world, found.account, found.key.Key
		return nil
	}
	found := s.findCredential(state.TableOAuthToken, creds.Token)
	if found == nil || found.token == nil {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token is not valid.").Because(s.missingReason(state.TableOAuthToken, creds.Token, "access token"))
	}
	tok := found.token
	if tok.Revoked {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has been revoked.").Because("the access token was revoked")
	}
	if now := found.world.Now(); now.Unix() >= tok.ExpiresAt {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has expired; use the refresh token to get a new one.").
			Because("the access token expired at " + time.Unix(tok.ExpiresAt, 0).UTC().Format(time.RFC3339) + " on the world clock (now " + now.UTC().Format(time.RFC3339) + ")")
	}
	if found.account == nil {
		return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid).Because("the access token's account no longer exists")
	}
	c.World, c.Account, c.token = found.world, found.account, tok
	return nil
}

// missingReason says why no world holds a credential: its world was
// deleted (as far as the graves remember), or no world ever held it here,
// and then, on a server with a shard tag, whether the credential carries
// that tag (a router that sent it here may have sent it to the wrong
// server). It names the world, never the credential.
func (s *Host) missingReason(table, credential, what string) string {
	if id := s.graves.worldOf(table, credential); id != "" {
		return "the " + what + "'s world " + id + " was deleted"
	}
	reason := "no world has this " + what
	if s.Shard != "" && !strings.HasPrefix(credential, s.Shard) {
		reason += " (it does not start with this server's shard tag " + s.Shard + ")"
	}
	return reason
}

// checkScopes refuses a token call whose token lacks every scope the
// operation accepts, and token calls to API-key-only operations.
func checkScopes(c *Call) *apierr.Error {
	if c.token == nil || c.Route == nil {
		return nil
	}
	if c.Route.Auth == operations.AuthKeyOnly {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. This operation accepts only an API key, not an OAuth access token.").
			Because("the operation takes only an API key, and the call sent an access token")
	}
	for _, want := range c.Route.Scopes {
		if slices.Contains(c.token.Scopes, want) {
			return nil
		}
	}
	return apierr.Forbiddenf("The access token lacks a scope this operation needs (one of: %s).", strings.Join(c.Route.Scopes, ", ")).
		Because("the access token lacks the operation's scopes")
}

// credentialKey names a credential in the Sandbox's creds cache: the table
// it is stored in (API keys, OAuth tokens) and its value.
type credentialKey struct{ table, id string }

// foundCredential is a credential as its world held it in one snapshot of
// its database: the world, the stored row (an API key or an OAuth token)
// and the row of its account (nil when there is none). A call whose world
// still serves that snapshot takes them from the cache instead of reading
// both rows again; the snapshot is held weakly, so that the cache never
// keeps an old database alive.
type foundCredential struct {
	world   *world.World
	snap    weak.Pointer[memdb.Txn]
	key     *state.APIKey
	token   *state.OAuthToken
	account *state.Account
}

// readCredential reads a credential and its account in one snapshot of w
// (nil when w does not hold it).
func readCredential(w *world.World, tx *state.Txn, table, id string) *foundCredential {
	found := &foundCredential{world: w, snap: weak.Make(tx.Txn)}
	var accountID string
	switch table {
	case state.TableAPIKeys:
		key, err := state.Get[state.APIKey](tx, table, id)
		if err != nil {
			return nil
		}
		found.key, accountID = key, key.AccountID
	default:
		tok, err := state.Get[state.OAuthToken](tx, table, id)
		if err != nil {
			return nil
		}
		found.token, accountID = tok, tok.AccountID
	}
	if acct, err := state.Get[state.Account](tx, state.TableAccounts, accountID); err == nil {
		found.account = acct
	}
	return found
}

// findCredential looks a credential (the row id in table) up in the world
// the cache remembers for it first, then in every world in creation order,
// and remembers where it was found. What the cache holds is used as it is
// while the world's database is the snapshot it was read from, and read
// again after any commit. A cached world that no longer holds the
// credential (a deleted key, a refreshed token) loses its entry.
func (s *Host) findCredential(table, id string) *foundCredential {
	ck := credentialKey{table, id}
	if v, ok := s.creds.Load(ck); ok {
		cached := v.(*foundCredential)
		tx := cached.world.Store.Read()
		if cached.snap.Value() == tx.Txn {
			return cached
		}
		if found := readCredential(cached.world, tx, table, id); found != nil {
			s.creds.Store(ck, found)
			return found
		}
		s.creds.CompareAndDelete(ck, cached)
	}
	for _, w := range s.Worlds() {
		if found := readCredential(w, w.Store.Read(), table, id); found != nil {
			s.creds.Store(ck, found)
			return found
		}
	}
	return nil
}

// FindAPIKey finds the world holding an API key (nil when none does).
func (s *Host) FindAPIKey(key string) (*world.World, *state.APIKey) {
	found := s.findCredential(state.TableAPIKeys, key)
	if found == nil {
		return nil, nil
	}
	return found.world, found.key
}
