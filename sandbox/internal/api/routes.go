package api

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

// Route is one operation of the official API description.
type Route struct {
	operationID string
	// tag is the operation's first tag in the official description (the
	// SDK's API class); the table is grouped by it.
	tag    string
	method string
	// Path is the official path relative to the /v3 base, with its
	// parameters in braces; "/oauth/token?refresh" keeps its literal query.
	Path string
	auth authMode
	// scopes are the OAuth scopes of which a bearer token needs one.
	scopes []string
}

// apiRoutes is the route table: every operation of the official description,
// keyed by operationId. TestRoutesMatchOfficialDescription compares it with
// openapi.yaml. Handlers are attached by operationId (handle, call.go); an
// operation without a handler answers in the official error shape.
var apiRoutes = []Route{
	// Account
	{operationID: "accountCreate", tag: "Account", method: http.MethodPost, Path: "/account/create", auth: authKeyOrToken, scopes: []string{"account_access"}},
	{operationID: "accountGet", tag: "Account", method: http.MethodGet, Path: "/account", auth: authKeyOrToken, scopes: []string{"account_access", "basic_account_info"}},
	{operationID: "accountUpdate", tag: "Account", method: http.MethodPut, Path: "/account", auth: authKeyOrToken, scopes: []string{"account_access"}},
	{operationID: "accountVerify", tag: "Account", method: http.MethodPost, Path: "/account/verify", auth: authKeyOrToken, scopes: []string{"account_access"}},
	// Api App
	{operationID: "apiAppCreate", tag: "Api App", method: http.MethodPost, Path: "/api_app", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppDelete", tag: "Api App", method: http.MethodDelete, Path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppGet", tag: "Api App", method: http.MethodGet, Path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppList", tag: "Api App", method: http.MethodGet, Path: "/api_app/list", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	{operationID: "apiAppUpdate", tag: "Api App", method: http.MethodPut, Path: "/api_app/{client_id}", auth: authKeyOrToken, scopes: []string{"api_app_access"}},
	// Bulk Send Job
	{operationID: "bulkSendJobGet", tag: "Bulk Send Job", method: http.MethodGet, Path: "/bulk_send_job/{bulk_send_job_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "bulkSendJobList", tag: "Bulk Send Job", method: http.MethodGet, Path: "/bulk_send_job/list", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	// Embedded
	{operationID: "embeddedEditUrl", tag: "Embedded", method: http.MethodPost, Path: "/embedded/edit_url/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "embeddedSignUrl", tag: "Embedded", method: http.MethodGet, Path: "/embedded/sign_url/{signature_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	// Fax
	{operationID: "faxDelete", tag: "Fax", method: http.MethodDelete, Path: "/fax/{fax_id}", auth: authKeyOnly},
	{operationID: "faxFiles", tag: "Fax", method: http.MethodGet, Path: "/fax/files/{fax_id}", auth: authKeyOnly},
	{operationID: "faxGet", tag: "Fax", method: http.MethodGet, Path: "/fax/{fax_id}", auth: authKeyOnly},
	{operationID: "faxList", tag: "Fax", method: http.MethodGet, Path: "/fax/list", auth: authKeyOnly},
	{operationID: "faxSend", tag: "Fax", method: http.MethodPost, Path: "/fax/send", auth: authKeyOnly},
	// Fax Line
	{operationID: "faxLineAddUser", tag: "Fax Line", method: http.MethodPut, Path: "/fax_line/add_user", auth: authKeyOnly},
	{operationID: "faxLineAreaCodeGet", tag: "Fax Line", method: http.MethodGet, Path: "/fax_line/area_codes", auth: authKeyOnly},
	{operationID: "faxLineCreate", tag: "Fax Line", method: http.MethodPost, Path: "/fax_line/create", auth: authKeyOnly},
	{operationID: "faxLineDelete", tag: "Fax Line", method: http.MethodDelete, Path: "/fax_line", auth: authKeyOnly},
	{operationID: "faxLineGet", tag: "Fax Line", method: http.MethodGet, Path: "/fax_line", auth: authKeyOnly},
	{operationID: "faxLineList", tag: "Fax Line", method: http.MethodGet, Path: "/fax_line/list", auth: authKeyOnly},
	{operationID: "faxLineRemoveUser", tag: "Fax Line", method: http.MethodPut, Path: "/fax_line/remove_user", auth: authKeyOnly},
	// OAuth
	{operationID: "oauthTokenGenerate", tag: "OAuth", method: http.MethodPost, Path: "/oauth/token", auth: authNone},
	{operationID: "oauthTokenRefresh", tag: "OAuth", method: http.MethodPost, Path: "/oauth/token?refresh", auth: authNone},
	// Report
	{operationID: "reportCreate", tag: "Report", method: http.MethodPost, Path: "/report/create", auth: authKeyOnly},
	// Signature Request
	{operationID: "signatureRequestBulkCreateEmbeddedWithTemplate", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/bulk_create_embedded_with_template", auth: authKeyOnly},
	{operationID: "signatureRequestBulkSendWithTemplate", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/bulk_send_with_template", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestCancel", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/cancel/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestCreateEmbedded", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/create_embedded", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestCreateEmbeddedWithTemplate", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/create_embedded_with_template", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEdit", tag: "Signature Request", method: http.MethodPut, Path: "/signature_request/edit/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestEditEmbedded", tag: "Signature Request", method: http.MethodPut, Path: "/signature_request/edit_embedded/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEditEmbeddedWithTemplate", tag: "Signature Request", method: http.MethodPut, Path: "/signature_request/edit_embedded_with_template/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestEditWithTemplate", tag: "Signature Request", method: http.MethodPut, Path: "/signature_request/edit_with_template/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFiles", tag: "Signature Request", method: http.MethodGet, Path: "/signature_request/files/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFilesAsDataUri", tag: "Signature Request", method: http.MethodGet, Path: "/signature_request/files_as_data_uri/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestFilesAsFileUrl", tag: "Signature Request", method: http.MethodGet, Path: "/signature_request/files_as_file_url/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestGet", tag: "Signature Request", method: http.MethodGet, Path: "/signature_request/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestList", tag: "Signature Request", method: http.MethodGet, Path: "/signature_request/list", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestReleaseHold", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/release_hold/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "signatureRequestRemind", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/remind/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestRemove", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/remove/{signature_request_id}", auth: authKeyOnly},
	{operationID: "signatureRequestSend", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/send", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestSendWithTemplate", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/send_with_template", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "signatureRequestUpdate", tag: "Signature Request", method: http.MethodPost, Path: "/signature_request/update/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	// Team
	{operationID: "teamAddMember", tag: "Team", method: http.MethodPut, Path: "/team/add_member", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamCreate", tag: "Team", method: http.MethodPost, Path: "/team/create", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamDelete", tag: "Team", method: http.MethodDelete, Path: "/team/destroy", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamGet", tag: "Team", method: http.MethodGet, Path: "/team", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamInfo", tag: "Team", method: http.MethodGet, Path: "/team/info", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamInvites", tag: "Team", method: http.MethodGet, Path: "/team/invites", auth: authKeyOrToken, scopes: []string{"account_access", "basic_account_info"}},
	{operationID: "teamMembers", tag: "Team", method: http.MethodGet, Path: "/team/members/{team_id}", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamRemoveMember", tag: "Team", method: http.MethodPost, Path: "/team/remove_member", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamSubTeams", tag: "Team", method: http.MethodGet, Path: "/team/sub_teams/{team_id}", auth: authKeyOrToken, scopes: []string{"team_access"}},
	{operationID: "teamUpdate", tag: "Team", method: http.MethodPut, Path: "/team", auth: authKeyOrToken, scopes: []string{"team_access"}},
	// Template
	{operationID: "templateAddUser", tag: "Template", method: http.MethodPost, Path: "/template/add_user/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateCreate", tag: "Template", method: http.MethodPost, Path: "/template/create", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateCreateEmbeddedDraft", tag: "Template", method: http.MethodPost, Path: "/template/create_embedded_draft", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateDelete", tag: "Template", method: http.MethodPost, Path: "/template/delete/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFiles", tag: "Template", method: http.MethodGet, Path: "/template/files/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFilesAsDataUri", tag: "Template", method: http.MethodGet, Path: "/template/files_as_data_uri/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateFilesAsFileUrl", tag: "Template", method: http.MethodGet, Path: "/template/files_as_file_url/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateGet", tag: "Template", method: http.MethodGet, Path: "/template/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateList", tag: "Template", method: http.MethodGet, Path: "/template/list", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateRemoveUser", tag: "Template", method: http.MethodPost, Path: "/template/remove_user/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	{operationID: "templateUpdateFiles", tag: "Template", method: http.MethodPost, Path: "/template/update_files/{template_id}", auth: authKeyOrToken, scopes: []string{"template_access"}},
	// Unclaimed Draft
	{operationID: "unclaimedDraftCreate", tag: "Unclaimed Draft", method: http.MethodPost, Path: "/unclaimed_draft/create", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "unclaimedDraftCreateEmbedded", tag: "Unclaimed Draft", method: http.MethodPost, Path: "/unclaimed_draft/create_embedded", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
	{operationID: "unclaimedDraftCreateEmbeddedWithTemplate", tag: "Unclaimed Draft", method: http.MethodPost, Path: "/unclaimed_draft/create_embedded_with_template", auth: authKeyOrToken, scopes: []string{"signature_request_access"}},
	{operationID: "unclaimedDraftEditAndResend", tag: "Unclaimed Draft", method: http.MethodPost, Path: "/unclaimed_draft/edit_and_resend/{signature_request_id}", auth: authKeyOrToken, scopes: []string{"request_signature", "signature_request_access"}},
}
