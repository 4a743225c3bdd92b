// Package signpage renders the pages the sandbox serves to the people of a
// flow who hold a link rather than an API key: the signing page behind sign
// URLs and e-mail links, the template editor behind edit URLs and the claim
// page of unclaimed drafts. Each shows the documents page by page with
// PDF.js (vendored by the console) and the fields over them, through the
// document view module the console's own signing view uses too
// (assets/docview.mjs). The facade decides what a page may show and do; this
// package owns the markup, the assets and the headers that keep the pages
// safe inside an integrator's iframe.
package signpage

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"path"
	"strings"
)

//go:embed assets
var assets embed.FS

// AssetPrefix is where the pages' scripts and styles are served.
const AssetPrefix = "/_sandbox/pages/"

// PDFJSPrefix is where the console serves its vendored PDF.js.
const PDFJSPrefix = "/_sandbox/console/vendor/pdfjs/"

var contentTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".mjs": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}

// Asset returns an embedded asset by its name below AssetPrefix: its body
// and content type, or ok=false for anything else.
func Asset(name string) (body []byte, contentType string, ok bool) {
	clean := path.Clean("/" + name)[1:]
	ct, known := contentTypes[path.Ext(clean)]
	if clean != name || strings.HasPrefix(clean, ".") || strings.Contains(clean, "/") || !known {
		return nil, "", false
	}
	b, err := assets.ReadFile("assets/" + clean)
	if err != nil {
		return nil, "", false
	}
	return b, ct, true
}

// policy is the pages' content security policy: nothing but the sandbox's
// own files and, for the hellosign-embedded protocol, the one inline script
// a page carries, and for white labeling its one style element, each
// allowed by its hash. frame-ancestors stays open because an integrator's
// page of any origin frames the embedded pages, as it frames the real ones.
const policy = "default-src 'self'; script-src 'self'%s; style-src 'self'%s; img-src 'self' data: blob:; " +
	"connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"

// Headers are the headers of a page whose markup holds the inline script
// element inline (empty for none): a policy that runs that script and no
// other inline code, no sniffing, no caching, and no referrer to other
// origins (the page's URL is a credential). The referrer policy is
// same-origin, not no-referrer: under no-referrer a browser sends
// "Origin: null" with the page's own form posts, which the edge refuses as
// a page of another site would be.
func Headers(inline template.HTML) http.Header { return BrandedHeaders(inline, nil) }

// BrandedHeaders are Headers for a page that also carries brand b's style
// element (nil for none), which the policy allows by its hash.
func BrandedHeaders(inline template.HTML, b *Brand) http.Header {
	hash := ""
	if body, ok := scriptBody(string(inline)); ok {
		sum := sha256.Sum256([]byte(body))
		hash = " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	csp := strings.Replace(policy, "%s", hash, 1)
	csp = strings.Replace(csp, "%s", b.styleHash(), 1)
	return http.Header{
		"Content-Security-Policy": {csp},
		"X-Content-Type-Options":  {"nosniff"},
		"Referrer-Policy":         {"same-origin"},
		"Cache-Control":           {"no-store"},
	}
}

// AssetHeaders are the headers of an asset.
func AssetHeaders() http.Header {
	return http.Header{"X-Content-Type-Options": {"nosniff"}, "Cache-Control": {"no-cache"}}
}

// scriptBody is the text inside <script>...</script>, which is what a
// policy hash covers.
func scriptBody(s string) (string, bool) {
	const open, end = "<script>", "</script>"
	i, j := strings.Index(s, open), strings.LastIndex(s, end)
	if i < 0 || j < i+len(open) {
		return "", false
	}
	return s[i+len(open) : j], true
}

// SameOrigin reports whether a state-changing page request comes from the
// page itself: a browser marks a request from another site with
// Sec-Fetch-Site or an Origin of another host; programs send neither. The
// pages' forms post to their own URL, so anything else is another site
// acting with a link it should not have.
func SameOrigin(r *http.Request) bool {
	switch strings.ToLower(r.Header.Get("Sec-Fetch-Site")) {
	case "same-site", "cross-site":
		return false
	case "same-origin":
		return true
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}
