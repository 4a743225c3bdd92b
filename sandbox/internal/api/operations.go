package api

// The table of the official API's operations: for each operationId its
// tag, method, path, and the credentials and OAuth scopes it accepts. It is
// data: NewRouter builds the router from it and the pipeline checks
// credentials against it; TestRoutesMatchOfficialDescription compares it
// with the official description.

import "net/http"

// AuthMode says which credentials an operation accepts, as the official
// description's security requirements do.
type AuthMode int

const (
	// AuthKeyOrToken accepts an API key (HTTP Basic) or an OAuth bearer token.
	AuthKeyOrToken AuthMode = iota
	// AuthKeyOnly accepts only an API key (fax, fax line, report, remove,
	// embedded bulk send).
	AuthKeyOnly
	// AuthNone takes no credentials (the OAuth token endpoints).
	AuthNone
)

// Route is one operation of the official API description.
type Route struct {
	OperationID string
	// Tag is the operation's first tag in the official description (the
	// SDK's API class); the table is grouped by it.
	Tag    string
	Method string
	// Path is the official path relative to the /v3 base, with its
	// parameters in braces; "/oauth/token?refresh" keeps its literal query.
	Path string
	Auth AuthMode
	// Scopes are the OAuth scopes of which a bearer token needs one.
	Scopes []string
	// SDKOnly marks an operation the public reference (openapi.yaml) hides
	// but the official SDKs ship: it is described only in openapi-sdk.yaml,
	// the file they are generated from (x-hideOn: doc).
	SDKOnly bool
}

// OperationTable is the route table: every operation of the official description,
// keyed by operationId, and the operations only the SDK description has
// (SDKOnly). TestRoutesMatchOfficialDescription compares it with
// openapi.yaml and openapi-sdk.yaml. Handlers are attached by operationId
// (api.Registry.Handle); an operation without a handler answers in the
// official error shape.
var OperationTable = []Route{
	// Account
	{OperationID: "accountCreate", Tag: "Account", Method: http.MethodPost, Path: "/account/create", Auth: AuthKeyOrToken, Scopes: []string{"account_access"}},
	{OperationID: "accountGet", Tag: "Account", Method: http.MethodGet, Path: "/account", Auth: AuthKeyOrToken, Scopes: []string{"account_access", "basic_account_info"}},
	{OperationID: "accountUpdate", Tag: "Account", Method: http.MethodPut, Path: "/account", Auth: AuthKeyOrToken, Scopes: []string{"account_access"}},
	{OperationID: "accountVerify", Tag: "Account", Method: http.MethodPost, Path: "/account/verify", Auth: AuthKeyOrToken, Scopes: []string{"account_access"}},
	// Api App
	{OperationID: "apiAppCreate", Tag: "Api App", Method: http.MethodPost, Path: "/api_app", Auth: AuthKeyOrToken, Scopes: []string{"api_app_access"}},
	{OperationID: "apiAppDelete", Tag: "Api App", Method: http.MethodDelete, Path: "/api_app/{client_id}", Auth: AuthKeyOrToken, Scopes: []string{"api_app_access"}},
	{OperationID: "apiAppGet", Tag: "Api App", Method: http.MethodGet, Path: "/api_app/{client_id}", Auth: AuthKeyOrToken, Scopes: []string{"api_app_access"}},
	{OperationID: "apiAppList", Tag: "Api App", Method: http.MethodGet, Path: "/api_app/list", Auth: AuthKeyOrToken, Scopes: []string{"api_app_access"}},
	{OperationID: "apiAppUpdate", Tag: "Api App", Method: http.MethodPut, Path: "/api_app/{client_id}", Auth: AuthKeyOrToken, Scopes: []string{"api_app_access"}},
	// Bulk Send Job
	{OperationID: "bulkSendJobGet", Tag: "Bulk Send Job", Method: http.MethodGet, Path: "/bulk_send_job/{bulk_send_job_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "bulkSendJobList", Tag: "Bulk Send Job", Method: http.MethodGet, Path: "/bulk_send_job/list", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	// Embedded
	{OperationID: "embeddedEditUrl", Tag: "Embedded", Method: http.MethodPost, Path: "/embedded/edit_url/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "embeddedSignUrl", Tag: "Embedded", Method: http.MethodGet, Path: "/embedded/sign_url/{signature_id}", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	// Fax
	{OperationID: "faxDelete", Tag: "Fax", Method: http.MethodDelete, Path: "/fax/{fax_id}", Auth: AuthKeyOnly},
	{OperationID: "faxFiles", Tag: "Fax", Method: http.MethodGet, Path: "/fax/files/{fax_id}", Auth: AuthKeyOnly},
	{OperationID: "faxGet", Tag: "Fax", Method: http.MethodGet, Path: "/fax/{fax_id}", Auth: AuthKeyOnly},
	{OperationID: "faxList", Tag: "Fax", Method: http.MethodGet, Path: "/fax/list", Auth: AuthKeyOnly},
	{OperationID: "faxSend", Tag: "Fax", Method: http.MethodPost, Path: "/fax/send", Auth: AuthKeyOnly},
	// Fax Line
	{OperationID: "faxLineAddUser", Tag: "Fax Line", Method: http.MethodPut, Path: "/fax_line/add_user", Auth: AuthKeyOnly},
	{OperationID: "faxLineAreaCodeGet", Tag: "Fax Line", Method: http.MethodGet, Path: "/fax_line/area_codes", Auth: AuthKeyOnly},
	{OperationID: "faxLineCreate", Tag: "Fax Line", Method: http.MethodPost, Path: "/fax_line/create", Auth: AuthKeyOnly},
	{OperationID: "faxLineDelete", Tag: "Fax Line", Method: http.MethodDelete, Path: "/fax_line", Auth: AuthKeyOnly},
	{OperationID: "faxLineGet", Tag: "Fax Line", Method: http.MethodGet, Path: "/fax_line", Auth: AuthKeyOnly},
	{OperationID: "faxLineList", Tag: "Fax Line", Method: http.MethodGet, Path: "/fax_line/list", Auth: AuthKeyOnly},
	{OperationID: "faxLineRemoveUser", Tag: "Fax Line", Method: http.MethodPut, Path: "/fax_line/remove_user", Auth: AuthKeyOnly},
	// OAuth
	{OperationID: "oauthTokenGenerate", Tag: "OAuth", Method: http.MethodPost, Path: "/oauth/token", Auth: AuthNone},
	{OperationID: "oauthTokenRefresh", Tag: "OAuth", Method: http.MethodPost, Path: "/oauth/token?refresh", Auth: AuthNone},
	// Report
	{OperationID: "reportCreate", Tag: "Report", Method: http.MethodPost, Path: "/report/create", Auth: AuthKeyOnly},
	// Signature Request
	{OperationID: "signatureRequestBulkCreateEmbeddedWithTemplate", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/bulk_create_embedded_with_template", Auth: AuthKeyOnly},
	{OperationID: "signatureRequestBulkSendWithTemplate", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/bulk_send_with_template", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestCancel", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/cancel/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestCreateEmbedded", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/create_embedded", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	{OperationID: "signatureRequestCreateEmbeddedWithTemplate", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/create_embedded_with_template", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	{OperationID: "signatureRequestEdit", Tag: "Signature Request", Method: http.MethodPut, Path: "/signature_request/edit/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestEditEmbedded", Tag: "Signature Request", Method: http.MethodPut, Path: "/signature_request/edit_embedded/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	{OperationID: "signatureRequestEditEmbeddedWithTemplate", Tag: "Signature Request", Method: http.MethodPut, Path: "/signature_request/edit_embedded_with_template/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	{OperationID: "signatureRequestEditWithTemplate", Tag: "Signature Request", Method: http.MethodPut, Path: "/signature_request/edit_with_template/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestFiles", Tag: "Signature Request", Method: http.MethodGet, Path: "/signature_request/files/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestFilesAsDataUri", Tag: "Signature Request", Method: http.MethodGet, Path: "/signature_request/files_as_data_uri/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestFilesAsFileUrl", Tag: "Signature Request", Method: http.MethodGet, Path: "/signature_request/files_as_file_url/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestGet", Tag: "Signature Request", Method: http.MethodGet, Path: "/signature_request/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestList", Tag: "Signature Request", Method: http.MethodGet, Path: "/signature_request/list", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestReleaseHold", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/release_hold/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	{OperationID: "signatureRequestRemind", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/remind/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestRemove", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/remove/{signature_request_id}", Auth: AuthKeyOnly},
	{OperationID: "signatureRequestSend", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/send", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestSendWithTemplate", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/send_with_template", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "signatureRequestUpdate", Tag: "Signature Request", Method: http.MethodPost, Path: "/signature_request/update/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	// Team
	{OperationID: "teamAddMember", Tag: "Team", Method: http.MethodPut, Path: "/team/add_member", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamCreate", Tag: "Team", Method: http.MethodPost, Path: "/team/create", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamDelete", Tag: "Team", Method: http.MethodDelete, Path: "/team/destroy", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamGet", Tag: "Team", Method: http.MethodGet, Path: "/team", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamInfo", Tag: "Team", Method: http.MethodGet, Path: "/team/info", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamInvites", Tag: "Team", Method: http.MethodGet, Path: "/team/invites", Auth: AuthKeyOrToken, Scopes: []string{"account_access", "basic_account_info"}},
	{OperationID: "teamMembers", Tag: "Team", Method: http.MethodGet, Path: "/team/members/{team_id}", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamRemoveMember", Tag: "Team", Method: http.MethodPost, Path: "/team/remove_member", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamSubTeams", Tag: "Team", Method: http.MethodGet, Path: "/team/sub_teams/{team_id}", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	{OperationID: "teamUpdate", Tag: "Team", Method: http.MethodPut, Path: "/team", Auth: AuthKeyOrToken, Scopes: []string{"team_access"}},
	// Template
	{OperationID: "templateAddUser", Tag: "Template", Method: http.MethodPost, Path: "/template/add_user/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateCreate", Tag: "Template", Method: http.MethodPost, Path: "/template/create", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateCreateEmbeddedDraft", Tag: "Template", Method: http.MethodPost, Path: "/template/create_embedded_draft", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateDelete", Tag: "Template", Method: http.MethodPost, Path: "/template/delete/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateFiles", Tag: "Template", Method: http.MethodGet, Path: "/template/files/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateFilesAsDataUri", Tag: "Template", Method: http.MethodGet, Path: "/template/files_as_data_uri/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateFilesAsFileUrl", Tag: "Template", Method: http.MethodGet, Path: "/template/files_as_file_url/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateGet", Tag: "Template", Method: http.MethodGet, Path: "/template/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateList", Tag: "Template", Method: http.MethodGet, Path: "/template/list", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateRemoveUser", Tag: "Template", Method: http.MethodPost, Path: "/template/remove_user/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	{OperationID: "templateUpdate", Tag: "Template", Method: http.MethodPost, Path: "/template/update/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}, SDKOnly: true},
	{OperationID: "templateUpdateFiles", Tag: "Template", Method: http.MethodPost, Path: "/template/update_files/{template_id}", Auth: AuthKeyOrToken, Scopes: []string{"template_access"}},
	// Unclaimed Draft
	{OperationID: "unclaimedDraftCreate", Tag: "Unclaimed Draft", Method: http.MethodPost, Path: "/unclaimed_draft/create", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	{OperationID: "unclaimedDraftCreateEmbedded", Tag: "Unclaimed Draft", Method: http.MethodPost, Path: "/unclaimed_draft/create_embedded", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
	{OperationID: "unclaimedDraftCreateEmbeddedWithTemplate", Tag: "Unclaimed Draft", Method: http.MethodPost, Path: "/unclaimed_draft/create_embedded_with_template", Auth: AuthKeyOrToken, Scopes: []string{"signature_request_access"}},
	{OperationID: "unclaimedDraftEditAndResend", Tag: "Unclaimed Draft", Method: http.MethodPost, Path: "/unclaimed_draft/edit_and_resend/{signature_request_id}", Auth: AuthKeyOrToken, Scopes: []string{"request_signature", "signature_request_access"}},
}
