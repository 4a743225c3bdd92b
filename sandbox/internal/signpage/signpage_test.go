package signpage

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHeadersAllowTheInlineScriptByHash: the policy names the hash of the
// script element's text and allows nothing else inline; without a script
// it allows none.
func TestHeadersAllowTheInlineScriptByHash(t *testing.T) {
	body := "\n(function(){ window.parent.postMessage({type: \"x\"}, \"*\"); })();\n"
	h := Headers(template.HTML("<script>" + body + "</script>"))
	sum := sha256.Sum256([]byte(body))
	csp := h.Get("Content-Security-Policy")
	assert.Contains(t, csp, "script-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	assert.NotContains(t, csp, "unsafe")
	assert.NotContains(t, csp, "frame-ancestors", "integrators frame the pages")
	assert.Equal(t, "same-origin", h.Get("Referrer-Policy"))
	assert.Contains(t, Headers("").Get("Content-Security-Policy"), "script-src 'self';")
}

func TestSameOrigin(t *testing.T) {
	for _, c := range []struct {
		headers map[string]string
		want    bool
	}{
		{nil, true}, // a program
		{map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "null"}, true},
		{map[string]string{"Origin": "http://sandbox.test:8080"}, true},
		{map[string]string{"Origin": "http://evil.test"}, false},
		{map[string]string{"Origin": "null"}, false},
		{map[string]string{"Sec-Fetch-Site": "cross-site"}, false},
		{map[string]string{"Sec-Fetch-Site": "same-site"}, false},
	} {
		r := httptest.NewRequest("POST", "http://sandbox.test:8080/_sandbox/w/w1/sign/t", nil)
		for k, v := range c.headers {
			r.Header.Set(k, v)
		}
		assert.Equal(t, c.want, SameOrigin(r), "%v", c.headers)
	}
}

func TestAsset(t *testing.T) {
	for _, name := range []string{"docview.mjs", "fieldeditor.mjs", "sign.mjs", "editor.mjs", "claim.mjs", "pages.css", "docview.css"} {
		b, ct, ok := Asset(name)
		assert.True(t, ok, name)
		assert.NotEmpty(t, b, name)
		assert.NotEmpty(t, ct, name)
	}
	for _, name := range []string{"", "../signpage.go", "signpage.go", "assets/docview.mjs", ".hidden.js", "a/../docview.mjs", "nope.js"} {
		_, _, ok := Asset(name)
		assert.False(t, ok, name)
	}
}

// TestPagesEscape: every caller-controlled value is text, and the view's
// data is JSON inside an attribute, whatever it holds.
func TestPagesEscape(t *testing.T) {
	x := `"><img src=x onerror=alert(1)><script>alert(2)</script>`
	pages := map[string]func() ([]byte, error){
		"sign": func() ([]byte, error) {
			return Sign(SignView{Title: x, Message: x, Error: x, RequestID: x, Requester: x, Signers: []Signer{{x, x, x}},
				SignerName: x, CanSign: true, CanDecline: true, CanReassign: true, Data: map[string]string{"k": x}})
		},
		"editor": func() ([]byte, error) {
			return Editor(EditorView{Title: x, TemplateID: x, Action: "/x", TitleValue: x, Subject: x, Message: x, Roles: x, CCs: x,
				Documents: []Document{{Name: x, Pages: 1}}, Data: map[string]string{"k": x}})
		},
		"claim": func() ([]byte, error) {
			return Claim(ClaimView{Title: x, Message: x, Error: x, ShowForm: true, DraftID: x, DraftType: x, Action: "/x",
				Rows: []ClaimRow{{x, x, x}}, AllowCCs: true, SendLabel: x, Documents: []Document{{Name: x}}, Data: map[string]string{"k": x}})
		},
		"message": func() ([]byte, error) { return Message(MessageView{Title: x, Message: x}) },
	}
	for name, render := range pages {
		b, err := render()
		require.NoError(t, err, name)
		s := string(b)
		assert.NotContains(t, s, "<img", name)
		assert.NotContains(t, s, "<script>alert", name)
		assert.True(t, strings.Contains(s, "&lt;img") || strings.Contains(s, `\u003cimg`) || strings.Contains(s, "&#34;&gt;&lt;"), "%s shows the value, escaped", name)
	}
}

// TestBrandStyleTakesOnlyHexColours: only six-digit hex colours of known
// elements reach the style element, whatever else a brand holds; the
// policy allows that element by its hash, and a page without a brand has
// none.
func TestBrandStyleTakesOnlyHexColours(t *testing.T) {
	b := &Brand{Colors: map[string]string{
		"primary_button_color":  "#00796B",
		"link_color":            "#fff;}</style><script>alert(1)</script>",
		"page_background_color": "red",
		"unknown_element":       "#123456",
		"legal_version":         "terms2",
	}, LogoURL: "/_sandbox/w/w1/sign/t/logo", LogoAlt: `"><script>x</script>`}
	assert.Equal(t, template.CSS(":root{--wl-primary:#00796b;}"), b.Style())
	sum := sha256.Sum256([]byte(b.Style()))
	csp := BrandedHeaders("", b).Get("Content-Security-Policy")
	assert.Contains(t, csp, "style-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"';")
	assert.NotContains(t, csp, "unsafe")

	page, err := Sign(SignView{Title: "T", Brand: b})
	require.NoError(t, err)
	s := string(page)
	assert.Contains(t, s, "<style>:root{--wl-primary:#00796b;}</style>")
	assert.Contains(t, s, `<img class="logo" src="/_sandbox/w/w1/sign/t/logo" alt="&#34;&gt;&lt;script&gt;x&lt;/script&gt;">`)
	assert.NotContains(t, s, "<script>x")

	var none *Brand
	assert.Equal(t, template.CSS(""), none.Style())
	assert.Equal(t, template.CSS(""), (&Brand{LogoURL: "/x"}).Style())
	plain, err := Sign(SignView{Title: "T"})
	require.NoError(t, err)
	assert.NotContains(t, string(plain), "<style>")
	assert.Contains(t, Headers("").Get("Content-Security-Policy"), "style-src 'self';")
}
