package apiapp_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
)

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestAPIAppCreate(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/api_app", map[string]any{
		"name": "My Production App", "domains": []string{"example.com"},
		"oauth": map[string]any{"callback_url": "https://example.com/oauth", "scopes": []string{"basic_account_info", "request_signature"}},
	})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	app := apitest.Obj(t, r.Map(), "api_app")
	assert.Regexp(t, hex32, app["client_id"])
	assert.Equal(t, "My Production App", app["name"])
	assert.Equal(t, []any{"example.com"}, app["domains"])
	assert.Equal(t, false, app["is_approved"])
	assert.Nil(t, app["callback_url"])
	assert.EqualValues(t, srv.Now().Unix(), app["created_at"])
	assert.Equal(t, map[string]any{"can_insert_everywhere": false}, app["options"])
	assert.Nil(t, app["white_labeling_options"], "null until white labeling is configured")
	assert.Equal(t, map[string]any{"account_id": apitest.OwnerID, "email_address": "owner@sandbox.example"}, app["owner_account"])
	oauth := apitest.Obj(t, app, "oauth")
	assert.Regexp(t, hex32, oauth["secret"])
	assert.Equal(t, []any{"basic_account_info", "request_signature"}, oauth["scopes"])
	assert.Equal(t, false, oauth["charges_users"])

	r = srv.Do(http.MethodPost, "/v3/api_app", map[string]any{"name": "No OAuth", "domains": []string{"a.example", "*.b.example"}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	assert.Nil(t, apitest.Obj(t, r.Map(), "api_app")["oauth"])
}

// The Node SDK's own test fixture must be accepted as it is.
func TestAPIAppCreateOfficialFixture(t *testing.T) {
	path := filepath.Join(filepath.Dir(conformance.Path()), "test_fixtures", "ApiAppCreateRequest.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("official test fixture not found at %s", path)
	}
	var fx struct {
		Default map[string]any `json:"default"`
	}
	require.NoError(t, json.Unmarshal(raw, &fx))
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/api_app", fx.Default)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	app := apitest.Obj(t, r.Map(), "api_app")
	assert.Equal(t, "https://example.com/callback", app["callback_url"])
	assert.Equal(t, map[string]any{"can_insert_everywhere": true}, app["options"])
	assert.Equal(t, "#1A1A1A", apitest.Obj(t, app, "white_labeling_options")["header_background_color"])
}

func TestAPIAppWhiteLabelingDefaults(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/api_app", map[string]any{
		"name": "Branded", "domains": []string{"example.com"},
		"white_labeling_options": map[string]any{"primary_button_color": "#00b3e6", "primary_button_text_color": "#ffffff"},
	})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	wl := apitest.Obj(t, apitest.Obj(t, r.Map(), "api_app"), "white_labeling_options")
	assert.Equal(t, map[string]any{
		"header_background_color":           "#1a1a1a",
		"legal_version":                     "terms1",
		"link_color":                        "#0061FE",
		"page_background_color":             "#f7f8f9",
		"primary_button_color":              "#00b3e6",
		"primary_button_color_hover":        "#00b3e6", // inherits from its base colour
		"primary_button_text_color":         "#ffffff",
		"primary_button_text_color_hover":   "#ffffff",
		"secondary_button_color":            "#ffffff",
		"secondary_button_color_hover":      "#ffffff",
		"secondary_button_text_color":       "#0061FE",
		"secondary_button_text_color_hover": "#0061FE",
		"text_color1":                       "#808080",
		"text_color2":                       "#ffffff",
	}, wl)
	clientID := apitest.Obj(t, r.Map(), "api_app")["client_id"].(string)

	// Update merges; reset_to_default drops every customization first.
	r = srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"white_labeling_options": map[string]any{"legal_version": "terms2"}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	wl = apitest.Obj(t, apitest.Obj(t, r.Map(), "api_app"), "white_labeling_options")
	assert.Equal(t, "terms2", wl["legal_version"])
	assert.Equal(t, "#00b3e6", wl["primary_button_color"])
	r = srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"white_labeling_options": map[string]any{"reset_to_default": true}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	wl = apitest.Obj(t, apitest.Obj(t, r.Map(), "api_app"), "white_labeling_options")
	assert.Equal(t, "terms1", wl["legal_version"])
	assert.Equal(t, "#0061FE", wl["primary_button_color"])
	r = srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"white_labeling_options": ""})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Nil(t, apitest.Obj(t, r.Map(), "api_app")["white_labeling_options"])
}

func TestAPIAppValidation(t *testing.T) {
	srv := apitest.NewServer(t)
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"name": "App", "domains": []string{"example.com"}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	elevenDomains := make([]string, 11)
	for i := range elevenDomains {
		elevenDomains[i] = "d" + strconv.Itoa(i) + ".example"
	}
	cases := []struct {
		name string
		body map[string]any
		path string
	}{
		{"missing name", map[string]any{"domains": []string{"example.com"}}, "name"},
		{"missing domains", map[string]any{"name": "App"}, "domains"},
		{"no domains", base(map[string]any{"domains": []string{}}), "domains"},
		{"eleven domains", base(map[string]any{"domains": elevenDomains}), "domains"},
		{"domain with scheme", base(map[string]any{"domains": []string{"https://example.com"}}), "domains[0]"},
		{"relative callback_url", base(map[string]any{"callback_url": "/hook"}), "callback_url"},
		{"ftp callback_url", base(map[string]any{"callback_url": "ftp://example.com/hook"}), "callback_url"},
		{"oauth without scopes", base(map[string]any{"oauth": map[string]any{"callback_url": "https://example.com/o"}}), "oauth[scopes]"},
		{"oauth without callback_url", base(map[string]any{"oauth": map[string]any{"scopes": []string{"account_access"}}}), "oauth[callback_url]"},
		{"unknown scope", base(map[string]any{"oauth": map[string]any{"callback_url": "https://example.com/o", "scopes": []string{"everything"}}}), "oauth[scopes][0]"},
		{"bad hex", base(map[string]any{"white_labeling_options": map[string]any{"link_color": "blue"}}), "white_labeling_options[link_color]"},
		{"short hex", base(map[string]any{"white_labeling_options": map[string]any{"text_color1": "#fff"}}), "white_labeling_options[text_color1]"},
		{"legal version", base(map[string]any{"white_labeling_options": map[string]any{"legal_version": "terms3"}}), "white_labeling_options[legal_version]"},
		{"unknown element", base(map[string]any{"white_labeling_options": map[string]any{"logo_color": "#ffffff"}}), "white_labeling_options[logo_color]"},
		{"low contrast", base(map[string]any{"white_labeling_options": map[string]any{"primary_button_color": "#0061FE", "primary_button_text_color": "#0062FE"}}), "white_labeling_options[primary_button_text_color]"},
		{"logo as text", base(map[string]any{"custom_logo_file": "CustomLogoFile.png"}), "custom_logo_file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/api_app", tc.body), http.StatusBadRequest, "bad_request", tc.path)
			if tc.name == "bad hex" {
				assert.JSONEq(t, `{"invalid_hex_code":["link_color"]}`, msg, "white labeling errors are JSON-encoded in error_msg")
			}
		})
	}
}

func TestAPIAppMultipartWithLogo(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendParts(t, srv, srv.APIKey, http.MethodPost, "/v3/api_app",
		apitest.Field("name", "Logo App"),
		apitest.Field("domains", `["example.com"]`),
		apitest.Field("oauth", `{"callback_url":"https://example.com/oauth","scopes":["basic_account_info"]}`),
		apitest.Field("white_labeling_options", `{"primary_button_color":"#00b3e6"}`),
		apitest.FilePart("custom_logo_file", "logo.png", "image/png", apitest.PNG(t)),
	)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	app := apitest.Obj(t, r.Map(), "api_app")
	assert.Equal(t, []any{"basic_account_info"}, apitest.Obj(t, app, "oauth")["scopes"])
	assert.Equal(t, "#00b3e6", apitest.Obj(t, app, "white_labeling_options")["primary_button_color"])

	r = apitest.SendParts(t, srv, srv.APIKey, http.MethodPost, "/v3/api_app",
		apitest.Field("name", "Logo App"), apitest.Field("domains", `["example.com"]`),
		apitest.FilePart("custom_logo_file", "logo.png", "image/png", []byte("this is not an image")))
	apitest.WantErrorMsg(t, r, http.StatusBadRequest, "bad_request", "custom_logo_file")
}

func TestAPIAppAccess(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "Teammate app", "domains": []string{"example.com"},
		"oauth": map[string]any{"callback_url": "https://example.com/o", "scopes": []string{"account_access"}}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	mateApp := apitest.Obj(t, r.Map(), "api_app")["client_id"].(string)

	// The owner sees their own app with its secret.
	r = srv.Do(http.MethodGet, "/v3/api_app/"+apitest.ClientID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "5e4b2b4c9d4f4a0e8f7c6b5a49382716", apitest.Obj(t, apitest.Obj(t, r.Map(), "api_app"), "oauth")["secret"])
	// An Admin sees a teammate's app, without its secret.
	r = srv.Do(http.MethodGet, "/v3/api_app/"+mateApp, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	oauth := apitest.Obj(t, apitest.Obj(t, r.Map(), "api_app"), "oauth")
	assert.Contains(t, oauth, "secret")
	assert.Nil(t, oauth["secret"])
	// A Member does not see the Admin's apps; outsiders see no one's.
	apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/api_app/"+apitest.ClientID, nil), http.StatusForbidden, "forbidden", "client_id")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/api_app/"+apitest.ClientID, nil), http.StatusForbidden, "forbidden", "client_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/api_app/00000000000000000000000000000000", nil), http.StatusNotFound, "not_found", "client_id")
	// Only the owner changes or deletes an app.
	apitest.WantErrorMsg(t, srv.Do(http.MethodPut, "/v3/api_app/"+mateApp, map[string]any{"name": "Mine"}), http.StatusForbidden, "forbidden", "client_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodDelete, "/v3/api_app/"+mateApp, nil), http.StatusForbidden, "forbidden", "client_id")
}

func TestAPIAppUpdate(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPut, "/v3/api_app/"+apitest.ClientID, map[string]any{"name": "New Name", "callback_url": "https://example.com/dropboxsign"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	app := apitest.Obj(t, r.Map(), "api_app")
	assert.Equal(t, "New Name", app["name"])
	assert.Equal(t, "https://example.com/dropboxsign", app["callback_url"])
	assert.Equal(t, []any{"localhost", "sandbox.example"}, app["domains"], "fields not given keep their values")
	assert.Equal(t, "5e4b2b4c9d4f4a0e8f7c6b5a49382716", apitest.Obj(t, app, "oauth")["secret"], "the OAuth secret survives an oauth change")

	r = srv.Do(http.MethodPut, "/v3/api_app/"+apitest.ClientID, map[string]any{"callback_url": "", "options": map[string]any{"can_insert_everywhere": true}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	app = apitest.Obj(t, r.Map(), "api_app")
	assert.Nil(t, app["callback_url"], "an empty string clears an optional field")
	assert.Equal(t, "New Name", app["name"])
	assert.Equal(t, map[string]any{"can_insert_everywhere": true}, app["options"])

	r = srv.Do(http.MethodPut, "/v3/api_app/"+apitest.ClientID, map[string]any{"oauth": ""})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Nil(t, apitest.Obj(t, r.Map(), "api_app")["oauth"])

	apitest.WantErrorMsg(t, srv.Do(http.MethodPut, "/v3/api_app/"+apitest.ClientID, map[string]any{"name": ""}), http.StatusBadRequest, "bad_request", "name")
	apitest.WantErrorMsg(t, srv.Do(http.MethodPut, "/v3/api_app/"+apitest.ClientID, map[string]any{"domains": []string{}}), http.StatusBadRequest, "bad_request", "domains")
	apitest.WantErrorMsg(t, srv.Do(http.MethodPut, "/v3/api_app/nope", map[string]any{"name": "x"}), http.StatusNotFound, "not_found", "client_id")
}

func TestAPIAppDelete(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodDelete, "/v3/api_app/"+apitest.ClientID, nil)
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body)
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/api_app/"+apitest.ClientID, nil), http.StatusNotFound, "not_found", "client_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodDelete, "/v3/api_app/"+apitest.ClientID, nil), http.StatusNotFound, "not_found", "client_id")
}

func TestAPIAppList(t *testing.T) {
	srv := apitest.NewServer(t)
	require.Equal(t, http.StatusCreated, srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/api_app", map[string]any{"name": "Mate", "domains": []string{"example.com"}}).Status)
	srv.Advance(time.Second)
	require.Equal(t, http.StatusCreated, srv.Do(http.MethodPost, "/v3/api_app", map[string]any{"name": "Newest", "domains": []string{"example.com"}}).Status)

	r := srv.Do(http.MethodGet, "/v3/api_app/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	apps := apitest.List(t, r.Map(), "api_apps")
	names := []any{}
	for _, a := range apps {
		names = append(names, a["name"])
	}
	assert.Equal(t, []any{"Newest", "Mate", "Sandbox App"}, names, "an Admin sees teammates' apps, newest first")
	assert.Equal(t, map[string]any{"num_pages": 1.0, "num_results": 3.0, "page": 1.0, "page_size": 20.0}, r.Map()["list_info"])

	r = srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/api_app/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	apps = apitest.List(t, r.Map(), "api_apps")
	require.Len(t, apps, 1, "a Member sees only their own apps")
	assert.Equal(t, "Mate", apps[0]["name"])

	// add_member with the team's own id and a role changes the role: a
	// Developer sees the team's apps too.
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/team/add_member?team_id="+apitest.TeamID,
		map[string]any{"account_id": apitest.TeammateID, "role": "Developer"}).Status)
	r = srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/api_app/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, apitest.List(t, r.Map(), "api_apps"), 3)

	r = srv.Do(http.MethodGet, "/v3/api_app/list?page=3&page_size=1", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "Sandbox App", apitest.List(t, r.Map(), "api_apps")[0]["name"])
	r = srv.Do(http.MethodGet, "/v3/api_app/list?page=4&page_size=1", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Map()["api_apps"])
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/api_app/list?page_size=101", nil), http.StatusBadRequest, "bad_request", "page_size")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/api_app/list?page=0", nil), http.StatusBadRequest, "bad_request", "page")

	r = srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/api_app/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Map()["api_apps"])
	assert.Equal(t, map[string]any{"num_pages": 0.0, "num_results": 0.0, "page": 1.0, "page_size": 20.0}, r.Map()["list_info"])
}

// Setting an app's callback_url sends callback_test (through the callbacks
// subsystem's onAppCallbackSet); keeping the same URL does not.
func TestAPIAppCallbackURLSendsCallbackTest(t *testing.T) {
	srv := apitest.NewServer(t)
	count := func() int {
		var out struct {
			Callbacks []map[string]any `json:"callbacks"`
		}
		srv.Control(http.MethodGet, "/callbacks?event_type=callback_test", nil, &out)
		return len(out.Callbacks)
	}
	r := srv.Do(http.MethodPost, "/v3/api_app", map[string]any{"name": "Hooked", "domains": []string{"example.com"}, "callback_url": "https://example.com/hook"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	clientID := apitest.Obj(t, r.Map(), "api_app")["client_id"].(string)
	assert.Equal(t, 1, count())
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"callback_url": "https://example.com/hook"}).Status)
	assert.Equal(t, 1, count())
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPut, "/v3/api_app/"+clientID, map[string]any{"callback_url": "https://example.com/other"}).Status)
	assert.Equal(t, 2, count())
}
