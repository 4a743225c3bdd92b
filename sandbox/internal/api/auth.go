package api

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// credentials are what an Authorization header carries.
type credentials struct {
	apiKey string
	token  string
}

// parseAuthorization reads the Authorization header: HTTP Basic with the API
// key as user name (clients that put the key in the URL's user-info send the
// same header), or Bearer with an OAuth access token. ok is false when no
// header was sent.
func parseAuthorization(r *http.Request) (creds credentials, ok bool, err *apierr.Error) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return credentials{}, false, nil
	}
	scheme, rest, _ := strings.Cut(h, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(scheme) {
	case "basic":
		raw, decErr := base64.StdEncoding.DecodeString(rest)
		if decErr != nil {
			return credentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. The Authorization header is not valid HTTP Basic credentials.")
		}
		user, _, _ := strings.Cut(string(raw), ":")
		if user == "" {
			return credentials{}, true, apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedNoCredentials)
		}
		return credentials{apiKey: user}, true, nil
	case "bearer":
		if rest == "" {
			return credentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. The Bearer token is empty.")
		}
		return credentials{token: rest}, true, nil
	}
	return credentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. Use HTTP Basic with your API key or a Bearer access token.")
}

// authenticate finds the world and account of a call's credentials.
func (s *Host) authenticate(c *Call, creds credentials) *apierr.Error {
	var w *world.World
	var accountID string
	if creds.apiKey != "" {
		var key *state.APIKey
		if w, key = findCredential[state.APIKey](s, state.TableAPIKeys, creds.apiKey); key == nil {
			return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid)
		}
		accountID, c.apiKey = key.AccountID, key.Key
	} else {
		var tok *state.OAuthToken
		if w, tok = findCredential[state.OAuthToken](s, state.TableOAuthToken, creds.token); tok == nil {
			return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token is not valid.")
		}
		if tok.Revoked {
			return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has been revoked.")
		}
		if w.Now().Unix() >= tok.ExpiresAt {
			return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has expired; use the refresh token to get a new one.")
		}
		accountID, c.token = tok.AccountID, tok
	}
	acct, err := state.Get[state.Account](w.Store.Read(), state.TableAccounts, accountID)
	if err != nil {
		return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid)
	}
	c.World, c.Account = w, acct
	return nil
}

// checkScopes refuses a token call whose token lacks every scope the
// operation accepts, and token calls to API-key-only operations.
func checkScopes(c *Call) *apierr.Error {
	if c.token == nil || c.Route == nil {
		return nil
	}
	if c.Route.auth == authKeyOnly {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. This operation accepts only an API key, not an OAuth access token.")
	}
	for _, want := range c.Route.scopes {
		if slices.Contains(c.token.Scopes, want) {
			return nil
		}
	}
	return apierr.Forbiddenf("The access token lacks a scope this operation needs (one of: %s).", strings.Join(c.Route.scopes, ", "))
}

// credentialKey names a credential in the Sandbox's creds cache: the table
// it is stored in (API keys, OAuth tokens) and its value.
type credentialKey struct{ table, id string }

// findCredential looks a credential (the row id in table) up in the world
// the cache remembers for it first, then in every world in creation order,
// and remembers where it was found. A cached world that no longer holds the
// credential (a deleted key, a refreshed token) loses its entry.
func findCredential[T any](s *Host, table, id string) (*world.World, *T) {
	lookup := func(w *world.World) *T {
		row, err := state.Get[T](w.Store.Read(), table, id)
		if err != nil {
			return nil
		}
		return row
	}
	ck := credentialKey{table, id}
	if v, ok := s.creds.Load(ck); ok {
		w := v.(*world.World)
		if row := lookup(w); row != nil {
			return w, row
		}
		s.creds.Delete(ck)
	}
	var row *T
	w := s.FindWorld(func(w *world.World) bool { row = lookup(w); return row != nil })
	if w != nil {
		s.creds.Store(ck, w)
	}
	return w, row
}

// FindAPIKey finds the world holding an API key (nil when none does).
func (s *Host) FindAPIKey(key string) (*world.World, *state.APIKey) {
	return findCredential[state.APIKey](s, state.TableAPIKeys, key)
}
