package sandbox

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
func (s *Sandbox) authenticate(c *call, creds credentials) *apierr.Error {
	if creds.apiKey != "" {
		w, key := s.findAPIKey(creds.apiKey)
		if key == nil {
			return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid)
		}
		acct, err := state.Get[state.Account](w.Store.Read(), state.TableAccounts, key.AccountID)
		if err != nil {
			return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid)
		}
		c.w, c.account, c.apiKey = w, acct, key.Key
		return nil
	}
	w, tok := s.findToken(creds.token)
	if tok == nil {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token is not valid.")
	}
	if tok.Revoked {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has been revoked.")
	}
	if w.Now().Unix() >= tok.ExpiresAt {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. The access token has expired; use the refresh token to get a new one.")
	}
	acct, err := state.Get[state.Account](w.Store.Read(), state.TableAccounts, tok.AccountID)
	if err != nil {
		return apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedInvalid)
	}
	c.w, c.account, c.token = w, acct, tok
	return nil
}

// checkScopes refuses a token call whose token lacks every scope the
// operation accepts, and token calls to API-key-only operations.
func checkScopes(c *call) *apierr.Error {
	if c.token == nil || c.rt == nil {
		return nil
	}
	if c.rt.auth == authKeyOnly {
		return apierr.New(apierr.Unauthorized, "Unauthorized user. This operation accepts only an API key, not an OAuth access token.")
	}
	for _, want := range c.rt.scopes {
		if slices.Contains(c.token.Scopes, want) {
			return nil
		}
	}
	return apierr.Forbiddenf("The access token lacks a scope this operation needs (one of: %s).", strings.Join(c.rt.scopes, ", "))
}

// findAPIKey looks a key up in the cached world first, then in every world.
func (s *Sandbox) findAPIKey(key string) (*world.World, *state.APIKey) {
	lookup := func(w *world.World) *state.APIKey {
		k, err := state.Get[state.APIKey](w.Store.Read(), state.TableAPIKeys, key)
		if err != nil {
			return nil
		}
		return k
	}
	if v, ok := s.creds.Load("k:" + key); ok {
		w := v.(*world.World)
		if k := lookup(w); k != nil {
			return w, k
		}
	}
	for _, w := range s.worldsSnapshot() {
		if k := lookup(w); k != nil {
			s.creds.Store("k:"+key, w)
			return w, k
		}
	}
	return nil, nil
}

// findToken looks an OAuth access token up the same way.
func (s *Sandbox) findToken(token string) (*world.World, *state.OAuthToken) {
	lookup := func(w *world.World) *state.OAuthToken {
		t, err := state.Get[state.OAuthToken](w.Store.Read(), state.TableOAuthToken, token)
		if err != nil {
			return nil
		}
		return t
	}
	if v, ok := s.creds.Load("t:" + token); ok {
		w := v.(*world.World)
		if t := lookup(w); t != nil {
			return w, t
		}
	}
	for _, w := range s.worldsSnapshot() {
		if t := lookup(w); t != nil {
			s.creds.Store("t:"+token, w)
			return w, t
		}
	}
	return nil, nil
}
