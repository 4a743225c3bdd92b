package api

import (
	"slices"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/credentials"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// authenticate finds the world and account of a call's credentials. A
// refusal is the official 401; its Reason tells the server's log which of
// the ways a credential fails this one took.
func (s *Host) authenticate(c *Call, creds headerCredentials) *apierr.Error {
	if creds.APIKey != "" {
		found := s.findCredential(state.TableAPIKeys, creds.APIKey)
		if found == nil || found.Key == nil {
			return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid).Because(s.missingReason(state.TableAPIKeys, creds.APIKey, "API key"))
		}
		if found.Account == nil {
			return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid).Because("the API key's account no longer exists")
		}
		c.World, c.Account, c.apiKey = found.World, found.Account, found.Key.Key
		return nil
	}
	found := s.findCredential(state.TableOAuthToken, creds.Token)
	if found == nil || found.Token == nil {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token is not valid.").Because(s.missingReason(state.TableOAuthToken, creds.Token, "access token"))
	}
	tok := found.Token
	if tok.Revoked {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has been revoked.").Because("the access token was revoked")
	}
	if now := found.World.Now(); now.Unix() >= tok.ExpiresAt {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has expired; use the refresh token to get a new one.").
			Because("the access token expired at " + time.Unix(tok.ExpiresAt, 0).UTC().Format(time.RFC3339) + " on the world clock (now " + now.UTC().Format(time.RFC3339) + ")")
	}
	if found.Account == nil {
		return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid).Because("the access token's account no longer exists")
	}
	c.World, c.Account, c.token = found.World, found.Account, tok
	return nil
}

// missingReason says why no world holds a credential: its world was
// deleted (as far as the graves remember), or no world ever held it here,
// and then, on a server with a shard tag, whether the credential carries
// that tag (a router that sent it here may have sent it to the wrong
// server). It names the world, never the credential.
func (s *Host) missingReason(table, credential, what string) string {
	if id := s.creds.DeletedWorld(table, credential); id != "" {
		return "the " + what + "'s world " + id + " was deleted"
	}
	reason := "no world has this " + what
	if s.shard != "" && !strings.HasPrefix(credential, s.shard) {
		reason += " (it does not start with this server's shard tag " + s.shard + ")"
	}
	return reason
}

// checkScopes refuses a token call whose token lacks every scope the
// operation accepts, and token calls to API-key-only operations.
func checkScopes(c *Call) *apierr.Error {
	if c.token == nil || c.Route == nil {
		return nil
	}
	if c.Route.Auth == AuthKeyOnly {
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

// findCredential finds the world of a credential (see credentials.Index).
func (s *Host) findCredential(table, id string) *credentials.Found {
	return s.creds.Find(table, id, s.Worlds)
}

// FindAPIKey finds the world holding an API key (nil when none does).
func (s *Host) FindAPIKey(key string) (*world.World, *model.APIKey) {
	found := s.findCredential(state.TableAPIKeys, key)
	if found == nil {
		return nil, nil
	}
	return found.World, found.Key
}
