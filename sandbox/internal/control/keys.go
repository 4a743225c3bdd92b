package control

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	memdb "github.com/hashicorp/go-memdb"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// RegisterKeys adds the control calls that list, add, rename, delete and
// promote the API keys of a world's accounts (what the service's API
// settings page does: generate with a name, rename, delete, make primary).
func RegisterKeys(r *api.Registry) {
	r.Control(http.MethodGet, "/api_keys", controlListKeys)
	r.Control(http.MethodPost, "/api_keys", controlAddKey)
	r.Control(http.MethodPatch, "/api_keys/{key}", controlRenameKey)
	r.ControlNoBody(http.MethodDelete, "/api_keys/{key}", controlDeleteKey)
	r.ControlNoBody(http.MethodPost, "/api_keys/{key}/primary", controlMakePrimary)
}

// maxKeyNameRunes bounds a key's name, as the service's settings page
// bounds the names it takes.
const maxKeyNameRunes = 255

// checkKeyName checks a key's name: given, not blank, at most
// maxKeyNameRunes characters; it answers the name trimmed.
func checkKeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", apierr.Badf("name", "name must not be blank")
	case utf8.RuneCountInString(name) > maxKeyNameRunes:
		return "", apierr.Badf("name", "name can be at most %d characters (got %d)", maxKeyNameRunes, utf8.RuneCountInString(name))
	}
	return name, nil
}

// apiKeyView is an API key as the control plane shows it.
type apiKeyView struct {
	Key       string `json:"key"`
	AccountID string `json:"account_id"`
	Name      string `json:"name"`
	Primary   bool   `json:"primary"`
	CreatedAt int64  `json:"created_at"`
}

type apiKeysResponse struct {
	APIKeys []apiKeyView `json:"api_keys"`
}

// keyAccount is the account a key call is about: account_id given, else the
// account the call acts for.
func keyAccount(c *api.Call, accountID string) (*model.Account, error) {
	if accountID == "" {
		accountID = c.ActingAccountID()
	}
	a, err := state.Get[model.Account](c.Read(), state.TableAccounts, accountID)
	if err != nil {
		return nil, api.ErrControlNotFound("account", accountID)
	}
	return a, nil
}

func listKeys(tx *state.Txn, accountID string) apiKeysResponse {
	keys, _ := state.APIKeysOf(tx, accountID)
	out := apiKeysResponse{APIKeys: []apiKeyView{}}
	for _, k := range keys {
		out.APIKeys = append(out.APIKeys, apiKeyView{Key: k.Key, AccountID: k.AccountID, Name: k.Name, Primary: k.Primary, CreatedAt: k.CreatedAt})
	}
	return out
}

func controlListKeys(c *api.Call) (any, error) {
	acct, err := keyAccount(c, c.Request.URL.Query().Get("account_id"))
	if err != nil {
		return nil, err
	}
	return listKeys(c.Read(), acct.ID), nil
}

type addKeyRequest struct {
	AccountID string `json:"account_id"`
	Name      string `json:"name"`
	Primary   bool   `json:"primary"`
	// Key fixes the key's value (otherwise one is generated).
	Key string `json:"key"`
}

func controlAddKey(c *api.Call) (any, error) {
	var req addKeyRequest
	if err := c.BindStrict(&req); err != nil {
		return nil, err
	}
	acct, err := keyAccount(c, req.AccountID)
	if err != nil {
		return nil, err
	}
	if req.Name != "" {
		if req.Name, err = checkKeyName(req.Name); err != nil {
			return nil, err
		}
	}
	if req.Key != "" && (len(req.Key) < 8 || strings.ContainsAny(req.Key, ": \t\r\n")) {
		return nil, apierr.Badf("key", "key must be at least 8 characters without colons or spaces")
	}
	if req.Key != "" {
		if w, k := c.Host.FindAPIKey(req.Key); k != nil && w != nil {
			return nil, apierr.Conflictf("That API key is already in use.")
		}
	}
	var out apiKeysResponse
	err = c.Update(func(tx *state.Txn) error {
		keys, _ := state.APIKeysOf(tx, acct.ID)
		if len(keys) >= state.MaxAPIKeys {
			return apierr.Badf("", "An account can have at most %d API keys; delete one first.", state.MaxAPIKeys)
		}
		key := req.Key
		if key == "" {
			key = tx.NewSecret()
		}
		name := req.Name
		if name == "" {
			name = "API key " + strconv.Itoa(len(keys)+1)
		}
		primary := req.Primary || len(keys) == 0
		if primary {
			if err := clearPrimary(tx, keys); err != nil {
				return err
			}
		}
		row := &model.APIKey{Key: key, AccountID: acct.ID, Name: name, Primary: primary, CreatedAt: tx.Unix(), Seq: tx.Seq()}
		if err := state.Put(tx, state.TableAPIKeys, row); err != nil {
			return err
		}
		out = listKeys(tx, acct.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return api.WithStatus{Status: http.StatusCreated, Value: out}, nil
}

func clearPrimary(tx *state.Txn, keys []*model.APIKey) error {
	for _, k := range keys {
		if k.Primary {
			c := state.Clone(k)
			c.Primary = false
			if err := state.Put(tx, state.TableAPIKeys, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// renameKeyRequest is the body of PATCH /_sandbox/api_keys/{key}.
type renameKeyRequest struct {
	Name *string `json:"name"`
}

// controlRenameKey gives a key of the world a new name; the key, its
// account and whether it is primary stay as they were.
func controlRenameKey(c *api.Call) (any, error) {
	var req renameKeyRequest
	if err := c.BindStrict(&req); err != nil {
		return nil, err
	}
	if req.Name == nil {
		return nil, apierr.Missing("name")
	}
	name, err := checkKeyName(*req.Name)
	if err != nil {
		return nil, err
	}
	key := c.Param("key")
	var out apiKeysResponse
	err = c.Update(func(tx *state.Txn) error {
		k, err := state.Get[model.APIKey](tx, state.TableAPIKeys, key)
		if err != nil {
			return api.ErrControlNotFound("API key", key)
		}
		renamed := state.Clone(k)
		renamed.Name = name
		if err := state.Put(tx, state.TableAPIKeys, renamed); err != nil {
			return err
		}
		out = listKeys(tx, k.AccountID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func controlDeleteKey(c *api.Call) (any, error) {
	key := c.Param("key")
	var out apiKeysResponse
	err := c.Update(func(tx *state.Txn) error {
		k, err := state.Get[model.APIKey](tx, state.TableAPIKeys, key)
		if err != nil {
			return api.ErrControlNotFound("API key", key)
		}
		if k.Primary {
			return apierr.Badf("key", "The primary key cannot be deleted; make another key primary first.")
		}
		if err := tx.Delete(state.TableAPIKeys, k); err != nil {
			return err
		}
		out = listKeys(tx, k.AccountID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func controlMakePrimary(c *api.Call) (any, error) {
	key := c.Param("key")
	var out apiKeysResponse
	err := c.Update(func(tx *state.Txn) error {
		k, err := state.Get[model.APIKey](tx, state.TableAPIKeys, key)
		if err != nil {
			return api.ErrControlNotFound("API key", key)
		}
		keys, _ := state.APIKeysOf(tx, k.AccountID)
		if err := clearPrimary(tx, keys); err != nil {
			return err
		}
		cur, _ := state.Get[model.APIKey](tx, state.TableAPIKeys, key)
		c := state.Clone(cur)
		c.Primary = true
		if err := state.Put(tx, state.TableAPIKeys, c); err != nil {
			return err
		}
		out = listKeys(tx, k.AccountID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkKeysFree refuses an import whose API keys belong to another world:
// credentials are how requests find their world, so they must stay unique.
func checkKeysFree(s *api.Host, target *world.World, db *memdb.MemDB) error {
	it, err := db.Txn(false).Get(state.TableAPIKeys, state.IndexID)
	if err != nil {
		return err
	}
	for raw := it.Next(); raw != nil; raw = it.Next() {
		k := raw.(*model.APIKey)
		if w, found := s.FindAPIKey(k.Key); found != nil && w != target {
			return apierr.Conflictf("API key %s is in use by world %s; import into that world or change the key.", maskKey(k.Key), w.ID)
		}
	}
	return nil
}

// maskKey shows the ends of a key only.
func maskKey(k string) string {
	if len(k) < 12 {
		return "…"
	}
	return k[:4] + "…" + k[len(k)-4:]
}
