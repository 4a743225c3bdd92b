package legacy

import (
	"io"
	"net/http"
	"strings"
)

// Alias is a method and path (relative to /v3) that older clients use for an
// official operation. The router serves it with the operation's own handler,
// so it is the same operation: same answers, scenario rules, rate limit.
type Alias struct {
	Method      string
	Path        string
	OperationID string
}

// Aliases are every legacy method and path older clients send, in the order
// the router registers them (after every official route, so that none of
// them can shadow an official one).
var Aliases = []Alias{
	// The update operations were POSTs before they became PUTs (all SDKs).
	{http.MethodPost, "/account", "accountUpdate"},
	{http.MethodPost, "/team", "teamUpdate"},
	{http.MethodPost, "/team/add_member", "teamAddMember"},
	// Destroying a team was a POST (all SDKs).
	{http.MethodPost, "/team/destroy", "teamDelete"},
	// Ruby, PHP, Python and Java update an API app with POST.
	{http.MethodPost, "/api_app/{client_id}", "apiAppUpdate"},
	// Node and PHP read an embedded template's edit URL with GET.
	{http.MethodGet, "/embedded/edit_url/{template_id}", "embeddedEditUrl"},
	// Java asks for an embedded sign URL with POST.
	{http.MethodPost, "/embedded/sign_url/{signature_id}", "embeddedSignUrl"},
	// Java verifies an account at /account/validate.
	{http.MethodPost, "/account/validate", "accountVerify"},
	// Java's deprecated final copy is the request's files as one PDF.
	{http.MethodGet, "/signature_request/final_copy/{signature_request_id}", "signatureRequestFiles"},
	// Node's Reports resource asks for a report with GET /get_report.
	{http.MethodGet, "/get_report", "reportCreate"},
}

// Handler serves the alias with h, the handler of its operation, whose
// official method is officialMethod. A GET alias of an operation that takes
// a body carries its parameters in the query string (that is where the
// clients that use it put them), so the query string becomes its form body.
func (a Alias) Handler(officialMethod string, h http.Handler) http.Handler {
	if a.Method != http.MethodGet || officialMethod == http.MethodGet {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.Body = io.NopCloser(strings.NewReader(r.URL.RawQuery))
		r2.ContentLength = int64(len(r.URL.RawQuery))
		r2.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		h.ServeHTTP(w, r2)
	})
}
