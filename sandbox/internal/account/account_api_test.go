package account_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestAccountGetSelection(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := []struct {
		name, query, want string
		status            int
	}{
		{"caller", "", apitest.OwnerID, 200},
		{"by id", "?account_id=" + apitest.TeammateID, apitest.TeammateID, 200},
		{"by email, any case", "?email_address=Teammate@Sandbox.Example", apitest.TeammateID, 200},
		{"account_id prevails", "?account_id=" + apitest.TeammateID + "&email_address=owner@sandbox.example", apitest.TeammateID, 200},
		{"unknown id", "?account_id=0000000000000000000000000000000000000000", "", 404},
		{"unknown email", "?email_address=nobody@example.com", "", 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.Do(http.MethodGet, "/v3/account"+tc.query, nil)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			if tc.status != 200 {
				name, _, _ := apitest.ErrorParts(t, r.Body)
				assert.Equal(t, "not_found", name)
				return
			}
			assert.Equal(t, tc.want, apitest.AccountOf(t, r.Body)["account_id"])
		})
	}
	// Another world's accounts are not visible.
	w := srv.NewWorld()
	r := srv.DoAs(w.APIKey, http.MethodPost, "/v3/account/create", map[string]any{"email_address": "only-in-w@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := apitest.AccountOf(t, r.Body)["account_id"].(string)
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodGet, "/v3/account?account_id="+id, nil).Status)
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodGet, "/v3/account?email_address=only-in-w@example.com", nil).Status)
}

func TestAccountShowsQuotasUsageAndSettings(t *testing.T) {
	srv := apitest.NewServer(t)
	a := apitest.AccountOf(t, srv.Do(http.MethodGet, "/v3/account", nil).Body)
	for _, k := range []string{"account_id", "email_address", "is_locked", "is_paid_hs", "is_paid_hf", "quotas", "callback_url", "role_code", "team_id", "locale", "usage", "settings"} {
		assert.Contains(t, a, k)
	}
	q := a["quotas"].(map[string]any)
	for _, k := range []string{"api_signature_requests_left", "documents_left", "templates_total", "templates_left", "sms_verifications_left", "num_fax_pages_left"} {
		assert.Contains(t, q, k)
	}
	assert.EqualValues(t, 100, q["templates_left"])
	assert.Equal(t, map[string]any{"fax_pages_sent": float64(0)}, a["usage"])
	assert.Nil(t, a["callback_url"], "no callback URL is null")
	assert.Equal(t, "a", a["role_code"])
	assert.Equal(t, true, a["is_paid_hs"])
	assert.Equal(t, true, a["settings"].(map[string]any)["signer_access_codes"])

	outsider := apitest.AccountOf(t, srv.Do(http.MethodGet, "/v3/account?email_address=outsider@elsewhere.example", nil).Body)
	assert.Nil(t, outsider["team_id"])
	assert.Nil(t, outsider["role_code"])
	assert.EqualValues(t, 3, outsider["quotas"].(map[string]any)["documents_left"])
}

func TestAccountUpdateLocalesAndCallback(t *testing.T) {
	srv := apitest.NewServer(t)
	all := []string{"en-US", "en-GB", "da-DK", "de-DE", "es-LA", "es-ES", "fr-FR", "id-ID", "it-IT", "ja-JP", "ko-KR",
		"ms-MY", "nb-NO", "nl-NL", "pl-PL", "pt-BR", "ru-RU", "sv-SE", "th-TH", "uk-UA", "zh-CN", "zh-TW"}
	for _, l := range all {
		r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": l})
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", l, r.Body)
		assert.Equal(t, l, apitest.AccountOf(t, r.Body)["locale"])
	}
	for _, l := range []string{"EN-US", "en_us", "en", "fr-CA", ""} {
		r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": l})
		require.Equal(t, http.StatusBadRequest, r.Status, l)
		_, msg, p := apitest.ErrorParts(t, r.Body)
		assert.Equal(t, "locale", p)
		assert.Contains(t, msg, "case-sensitive")
	}

	r := srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": "https://hooks.example.com/sign?x=1"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "https://hooks.example.com/sign?x=1", apitest.AccountOf(t, r.Body)["callback_url"])
	for _, bad := range []string{"not a url", "ftp://example.com/x", "/relative", "http://", "mailto:a@b.c"} {
		r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": bad})
		require.Equal(t, http.StatusBadRequest, r.Status, bad)
		_, _, p := apitest.ErrorParts(t, r.Body)
		assert.Equal(t, "callback_url", p)
	}
	// An empty callback_url clears it.
	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": ""})
	require.Equal(t, http.StatusOK, r.Status)
	assert.Nil(t, apitest.AccountOf(t, r.Body)["callback_url"])

	// Only callback_url and locale change; other fields are ignored.
	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"email_address": "changed@example.com", "is_paid_hs": false, "locale": "de-DE"})
	require.Equal(t, http.StatusOK, r.Status)
	a := apitest.AccountOf(t, r.Body)
	assert.Equal(t, "owner@sandbox.example", a["email_address"])
	assert.Equal(t, true, a["is_paid_hs"])

	// account_id may name the caller, never someone else.
	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"account_id": apitest.OwnerID, "locale": "fr-FR"})
	assert.Equal(t, http.StatusOK, r.Status)
	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"account_id": apitest.TeammateID, "locale": "fr-FR"})
	assert.Equal(t, http.StatusForbidden, r.Status)
	_, _, p := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "account_id", p)

	// Form bodies work as the JSON ones do.
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/v3/account", stringsReader("locale=ja-JP"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r = srv.Send(req)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "ja-JP", apitest.AccountOf(t, r.Body)["locale"])

	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"locale": 5})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	r = srv.Do(http.MethodPut, "/v3/account", map[string]any{"callback_url": []string{"x"}})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	_, _, p = apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "callback_url", p)
}

func TestAccountCreate(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "new.person@example.com", "locale": "sv-SE"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	a := apitest.AccountOf(t, r.Body)
	assert.Regexp(t, `^[0-9a-f]{40}$`, a["account_id"])
	assert.Equal(t, "new.person@example.com", a["email_address"])
	assert.Equal(t, "sv-SE", a["locale"])
	assert.Equal(t, false, a["is_paid_hs"])
	assert.Nil(t, a["team_id"])
	assert.NotContains(t, string(r.Body), "oauth_data", "no oauth_data without client credentials")

	// The new account is visible to its world.
	r = srv.Do(http.MethodGet, "/v3/account?email_address=new.person@example.com", nil)
	require.Equal(t, http.StatusOK, r.Status)

	cases := []struct {
		name   string
		body   map[string]any
		status int
		path   string
	}{
		{"missing email", map[string]any{}, 400, "email_address"},
		{"blank email", map[string]any{"email_address": "  "}, 400, "email_address"},
		{"invalid email", map[string]any{"email_address": "not-an-email"}, 400, "email_address"},
		{"display name", map[string]any{"email_address": "Bob <bob@example.com>"}, 400, "email_address"},
		{"duplicate", map[string]any{"email_address": "owner@sandbox.example"}, 400, "email_address"},
		{"duplicate other case", map[string]any{"email_address": "NEW.PERSON@example.com"}, 400, "email_address"},
		{"bad locale", map[string]any{"email_address": "x@example.com", "locale": "xx-XX"}, 400, "locale"},
		{"client_id alone", map[string]any{"email_address": "x@example.com", "client_id": apitest.ClientID}, 400, "client_secret"},
		{"client_secret alone", map[string]any{"email_address": "x@example.com", "client_secret": "s"}, 400, "client_id"},
		{"wrong secret", map[string]any{"email_address": "x@example.com", "client_id": apitest.ClientID, "client_secret": "wrong"}, 401, "client_id"},
		{"unknown client", map[string]any{"email_address": "x@example.com", "client_id": "nope", "client_secret": "wrong"}, 401, "client_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.Do(http.MethodPost, "/v3/account/create", tc.body)
			require.Equal(t, tc.status, r.Status, "%s", r.Body)
			_, _, p := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.path, p)
		})
	}
	// Failed creations left nothing behind.
	assert.Equal(t, http.StatusNotFound, srv.Do(http.MethodGet, "/v3/account?email_address=x@example.com", nil).Status)
}

func TestAccountCreateWithOAuthAnswersTokens(t *testing.T) {
	srv := apitest.NewServer(t)
	secret := apitest.ClientSecret(t, srv)
	r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": "app.user@example.com", "client_id": apitest.ClientID, "client_secret": secret})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Account   map[string]any         `json:"account"`
		OAuthData *apitest.TokenResponse `json:"oauth_data"`
	}
	require.NoError(t, r.JSON(&out))
	require.NotNil(t, out.OAuthData)
	assert.Equal(t, "Bearer", out.OAuthData.TokenType)
	assert.Equal(t, int64(3600), out.OAuthData.ExpiresIn)
	assert.Nil(t, out.OAuthData.State)

	// The token acts for the new account.
	me := apitest.Bearer(t, srv, out.OAuthData.AccessToken, http.MethodGet, "/v3/account", "")
	require.Equal(t, http.StatusOK, me.Status, "%s", me.Body)
	assert.Equal(t, out.Account["account_id"], apitest.AccountOf(t, me.Body)["account_id"])
}

func TestAccountVerify(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/account/verify", map[string]any{"email_address": "nobody@example.com"})
	require.Equal(t, http.StatusOK, r.Status)
	assert.Equal(t, `{}`, string(r.Body), "no account key at all when the address is unknown")

	r = srv.Do(http.MethodPost, "/v3/account/verify", map[string]any{"email_address": "OUTSIDER@elsewhere.example"})
	require.Equal(t, http.StatusOK, r.Status)
	assert.JSONEq(t, `{"account":{"email_address":"outsider@elsewhere.example"}}`, string(r.Body))

	for _, body := range []map[string]any{{}, {"email_address": "bad"}, {"email_address": 12}} {
		r = srv.Do(http.MethodPost, "/v3/account/verify", body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%v", body)
		_, _, p := apitest.ErrorParts(t, r.Body)
		assert.Equal(t, "email_address", p)
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
