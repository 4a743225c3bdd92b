// Package console is the sandbox's web console for people: a page that
// shows a world (clock, requests, outbox, callbacks, every other kind of
// object) and drives it through the same /_sandbox control calls programs
// use. It owns the embedded assets and the paged, indexed reads the page
// needs; the facade mounts them as control routes, so a read reaches the
// caller's world exactly as every control call does, and never another.
package console

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"path"
	"strings"
)

//go:embed assets
var assets embed.FS

// Asset is one file the console serves: its body and the headers it needs.
type Asset struct {
	Status      int
	ContentType string
	Body        []byte
}

// contentSecurityPolicy allows nothing but the console's own files: no
// inline script, no other origin, no framing, so that a value that slipped
// past escaping still could not run or load anything. Inline style
// attributes (not style elements) are allowed for one reason: an e-mail's
// HTML part, shown in a sandboxed frame (srcdoc, which inherits this
// policy), is styled with them, as every e-mail is; the console's own
// script builds no markup from data, so no caller's value can become one.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// SecurityHeaders are set on every console answer (pages and data).
func SecurityHeaders() http.Header {
	return http.Header{
		"Content-Security-Policy": {contentSecurityPolicy},
		"X-Content-Type-Options":  {"nosniff"},
		"Referrer-Policy":         {"no-referrer"},
		"Cache-Control":           {"no-store"},
		"X-Frame-Options":         {"DENY"},
	}
}

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
}

// Page returns the console's shell for "" (the single page every view of
// the console lives in), an embedded asset by its name (vendor/pdfjs/...
// for the vendored PDF.js), or the 404 page for anything else. name is the
// path below /_sandbox/console/.
func Page(name string) Asset {
	if name == "" || name == "index.html" {
		return file("index.html")
	}
	clean := path.Clean("/" + name)[1:]
	if clean != name || strings.HasPrefix(clean, ".") {
		return NotFound(name)
	}
	if _, ok := contentTypes[path.Ext(clean)]; !ok {
		return NotFound(name)
	}
	// PDF.js is served under vendor/pdfjs/ but kept in assets/pdfjs/: a Go
	// module zip leaves out every file below a directory named vendor, so
	// a binary built with `go install ...@version` would lack it.
	if rest, ok := strings.CutPrefix(clean, "vendor/pdfjs/"); ok {
		clean = "pdfjs/" + rest
	}
	return file(clean)
}

func file(name string) Asset {
	body, err := assets.ReadFile("assets/" + name)
	if err != nil {
		return NotFound(name)
	}
	return Asset{Status: http.StatusOK, ContentType: contentTypes[path.Ext(name)], Body: body}
}

// notFoundPage is rendered with html/template, so the path the caller asked
// for is escaped whatever it holds.
var notFoundPage = template.Must(template.New("404").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found · signsandbox console</title>
<link rel="stylesheet" href="/_sandbox/console/app.css"></head>
<body><main class="notfound"><h1>Not found</h1>
<p>The console has no page <code>{{.}}</code>.</p>
<p><a href="/_sandbox/console/">Open the console</a></p></main></body></html>
`))

// NotFound is the console's 404 page for a path it does not serve.
func NotFound(name string) Asset {
	var b bytes.Buffer
	_ = notFoundPage.Execute(&b, name)
	return Asset{Status: http.StatusNotFound, ContentType: contentTypes[".html"], Body: b.Bytes()}
}

// ControlPlaneDescription is the OpenAPI 3 description of the /_sandbox/
// calls people and the console use, served at /_sandbox/openapi.yaml so
// that a client can be generated for it in any language.
func ControlPlaneDescription() Asset {
	body, err := assets.ReadFile("assets/control-plane.yaml")
	if err != nil {
		return NotFound("openapi.yaml")
	}
	return Asset{Status: http.StatusOK, ContentType: "application/yaml", Body: body}
}
