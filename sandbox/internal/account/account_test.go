package account_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

type accountBody struct {
	Account struct {
		AccountID    string  `json:"account_id"`
		EmailAddress string  `json:"email_address"`
		Locale       *string `json:"locale"`
		CallbackURL  *string `json:"callback_url"`
		Quotas       struct {
			DocumentsLeft *int `json:"documents_left"`
		} `json:"quotas"`
	} `json:"account"`
}

// TestCreateVerifyConfirm: an account created through the API is found by
// verify and get, is sent the confirmation e-mail, and is confirmed once
// through the control plane.
func TestCreateVerifyConfirm(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "New.Person@example.com", "locale": "fr-FR"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var created accountBody
	require.NoError(t, r.JSON(&created))
	assert.Equal(t, "New.Person@example.com", created.Account.EmailAddress)
	require.NotNil(t, created.Account.Locale)
	assert.Equal(t, "fr-FR", *created.Account.Locale)
	require.NotNil(t, created.Account.Quotas.DocumentsLeft, "a new account is on the free plan")
	assert.Equal(t, 3, *created.Account.Quotas.DocumentsLeft)

	e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "new.person@example.com"}))
	assert.Equal(t, "email_address", e.Path, "the address is taken, whatever its case: %s", e.Msg)

	r = srv.Do(http.MethodPost, "/v3/account/verify", map[string]any{"email_address": "new.person@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.JSONEq(t, `{"account":{"email_address":"New.Person@example.com"}}`, string(r.Body))
	r = srv.Do(http.MethodPost, "/v3/account/verify", map[string]any{"email_address": "nobody@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.JSONEq(t, `{}`, string(r.Body), "no account: the account key is absent")

	r = srv.Do(http.MethodGet, "/v3/account?email_address=new.person%40example.com", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var got accountBody
	require.NoError(t, r.JSON(&got))
	assert.Equal(t, created.Account.AccountID, got.Account.AccountID)

	var mails struct {
		Emails []struct{ Kind, To string } `json:"emails"`
	}
	srv.Control(http.MethodGet, "/emails?to=New.Person@example.com", nil, &mails)
	require.Len(t, mails.Emails, 1)

	var confirmed struct {
		EventID string `json:"event_id"`
	}
	srv.Control(http.MethodPost, "/accounts/"+created.Account.AccountID+"/confirm", nil, &confirmed)
	assert.NotEmpty(t, confirmed.EventID)
	r = srv.Do(http.MethodPost, "/_sandbox/accounts/"+created.Account.AccountID+"/confirm", nil)
	assert.Equal(t, http.StatusConflict, r.Status, "confirmed once: %s", r.Body)
}

// TestUpdateChangesOnlyCallbackAndLocale, and refuses bad values naming
// the parameter.
func TestUpdate(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": "https://example.com/cb", "locale": "de-DE"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var got accountBody
	require.NoError(t, r.JSON(&got))
	require.NotNil(t, got.Account.CallbackURL)
	assert.Equal(t, "https://example.com/cb", *got.Account.CallbackURL)
	assert.Equal(t, "de-DE", *got.Account.Locale)

	for _, tc := range []struct {
		body     map[string]any
		name     string
		path     string
		scenario string
	}{
		{map[string]any{"locale": "xx-XX"}, "bad_request", "locale", "unknown locale"},
		{map[string]any{"callback_url": "not a url"}, "bad_request", "callback_url", "not a URL"},
		{map[string]any{"account_id": "0000000000000000000000000000000000000000"}, "forbidden", "account_id", "another account"},
		{map[string]any{"email_address": "x"}, "", "", "email_address is ignored"},
	} {
		r := srv.Do(http.MethodPut, "/v3/account", tc.body)
		if tc.name == "" {
			assert.Equal(t, http.StatusOK, r.Status, "%s: %s", tc.scenario, r.Body)
			continue
		}
		e := apitest.ErrorOf(t, r)
		assert.Equal(t, tc.name, e.Name, tc.scenario)
		assert.Equal(t, tc.path, e.Path, tc.scenario)
	}
	// Nothing refused changed the account.
	r = srv.Do(http.MethodGet, "/v3/account", nil)
	require.NoError(t, r.JSON(&got))
	assert.Equal(t, "de-DE", *got.Account.Locale)
	assert.Equal(t, "https://example.com/cb", *got.Account.CallbackURL)
}
