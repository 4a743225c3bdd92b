package apiapp_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

type appBody struct {
	APIApp struct {
		ClientID string   `json:"client_id"`
		Name     string   `json:"name"`
		Domains  []string `json:"domains"`
		OAuth    *struct {
			Secret *string  `json:"secret"`
			Scopes []string `json:"scopes"`
		} `json:"oauth"`
		WhiteLabelingOptions *struct {
			LinkColor               string `json:"link_color"`
			PrimaryButtonColorHover string `json:"primary_button_color_hover"`
		} `json:"white_labeling_options"`
	} `json:"api_app"`
}

// TestAppLifecycle: create with OAuth and white labeling, get, update
// (the hover colour follows its base colour), list, delete; each answer
// checked against the official description by apitest.
func TestAppLifecycle(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/api_app", map[string]any{
		"name": "My App", "domains": []string{"example.com"},
		"oauth":                  map[string]any{"callback_url": "https://example.com/oauth", "scopes": []string{"basic_account_info"}},
		"white_labeling_options": map[string]any{"link_color": "#00AA00"},
	})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var app appBody
	require.NoError(t, r.JSON(&app))
	id := app.APIApp.ClientID
	require.Len(t, id, 32)
	require.NotNil(t, app.APIApp.OAuth)
	require.NotNil(t, app.APIApp.OAuth.Secret, "the owner sees the secret")
	assert.Equal(t, []string{"basic_account_info"}, app.APIApp.OAuth.Scopes)
	require.NotNil(t, app.APIApp.WhiteLabelingOptions)
	assert.Equal(t, "#00AA00", app.APIApp.WhiteLabelingOptions.LinkColor)

	r = srv.Do(http.MethodPut, "/v3/api_app/"+id, map[string]any{
		"name": "Renamed", "white_labeling_options": map[string]any{"primary_button_color": "#C03000"},
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.NoError(t, r.JSON(&app))
	assert.Equal(t, "Renamed", app.APIApp.Name)
	assert.Equal(t, []string{"example.com"}, app.APIApp.Domains, "what an update does not name stays")
	assert.Equal(t, "#00AA00", app.APIApp.WhiteLabelingOptions.LinkColor)
	assert.Equal(t, "#C03000", app.APIApp.WhiteLabelingOptions.PrimaryButtonColorHover)

	r = srv.Do(http.MethodGet, "/v3/api_app/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), id)

	r = srv.Do(http.MethodDelete, "/v3/api_app/"+id, nil)
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	e := apitest.ErrorOf(t, srv.Do(http.MethodGet, "/v3/api_app/"+id, nil))
	assert.Equal(t, "not_found", e.Name)
	assert.Equal(t, "client_id", e.Path)
}

// TestCreateErrors: each invalid create names its parameter, and nothing
// is created.
func TestCreateErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	before := srv.Do(http.MethodGet, "/v3/api_app/list", nil)
	require.Equal(t, http.StatusOK, before.Status)
	for _, tc := range []struct {
		body map[string]any
		path string
	}{
		{map[string]any{"domains": []string{"example.com"}}, "name"},
		{map[string]any{"name": "x"}, "domains"},
		{map[string]any{"name": "x", "domains": []string{"example.com", "http://bad/"}}, "domains[1]"},
		{map[string]any{"name": "x", "domains": []string{"example.com"}, "oauth": map[string]any{"callback_url": "https://example.com/o"}}, "oauth[scopes]"},
		{map[string]any{"name": "x", "domains": []string{"example.com"}, "white_labeling_options": map[string]any{"text_color2": "white"}}, "white_labeling_options[text_color2]"},
	} {
		e := apitest.ErrorOf(t, srv.Do(http.MethodPost, "/v3/api_app", tc.body))
		assert.Equal(t, "bad_request", e.Name, tc.path)
		assert.Equal(t, tc.path, e.Path, e.Msg)
	}
	after := srv.Do(http.MethodGet, "/v3/api_app/list", nil)
	assert.JSONEq(t, string(before.Body), string(after.Body))
}
