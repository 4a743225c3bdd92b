package mail

import (
	"bytes"
	"html/template"
	"net/url"
	"regexp"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Text is the text/plain part of an e-mail: lines end in "\n" here; the
// message writes them with CRLF.
func Text(e *model.Email) string {
	c := wording(e)
	var b strings.Builder
	b.WriteString(c.Headline + "\n")
	for _, p := range c.Paragraphs {
		b.WriteString("\n" + p + "\n")
	}
	if c.Message != "" {
		b.WriteString("\n" + c.MessageFrom + "\n")
		for _, line := range lines(c.Message) {
			b.WriteString("  " + line + "\n")
		}
	}
	if c.Action != "" {
		b.WriteString("\n" + c.Action + ":\n" + c.Link + "\n")
	}
	for _, n := range c.Notes {
		b.WriteString("\n" + n + "\n")
	}
	b.WriteString("\n-- \n")
	for _, f := range footer(e) {
		b.WriteString(f + "\n")
	}
	return b.String()
}

// lines splits a caller's text into lines, whatever ends them.
func lines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(strings.TrimRight(s, "\n"), "\n")
}

// look is the colours an e-mail is drawn with: the app's white labeling
// when a request was sent through a branded app, else the service's own.
type look struct {
	// Logo is the logo's text (the app's name); LogoURL, when set, the
	// image shown in its place.
	Logo, LogoURL                          string
	Header, HeaderText, Page, Link, Button string
	ButtonText                             string
}

var serviceLook = look{Logo: "Dropbox Sign", Header: "#1a1a1a", HeaderText: "#ffffff", Page: "#f7f8f9",
	Link: "#0061FE", Button: "#0061FE", ButtonText: "#ffffff"}

var hexColor = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// lookOf is e's look. A colour that is not #rrggbb (an imported world may
// hold anything) keeps the service's.
func lookOf(e *model.Email) look {
	l := serviceLook
	b := e.Brand
	if b == nil {
		return l
	}
	if name := strings.TrimSpace(cleanText(b.AppName)); name != "" {
		l.Logo = name
	}
	if u, err := url.Parse(b.LogoURL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		l.LogoURL = u.String()
	}
	for _, c := range []struct {
		dst *string
		v   string
	}{{&l.Header, b.HeaderBackgroundColor}, {&l.HeaderText, b.TextColor2}, {&l.Page, b.PageBackgroundColor},
		{&l.Link, b.LinkColor}, {&l.Button, b.PrimaryButtonColor}, {&l.ButtonText, b.PrimaryButtonTextColor}} {
		if hexColor.MatchString(c.v) {
			*c.dst = c.v
		}
	}
	return l
}

// htmlPage is the text/html part. html/template escapes every value for
// where it stands (text, attribute, URL, style); the layout is tables with
// inline styles, which mail clients render alike.
var htmlPage = template.Must(template.New("mail").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Subject}}</title>
</head>
<body style="margin:0;padding:0;background-color:{{.Look.Page}};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:{{.Look.Page}};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border:1px solid #e6e6e6;font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;">
<tr><td style="background-color:{{.Look.Header}};color:{{.Look.HeaderText}};padding:16px 24px;font-size:20px;font-weight:bold;">
{{- if .Look.LogoURL}}<img src="{{.Look.LogoURL}}" alt="{{.Look.Logo}}" height="32" style="display:block;height:32px;max-width:240px;border:0;">{{else}}{{.Look.Logo}}{{end -}}
</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5;">
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;">{{.C.Headline}}</h1>
{{- range .C.Paragraphs}}
<p style="margin:0 0 12px;">{{.}}</p>
{{- end}}
{{- if .C.Message}}
<p style="margin:16px 0 4px;color:#4d4d4d;">{{.C.MessageFrom}}</p>
<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid {{.Look.Button}};background-color:#f7f8f9;">
{{- range $i, $l := .MessageLines}}{{if $i}}<br>{{end}}{{$l}}{{end -}}
</blockquote>
{{- end}}
{{- if .C.Action}}
<p style="margin:24px 0;"><a href="{{.C.Link}}" style="display:inline-block;padding:12px 24px;background-color:{{.Look.Button}};color:{{.Look.ButtonText}};font-weight:bold;text-decoration:none;border-radius:4px;">{{.C.Action}}</a></p>
<p style="margin:0 0 12px;font-size:13px;color:#4d4d4d;">Or open this link: <a href="{{.C.Link}}" style="color:{{.Look.Link}};word-break:break-all;">{{.C.Link}}</a></p>
{{- end}}
{{- range .C.Notes}}
<p style="margin:12px 0 0;font-size:13px;color:#4d4d4d;">{{.}}</p>
{{- end}}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e6e6e6;font-size:12px;line-height:1.5;color:#595959;">
{{- range $i, $f := .Footer}}{{if $i}}<br>{{end}}{{$f}}{{end -}}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`))

// HTML is the text/html part of an e-mail.
func HTML(e *model.Email) string {
	c := wording(e)
	data := struct {
		Subject      string
		Look         look
		C            content
		MessageLines []string
		Footer       []string
	}{Subject: cleanText(e.Subject), Look: lookOf(e), C: c, Footer: footer(e)}
	if c.Message != "" {
		data.MessageLines = lines(c.Message)
	}
	var b bytes.Buffer
	if err := htmlPage.Execute(&b, data); err != nil {
		// The template and its data are the package's own: a failure is a
		// bug, and the e-mail still has its text part.
		return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>E-mail</title></head><body><pre>" +
			template.HTMLEscapeString(Text(e)) + "</pre></body></html>\n"
	}
	return b.String()
}
