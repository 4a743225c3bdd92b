package signpage_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

var (
	pageStyleRE = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
	pageLogoRE  = regexp.MustCompile(`<img class="logo" src="([^"]+)" alt="([^"]*)">`)
)

// pageStyle is a page's brand style element's text ("" without one),
// checked to be allowed by the page's policy by its hash.
func pageStyle(t *testing.T, a apitest.PageAnswer) string {
	t.Helper()
	m := pageStyleRE.FindAllStringSubmatch(a.Body, -1)
	if len(m) == 0 {
		assert.Contains(t, a.Header.Get("Content-Security-Policy"), "style-src 'self';", "no style element, no hash")
		return ""
	}
	require.Len(t, m, 1, "one style element")
	sum := sha256.Sum256([]byte(m[0][1]))
	assert.Contains(t, a.Header.Get("Content-Security-Policy"), "style-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"';")
	assert.NotContains(t, a.Body, ` style="`, "no inline style attributes")
	return m[0][1]
}

// TestPagesShowTheirAppsWhiteLabeling: the signing, claim and template
// editor pages of objects made through an app show its white labeling (its
// colours as the pages' custom properties, in a style element the policy
// allows by hash, and its logo, served below the page); another client_id
// shows another look; an app without white labeling shows the default
// look; an update of the app shows on the next visit.
func TestPagesShowTheirAppsWhiteLabeling(t *testing.T) {
	srv := apitest.NewServer(t)
	teal := apitest.BrandedApp(t, srv, "Teal Co", `{"primary_button_color":"#00796b","page_background_color":"#eef7f6","header_background_color":"#0b1f1c","link_color":"#00695c"}`, true)
	plum := apitest.BrandedApp(t, srv, "Plum Co", `{"primary_button_color":"#8e24aa"}`, false)

	signPage := func(clientID string) (apitest.PageAnswer, string) {
		r := apitest.CreateRequest(t, srv, srv.APIKey, "create_embedded", map[string]any{"title": "Branded", "client_id": clientID, "test_mode": true,
			"signers": []map[string]any{{"name": "Jack", "email_address": "jack@example.com"}}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		srv.Advance(time.Minute)
		link := signURLOf(t, srv, apitest.SignatureID(r.Map()["signature_request"].(map[string]any), 0))
		a := apitest.PageDo(t, http.MethodGet, pageURL(link), nil, nil)
		require.Equal(t, http.StatusOK, a.Status, a.Body)
		checkPagePolicy(t, a)
		return a, link
	}

	a, link := signPage(teal)
	style := pageStyle(t, a)
	for _, want := range []string{"--wl-primary:#00796b;", "--wl-page-bg:#eef7f6;", "--wl-header-bg:#0b1f1c;", "--wl-link:#00695c;",
		"--wl-primary-hover:#00796b;", "--wl-secondary:#ffffff;"} {
		assert.Contains(t, style, want, "customized, inherited (hover) and default colours")
	}
	logo := pageLogoRE.FindStringSubmatch(a.Body)
	require.NotNil(t, logo, "the app's logo in the header")
	assert.Equal(t, "Teal Co", logo[2])
	img := pageGet(t, link, logo[1])
	require.Equal(t, http.StatusOK, img.Status, img.Body)
	assert.Equal(t, "image/png", img.Header.Get("Content-Type"))
	assert.Equal(t, string(apitest.PNG(t)), img.Body)

	a, _ = signPage(plum)
	style = pageStyle(t, a)
	assert.Contains(t, style, "--wl-primary:#8e24aa;", "another client_id, another look")
	assert.NotContains(t, style, "#00796b")
	assert.Nil(t, pageLogoRE.FindStringSubmatch(a.Body), "no logo: the sandbox's name")
	assert.Contains(t, a.Body, "<b>signsandbox</b>")

	a, _ = signPage(apitest.ClientID)
	assert.Empty(t, pageStyle(t, a), "an app without white labeling: the default look")

	// The app's update shows on the next page.
	r := srv.Do(http.MethodPut, "/v3/api_app/"+plum, map[string]any{"white_labeling_options": map[string]any{"primary_button_color": "#1565c0"}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	a, _ = signPage(plum)
	assert.Contains(t, pageStyle(t, a), "--wl-primary:#1565c0;")

	// The claim page of a draft made through the app.
	d := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/unclaimed_draft/create_embedded", map[string]any{
		"client_id": teal, "test_mode": true, "requester_email_address": "owner@sandbox.example",
		"signers": []map[string]any{{"name": "Cleo", "email_address": "cleo@example.com"}},
	}, apitest.PDFFile{Name: "c.pdf", Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, d.Status, "%s", d.Body)
	claim := apitest.PageDo(t, http.MethodGet, d.Map()["unclaimed_draft"].(map[string]any)["claim_url"].(string), nil, nil)
	require.Equal(t, http.StatusOK, claim.Status, claim.Body)
	assert.Contains(t, pageStyle(t, claim), "--wl-primary:#00796b;")
	assert.NotNil(t, pageLogoRE.FindStringSubmatch(claim.Body))

	// The template editor of a template made through the app.
	tr := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create_embedded_draft", map[string]any{
		"client_id": plum, "test_mode": true, "title": "Branded template", "signer_roles": []map[string]any{{"name": "Client"}},
	}, apitest.PDFFile{Name: "t.pdf", Data: apitest.PDF(1)})
	require.Equal(t, http.StatusOK, tr.Status, "%s", tr.Body)
	editor := apitest.PageDo(t, http.MethodGet, tr.Map()["template"].(map[string]any)["edit_url"].(string), nil, nil)
	require.Equal(t, http.StatusOK, editor.Status, editor.Body)
	assert.Contains(t, pageStyle(t, editor), "--wl-primary:#1565c0;")
}
