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
	// tag is the operation's first tag in the official description (the
	// SDK's API class); the table is grouped by it.
	tag    string
	method string
	// path is the official path relative to the /v3 base, with its
	// parameters in braces; "/oauth/token?refresh" keeps its literal query.
	path string
	auth authMode
	// scopes are the OAuth scopes of which a bearer token needs one.
	scopes []string
}

// apiRoutes is the route table: every operation of the official description,
// keyed by operationId. TestRoutesMatchOfficialDescription compares it with
// openapi.yaml. Handlers are attached by operationId (handle, call.go); an
// operation without a handler answers in the official error shape.
var apiRoutes = []route{
	// Account
	{operationID: "accountCreate", tag: "Account", method: http.MethodPost, path: "/account/create", auth: authKeyOrToken, scopes: []string{"account_access"}},
	{operationID: "accountGet", tag: "Account", method: http.MethodGet, path: "/account", auth: authKeyOrToken, scopes: []string{"account_access", "basic_account_info"}},
	{operationID: "accountUpdate", tag: "Account", method: http.MethodPut, path: "/account", auth: authKeyOrToken, scopes: []string{"account_access"}},
	{operationID: "accountVerify", tag: "Account", method: http.MethodPost, path: "/account/verify", auth: authKeyOrToken, scopes: []string{"account_access"}},
	// Api App
	{operationID: "apiAppCreate", tag: "Api App", method: http.MethodPost, path: "/api_app", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppDelete", tag: "Api App", method: http.MethodDelete, path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppGet", tag: "Api App", method: http.MethodGet, path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppList", tag: "Api App", method: http.MethodGet, path: "/api_app/list", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppUpdate", tag: "Api App", method: http.MethodPut, path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	// Bulk Send Job
	{operationID: "bulkSendJobGet", tag: "Bulk Send Job", method: http.MethodGet, path: "/bulk_send_job/{bulk_send_job_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "bulkSendJobList", tag: "Bulk Send Job", method: http.MethodGet, path: "/bulk_send_job/list", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	// Embedded
	{operationID: "embeddedEditUrl", tag: "Embedded", method: http.MethodPost, path: "/embedded/edit_url/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "embeddedSignUrl", tag: "Embedded", method: http.MethodGet, path: "/embedded/sign_url/{signature_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	// Fax
	{operationID: "faxDelete", tag: "Fax", method: http.MethodDelete, path: "/fax/{fax_id}", auth: authKeyOnly},
	{operationID: "faxFiles", tag: "Fax", method: http.MethodGet, path: "/fax/files/{fax_id}", auth: authKeyOnly},
	{operationID: "faxGet", tag: "Fax", method: http.MethodGet, path: "/fax/{fax_id}", auth: authKeyOnly},
	{operationID: "faxList", tag: "Fax", method: http.MethodGet, path: "/fax/list", auth: authKeyOnly},
	{operationID: "faxSend", tag: "Fax", method: http.MethodPost, path: "/fax/send", auth: authKeyOnly},
	// Fax Line
	{operationID: "faxLineAddUser", tag: "Fax Line", method: http.MethodPut, path: "/fax_line/add_user", auth: authKeyOnly},
	{operationID: "faxLineAreaCodeGet", tag: "Fax Line", method: http.MethodGet, path: "/fax_line/area_codes", auth: authKeyOnly},
	{operationID: "faxLineCreate", tag: "Fax Line", method: http.MethodPost, path: "/fax_line/create", auth: authKeyOnly},
	{operationID: "faxLineDelete", tag: "Fax Line", method: http.MethodDelete, path: "/fax_line", auth: authKeyOnly},
	{operationID: "faxLineGet", tag: "Fax Line", method: http.MethodGet, path: "/fax_line", auth: authKeyOnly},
	{operationID: "faxLineList", tag: "Fax Line", method: http.MethodGet, path: "/fax_line/list", auth: authKeyOnly},
	{operationID: "faxLineRemoveUser", tag: "Fax Line", method: http.MethodPut, path: "/fax_line/remove_user", auth: authKeyOnly},
	// OAuth
	{operationID: "oauthTokenGenerate", tag: "OAuth", method: http.MethodPost, path: "/oauth/token", auth: authNone},
	{operationID: "oauthTokenRefresh", tag: "OAuth", method: http.MethodPost, path: "/oauth/token?refresh", auth: authNone},
	// Report
	{operationID: "reportCreate", tag: "Report", method: http.MethodPost, path: "/report/create", auth: authKeyOnly},
	// Signature Request
	{operationID: "signatureRequestBulkCreateEmbeddedWithTemplate", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/bulk_create_embedded_with_template", auth: authKeyOnly},
	{operationID: "signatureRequestBulkSendWithTemplate", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/bulk_send_with_template", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestCancel", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/cancel/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestCreateEmbedded", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/create_embedded", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestCreateEmbeddedWithTemplate", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/create_embedded_with_template", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEdit", tag: "Signature Request", method: http.MethodPut, path: "/signature_request/edit/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestEditEmbedded", tag: "Signature Request", method: http.MethodPut, path: "/signature_request/edit_embedded/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEditEmbeddedWithTemplate", tag: "Signature Request", method: http.MethodPut, path: "/signature_request/edit_embedded_with_template/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEditWithTemplate", tag: "Signature Request", method: http.MethodPut, path: "/signature_request/edit_with_template/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFiles", tag: "Signature Request", method: http.MethodGet, path: "/signature_request/files/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFilesAsDataUri", tag: "Signature Request", method: http.MethodGet, path: "/signature_request/files_as_data_uri/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFilesAsFileUrl", tag: "Signature Request", method: http.MethodGet, path: "/signature_request/files_as_file_url/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestGet", tag: "Signature Request", method: http.MethodGet, path: "/signature_request/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestList", tag: "Signature Request", method: http.MethodGet, path: "/signature_request/list", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestReleaseHold", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/release_hold/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestRemind", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/remind/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestRemove", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/remove/{signature_request_id}", auth: authKeyOnly},
	{operationID: "signatureRequestSend", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/send", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestSendWithTemplate", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/send_with_template", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestUpdate", tag: "Signature Request", method: http.MethodPost, path: "/signature_request/update/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	// Team
	{operationID: "teamAddMember", tag: "Team", method: http.MethodPut, path: "/team/add_member", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamCreate", tag: "Team", method: http.MethodPost, path: "/team/create", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamDelete", tag: "Team", method: http.MethodDelete, path: "/team/destroy", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamGet", tag: "Team", method: http.MethodGet, path: "/team", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamInfo", tag: "Team", method: http.MethodGet, path: "/team/info", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamInvites", tag: "Team", method: http.MethodGet, path: "/team/invites", auth: authKeyOrToken, scopes: []string{"account_access", "basic_account_info"}},
	{operationID: "teamMembers", tag: "Team", method: http.MethodGet, path: "/team/members/{team_id}", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamRemoveMember", tag: "Team", method: http.MethodPost, path: "/team/remove_member", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamSubTeams", tag: "Team", method: http.MethodGet, path: "/team/sub_teams/{team_id}", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamUpdate", tag: "Team", method: http.MethodPut, path: "/team", auth: authKeyOrToken, scopes: []string{"team_access"}},
	// Template
	{operationID: "templateAddUser", tag: "Template", method: http.MethodPost, path: "/template/add_user/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateCreate", tag: "Template", method: http.MethodPost, path: "/template/create", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateCreateEmbeddedDraft", tag: "Template", method: http.MethodPost, path: "/template/create_embedded_draft", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateDelete", tag: "Template", method: http.MethodPost, path: "/template/delete/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFiles", tag: "Template", method: http.MethodGet, path: "/template/files/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFilesAsDataUri", tag: "Template", method: http.MethodGet, path: "/template/files_as_data_uri/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFilesAsFileUrl", tag: "Template", method: http.MethodGet, path: "/template/files_as_file_url/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateGet", tag: "Template", method: http.MethodGet, path: "/template/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateList", tag: "Template", method: http.MethodGet, path: "/template/list", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateRemoveUser", tag: "Template", method: http.MethodPost, path: "/template/remove_user/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateUpdateFiles", tag: "Template", method: http.MethodPost, path: "/template/update_files/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	// Unclaimed Draft
	{operationID: "unclaimedDraftCreate", tag: "Unclaimed Draft", method: http.MethodPost, path: "/unclaimed_draft/create", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "unclaimedDraftCreateEmbedded", tag: "Unclaimed Draft", method: http.MethodPost, path: "/unclaimed_draft/create_embedded", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "unclaimedDraftCreateEmbeddedWithTemplate", tag: "Unclaimed Draft", method: http.MethodPost, path: "/unclaimed_draft/create_embedded_with_template", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "unclaimedDraftEditAndResend", tag: "Unclaimed Draft", method: http.MethodPost, path: "/unclaimed_draft/edit_and_resend/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
}
