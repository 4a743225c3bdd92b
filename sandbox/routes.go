package sandbox

import "net/http"

// authMode says which credentials an operation accepts, as the official
// description's security requirements do.
type authMode int

const (
	// authKeyOrToken accepts an API key (HTTP Basic) or an OAuth bearer token.
	authKeyOrToken authMode = iota
	// authKeyOnly accepts only an API key (fax, fax line, report, remove,
	// embedded bulk send).
	authKeyOnly
	// authNone takes no credentials (the OAuth token endpoints).
	authNone
)

// route is one operation of the official API description.
type route struct {
	operationID string
	method      string
	// path is the official path relative to the /v3 base, with its
	// parameters in braces; "/oauth/token?refresh" keeps its literal query.
	path string
	auth authMode
	// scopes are the OAuth scopes of which a bearer token needs one.
	scopes []string
}

// apiRoutes is the route table: every operation of the official description,
// keyed by operationId. TestRoutesMatchOfficialDescription compares it with
// openapi.yaml. Handlers are attached by operationId (see handlers.go); an
// operation without a handler answers in the official error shape.
var apiRoutes = []route{
	// Account
	{operationID: "accountCreate", method: http.MethodPost, path: "/account/create", auth: authKeyOrToken, scopes: []string{"account_access"}},
	{operationID: "accountGet", method: http.MethodGet, path: "/account", auth: authKeyOrToken, scopes: []string{"account_access", "basic_account_info"}},
	{operationID: "accountUpdate", method: http.MethodPut, path: "/account", auth: authKeyOrToken, scopes: []string{"account_access"}},
	{operationID: "accountVerify", method: http.MethodPost, path: "/account/verify", auth: authKeyOrToken, scopes: []string{"account_access"}},
	// Api App
	{operationID: "apiAppCreate", method: http.MethodPost, path: "/api_app", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppDelete", method: http.MethodDelete, path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppGet", method: http.MethodGet, path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppList", method: http.MethodGet, path: "/api_app/list", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppUpdate", method: http.MethodPut, path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	// Bulk Send Job
	{operationID: "bulkSendJobGet", method: http.MethodGet, path: "/bulk_send_job/{bulk_send_job_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "bulkSendJobList", method: http.MethodGet, path: "/bulk_send_job/list", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	// Embedded
	{operationID: "embeddedEditUrl", method: http.MethodPost, path: "/embedded/edit_url/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "embeddedSignUrl", method: http.MethodGet, path: "/embedded/sign_url/{signature_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	// Fax
	{operationID: "faxDelete", method: http.MethodDelete, path: "/fax/{fax_id}", auth: authKeyOnly},
	{operationID: "faxFiles", method: http.MethodGet, path: "/fax/files/{fax_id}", auth: authKeyOnly},
	{operationID: "faxGet", method: http.MethodGet, path: "/fax/{fax_id}", auth: authKeyOnly},
	{operationID: "faxList", method: http.MethodGet, path: "/fax/list", auth: authKeyOnly},
	{operationID: "faxSend", method: http.MethodPost, path: "/fax/send", auth: authKeyOnly},
	// Fax Line
	{operationID: "faxLineAddUser", method: http.MethodPut, path: "/fax_line/add_user", auth: authKeyOnly},
	{operationID: "faxLineAreaCodeGet", method: http.MethodGet, path: "/fax_line/area_codes", auth: authKeyOnly},
	{operationID: "faxLineCreate", method: http.MethodPost, path: "/fax_line/create", auth: authKeyOnly},
	{operationID: "faxLineDelete", method: http.MethodDelete, path: "/fax_line", auth: authKeyOnly},
	{operationID: "faxLineGet", method: http.MethodGet, path: "/fax_line", auth: authKeyOnly},
	{operationID: "faxLineList", method: http.MethodGet, path: "/fax_line/list", auth: authKeyOnly},
	{operationID: "faxLineRemoveUser", method: http.MethodPut, path: "/fax_line/remove_user", auth: authKeyOnly},
	// OAuth
	{operationID: "oauthTokenGenerate", method: http.MethodPost, path: "/oauth/token", auth: authNone},
	{operationID: "oauthTokenRefresh", method: http.MethodPost, path: "/oauth/token?refresh", auth: authNone},
	// Report
	{operationID: "reportCreate", method: http.MethodPost, path: "/report/create", auth: authKeyOnly},
	// Signature Request
	{operationID: "signatureRequestBulkCreateEmbeddedWithTemplate", method: http.MethodPost, path: "/signature_request/bulk_create_embedded_with_template", auth: authKeyOnly},
	{operationID: "signatureRequestBulkSendWithTemplate", method: http.MethodPost, path: "/signature_request/bulk_send_with_template", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestCancel", method: http.MethodPost, path: "/signature_request/cancel/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestCreateEmbedded", method: http.MethodPost, path: "/signature_request/create_embedded", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestCreateEmbeddedWithTemplate", method: http.MethodPost, path: "/signature_request/create_embedded_with_template", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEdit", method: http.MethodPut, path: "/signature_request/edit/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestEditEmbedded", method: http.MethodPut, path: "/signature_request/edit_embedded/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEditEmbeddedWithTemplate", method: http.MethodPut, path: "/signature_request/edit_embedded_with_template/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEditWithTemplate", method: http.MethodPut, path: "/signature_request/edit_with_template/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFiles", method: http.MethodGet, path: "/signature_request/files/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFilesAsDataUri", method: http.MethodGet, path: "/signature_request/files_as_data_uri/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFilesAsFileUrl", method: http.MethodGet, path: "/signature_request/files_as_file_url/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestGet", method: http.MethodGet, path: "/signature_request/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestList", method: http.MethodGet, path: "/signature_request/list", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestReleaseHold", method: http.MethodPost, path: "/signature_request/release_hold/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestRemind", method: http.MethodPost, path: "/signature_request/remind/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestRemove", method: http.MethodPost, path: "/signature_request/remove/{signature_request_id}", auth: authKeyOnly},
	{operationID: "signatureRequestSend", method: http.MethodPost, path: "/signature_request/send", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestSendWithTemplate", method: http.MethodPost, path: "/signature_request/send_with_template", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestUpdate", method: http.MethodPost, path: "/signature_request/update/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	// Team
	{operationID: "teamAddMember", method: http.MethodPut, path: "/team/add_member", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamCreate", method: http.MethodPost, path: "/team/create", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamDelete", method: http.MethodDelete, path: "/team/destroy", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamGet", method: http.MethodGet, path: "/team", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamInfo", method: http.MethodGet, path: "/team/info", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamInvites", method: http.MethodGet, path: "/team/invites", auth: authKeyOrToken, scopes: []string{"account_access", "basic_account_info"}},
	{operationID: "teamMembers", method: http.MethodGet, path: "/team/members/{team_id}", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamRemoveMember", method: http.MethodPost, path: "/team/remove_member", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamSubTeams", method: http.MethodGet, path: "/team/sub_teams/{team_id}", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamUpdate", method: http.MethodPut, path: "/team", auth: authKeyOrToken, scopes: []string{"team_access"}},
	// Template
	{operationID: "templateAddUser", method: http.MethodPost, path: "/template/add_user/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateCreate", method: http.MethodPost, path: "/template/create", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateCreateEmbeddedDraft", method: http.MethodPost, path: "/template/create_embedded_draft", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateDelete", method: http.MethodPost, path: "/template/delete/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFiles", method: http.MethodGet, path: "/template/files/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFilesAsDataUri", method: http.MethodGet, path: "/template/files_as_data_uri/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFilesAsFileUrl", method: http.MethodGet, path: "/template/files_as_file_url/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateGet", method: http.MethodGet, path: "/template/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateList", method: http.MethodGet, path: "/template/list", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateRemoveUser", method: http.MethodPost, path: "/template/remove_user/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateUpdateFiles", method: http.MethodPost, path: "/template/update_files/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	// Unclaimed Draft
	{operationID: "unclaimedDraftCreate", method: http.MethodPost, path: "/unclaimed_draft/create", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "unclaimedDraftCreateEmbedded", method: http.MethodPost, path: "/unclaimed_draft/create_embedded", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "unclaimedDraftCreateEmbeddedWithTemplate", method: http.MethodPost, path: "/unclaimed_draft/create_embedded_with_template", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "unclaimedDraftEditAndResend", method: http.MethodPost, path: "/unclaimed_draft/edit_and_resend/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
}
