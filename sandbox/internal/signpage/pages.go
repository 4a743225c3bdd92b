package signpage

import (
	"bytes"
	"encoding/json"
	"html/template"
)

// The pages share one head: the pages' style sheet, the brand's style
// element when an API app's white labeling applies (brand.go), and each
// its module script; and one mark in the header bar: the app's logo, else
// the sandbox's name. Every value is put in by html/template, so whatever a
// caller wrote in a title, a name or a message is text; the documents' data
// goes in a data attribute as JSON, which the module parses, never as
// markup.
const head = `{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} - signsandbox</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/_sandbox/pages/pages.css"><link rel="stylesheet" href="/_sandbox/pages/docview.css">
{{with .Brand.Style}}<style>{{.}}</style>{{end}}{{end}}
{{define "mark"}}{{with .Brand.Logo}}<img class="logo" src="{{.}}" alt="{{$.Brand.LogoText}}">{{else}}<b>signsandbox</b>{{end}}{{end}}`

// Signer is one signer line of the signing page's table.
type Signer struct {
	Name, Email, Status string
}

// SignView is what the signing page (and a request's details page) shows.
type SignView struct {
	Title, Message, Error string
	// RequestID, Requester, TestMode and Signers describe the request
	// (RequestID "" shows none).
	RequestID, Requester string
	TestMode             bool
	Signers              []Signer
	// SignerName is the signer acting on the page; CanSign shows the
	// document view and the Sign button, CanDecline and CanReassign their
	// forms.
	SignerName                       string
	CanSign, CanDecline, CanReassign bool
	// Data is what the document view needs (documents, fields, signer,
	// date), as the facade lays it out.
	Data any
	// Embedded is the page's hellosign-embedded script element.
	Embedded template.HTML
	// Brand is the white labeling of the request's API app (nil for none).
	Brand *Brand
}

var signTmpl = parse("sign", `{{template "head" .}}
{{if .CanSign}}<script type="module" src="/_sandbox/pages/sign.mjs"></script>{{end}}
</head><body class="signpage">
<header class="bar">{{template "mark" .}} <span>{{.Title}}</span></header>
<main>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="err" role="alert">{{.Error}}</p>{{end}}
{{if .Message}}<p class="msg">{{.Message}}</p>{{end}}
{{if .RequestID}}
<p class="muted">Signature request <code>{{.RequestID}}</code> from {{.Requester}}{{if .TestMode}} (test mode){{end}}</p>
<table class="signers"><tr><th>Signer</th><th>E-mail</th><th>Status</th></tr>
{{range .Signers}}<tr><td>{{.Name}}</td><td>{{.Email}}</td><td>{{.Status}}</td></tr>{{end}}
</table>
{{end}}
{{if .CanSign}}
<form method="post" id="sign-form" class="actions">
<input type="hidden" name="action" value="sign"><input type="hidden" name="values" id="values">
<button type="submit" class="primary" id="sign">Sign as {{.SignerName}}</button> <span id="missing"></span>
<a href="#docview" id="next-field">Go to the next field to fill</a>
</form>
{{if .CanDecline}}<form method="post" class="actions" id="decline-form"><input type="hidden" name="action" value="decline">
<label>Reason <input name="reason"></label> <button type="submit">Decline</button></form>{{end}}
{{if .CanReassign}}<details class="actions" id="reassign"><summary>Someone else should sign</summary>
<form method="post"><input type="hidden" name="action" value="reassign">
<label>Their name <input name="name" required></label> <label>Their e-mail <input name="email_address" type="email" required></label>
<label>Note <input name="reason"></label> <button type="submit">Reassign</button></form></details>{{end}}
<div id="docview" data-view="{{json .Data}}"><p class="muted" id="doc-status">Loading the document…</p></div>
{{end}}
</main>
{{.Embedded}}
</body></html>`)

// EditorView is what the template editor page shows.
type EditorView struct {
	Title      string
	TemplateID string
	// Draft is a template never saved (create_embedded_draft).
	Draft bool
	// Action is the page's own path, where the form posts.
	Action string
	// TitleValue, Subject, Message, Roles and CCs fill the form (roles one
	// per line).
	TitleValue, Subject, Message, Roles, CCs string
	// Documents names the template's files with their page counts.
	Documents []Document
	// Data is what the field editor needs (documents, roles, fields).
	Data     any
	Embedded template.HTML
	// Brand is the white labeling of the template's API app (nil for none).
	Brand *Brand
}

// Document is a file of a page, with its number of pages.
type Document struct {
	Name  string
	Pages int
}

var editorTmpl = parse("editor", `{{template "head" .}}
<script type="module" src="/_sandbox/pages/editor.mjs"></script>
</head><body class="editorpage">
<header class="bar">{{template "mark" .}} <span>template editor</span></header>
<main>
<h1>{{if .Draft}}New template{{else}}Edit template{{end}}: {{.Title}}</h1>
<p class="muted">Template <code>{{.TemplateID}}</code>: {{range $i, $d := .Documents}}{{if $i}}, {{end}}{{$d.Name}} ({{$d.Pages}} page(s)){{end}}</p>
<form method="post" action="{{.Action}}" id="editor-form" class="editor-form">
<div class="formgrid">
<label>Title <input name="title" value="{{.TitleValue}}"></label>
<label>Subject <input name="subject" value="{{.Subject}}"></label>
<label>Message <textarea name="message">{{.Message}}</textarea></label>
<label>Signer roles (one per line) <textarea name="signer_roles" id="signer-roles">{{.Roles}}</textarea></label>
<label>CC roles (one per line) <textarea name="cc_roles">{{.CCs}}</textarea></label>
</div>
<input type="hidden" name="fields" id="fields" disabled>
<p><button type="submit" class="primary">Save</button></p>
</form>
<div id="editor" data-view="{{json .Data}}"><p class="muted" id="doc-status">Loading the document…</p></div>
</main>
{{.Embedded}}
</body></html>`)

// MessageView is a page that only says something: after a save, or when a
// link cannot be used.
type MessageView struct {
	Title, Message string
	Error          bool
	Embedded       template.HTML
	Brand          *Brand
}

var messageTmpl = parse("message", `{{template "head" .}}
</head><body>
<header class="bar">{{template "mark" .}}</header>
<main><h1>{{.Title}}</h1><p class="{{if .Error}}err{{else}}msg{{end}}">{{.Message}}</p></main>
{{.Embedded}}
</body></html>`)

// ClaimRow is one signer line of the claim page's form.
type ClaimRow struct {
	Role, Name, Email string
}

// ClaimView is what the claim page shows.
type ClaimView struct {
	Title, Message, Error string
	// ShowForm shows the draft, its documents and the form.
	ShowForm  bool
	DraftID   string
	DraftType string
	TestMode  bool
	Hold      bool
	Action    string
	Rows      []ClaimRow
	AllowCCs  bool
	SendLabel string
	Documents []Document
	Data      any
	Embedded  template.HTML
	// Brand is the white labeling of the draft's API app (nil for none).
	Brand *Brand
}

var claimTmpl = parse("claim", `{{template "head" .}}
{{if .ShowForm}}<script type="module" src="/_sandbox/pages/claim.mjs"></script>{{end}}
</head><body class="claimpage">
<header class="bar">{{template "mark" .}} <span>{{.Title}}</span></header>
<main>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="err" role="alert">{{.Error}}</p>{{end}}
{{if .Message}}<p class="msg">{{.Message}}</p>{{end}}
{{if .ShowForm}}
<p class="muted">Draft <code>{{.DraftID}}</code> ({{.DraftType}}{{if .TestMode}}, test mode{{end}}{{if .Hold}}, held after sending{{end}}):
{{range $i, $d := .Documents}}{{if $i}}, {{end}}{{$d.Name}}{{end}}</p>
<form method="post" action="{{.Action}}" class="claim-form">
{{if .Rows}}<table class="signers"><tr><th>Role</th><th>Name</th><th>E-mail</th></tr>
{{range $i, $r := .Rows}}<tr><td>{{$r.Role}}<input type="hidden" name="signer_role" value="{{$r.Role}}"></td>
<td><input name="signer_name" value="{{$r.Name}}" aria-label="Signer name"></td><td><input name="signer_email" value="{{$r.Email}}" aria-label="Signer e-mail"></td></tr>{{end}}
</table>{{end}}
{{if .AllowCCs}}<p><label>CC (one address per line) <textarea name="cc_email_addresses"></textarea></label></p>{{end}}
<p><button type="submit" class="primary">{{.SendLabel}}</button></p>
</form>
<div id="docview" data-view="{{json .Data}}"><p class="muted" id="doc-status">Loading the document…</p></div>
{{end}}
</main>
{{.Embedded}}
</body></html>`)

var funcs = template.FuncMap{"json": func(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}}

// parse makes a page's template from the shared head and its body.
func parse(name, body string) *template.Template {
	return template.Must(template.New(name).Funcs(funcs).Parse(head + body))
}

func render(t *template.Template, v any) ([]byte, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Sign renders the signing page.
func Sign(v SignView) ([]byte, error) { return render(signTmpl, v) }

// Editor renders the template editor page.
func Editor(v EditorView) ([]byte, error) { return render(editorTmpl, v) }

// Message renders a page that only says something.
func Message(v MessageView) ([]byte, error) { return render(messageTmpl, v) }

// Claim renders the claim page.
func Claim(v ClaimView) ([]byte, error) { return render(claimTmpl, v) }
