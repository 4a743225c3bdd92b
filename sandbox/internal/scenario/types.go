// Package scenario is the scenario format of the sandbox: the Go types of a
// scenario file (YAML, or JSON which is a subset of it), the strict loader
// that names the file, line and key of every mistake, the field matchers and
// the small ${...} expression syntax shared by rules and steps, the step
// runner that drives a sandbox over HTTP, and the builder that turns a
// recorded session into a scenario file.
//
// The package does not import the sandbox: what it must know about the API
// (operations, event types, error names) is passed in as a Vocabulary, so
// that the sandbox can use the package and the package stays testable alone.
package scenario

// Document is one scenario file.
type Document struct {
	// Name identifies the scenario in a world (GET /_sandbox/scenarios,
	// DELETE /_sandbox/scenarios/{name}) and in the library (scenarios/).
	Name        string `yaml:"name" json:"name"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	// Config is a partial world configuration, merged as PATCH
	// /_sandbox/config would (delays, TTLs, rate_limit, ...).
	Config map[string]any `yaml:"config,omitempty" json:"config,omitempty"`
	// Seed lists objects the world starts with.
	Seed *Seed `yaml:"seed,omitempty" json:"seed,omitempty"`
	// Rules are faults and reactions that stay active in the world.
	Rules []Rule `yaml:"rules,omitempty" json:"rules,omitempty"`
	// Steps are the script that `signsandbox run` executes.
	Steps []Step `yaml:"steps,omitempty" json:"steps,omitempty"`
	// Recording is set in files written by the recorder: what a replay
	// starts from.
	Recording *Recording `yaml:"recording,omitempty" json:"recording,omitempty"`
}

// Seed lists the objects a scenario adds to (or changes in) the world when
// it loads. Everything is created through the sandbox's own transitions in
// one transaction.
type Seed struct {
	Accounts          []SeedAccount  `yaml:"accounts,omitempty" json:"accounts,omitempty"`
	APIKeys           []SeedAPIKey   `yaml:"api_keys,omitempty" json:"api_keys,omitempty"`
	APIApps           []SeedAPIApp   `yaml:"api_apps,omitempty" json:"api_apps,omitempty"`
	Templates         []SeedTemplate `yaml:"templates,omitempty" json:"templates,omitempty"`
	SignatureRequests []SeedRequest  `yaml:"signature_requests,omitempty" json:"signature_requests,omitempty"`
}

// SeedAccount creates an account, or changes the account that already has
// this e-mail address (the fixture accounts).
type SeedAccount struct {
	Ref          string  `yaml:"ref,omitempty" json:"ref,omitempty"`
	EmailAddress string  `yaml:"email_address" json:"email_address"`
	Name         *string `yaml:"name,omitempty" json:"name,omitempty"`
	// Team makes the account a member of the first account's team (true)
	// or takes it out of any team (false).
	Team     *bool   `yaml:"team,omitempty" json:"team,omitempty"`
	RoleCode *string `yaml:"role_code,omitempty" json:"role_code,omitempty"`
	// Quotas sets remaining allowances by their wire names
	// (api_signature_requests_left, templates_left, ...); null is unlimited.
	Quotas      map[string]any `yaml:"quotas,omitempty" json:"quotas,omitempty"`
	CallbackURL *string        `yaml:"callback_url,omitempty" json:"callback_url,omitempty"`
}

// SeedAPIKey adds an API key (generated from the world's sequence) to an
// account.
type SeedAPIKey struct {
	Ref     string `yaml:"ref,omitempty" json:"ref,omitempty"`
	Account string `yaml:"account" json:"account"`
	Name    string `yaml:"name,omitempty" json:"name,omitempty"`
	Primary bool   `yaml:"primary,omitempty" json:"primary,omitempty"`
}

// SeedAPIApp adds an API app.
type SeedAPIApp struct {
	Ref         string     `yaml:"ref,omitempty" json:"ref,omitempty"`
	Owner       string     `yaml:"owner,omitempty" json:"owner,omitempty"`
	Name        string     `yaml:"name" json:"name"`
	Domains     []string   `yaml:"domains,omitempty" json:"domains,omitempty"`
	CallbackURL string     `yaml:"callback_url,omitempty" json:"callback_url,omitempty"`
	OAuth       *SeedOAuth `yaml:"oauth,omitempty" json:"oauth,omitempty"`
}

// SeedOAuth is the OAuth part of a seeded app.
type SeedOAuth struct {
	CallbackURL string   `yaml:"callback_url" json:"callback_url"`
	Scopes      []string `yaml:"scopes,omitempty" json:"scopes,omitempty"`
}

// SeedDocument is a generated document: a text file converted to PDF the
// way an uploaded .txt is.
type SeedDocument struct {
	Name string `yaml:"name" json:"name"`
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
}

// SeedTemplate creates a template from a template/create body.
type SeedTemplate struct {
	Ref string `yaml:"ref" json:"ref"`
	// As is the owner's e-mail address (default: the world's first account).
	As        string         `yaml:"as,omitempty" json:"as,omitempty"`
	Body      map[string]any `yaml:"body" json:"body"`
	Documents []SeedDocument `yaml:"documents,omitempty" json:"documents,omitempty"`
	// State is ready (default), preparing or error.
	State string `yaml:"state,omitempty" json:"state,omitempty"`
}

// SeedRequest creates a signature request from the body of an operation and
// moves it to a state.
type SeedRequest struct {
	Ref string `yaml:"ref" json:"ref"`
	As  string `yaml:"as,omitempty" json:"as,omitempty"`
	// Operation is signatureRequestSend (default),
	// signatureRequestCreateEmbedded, signatureRequestSendWithTemplate or
	// signatureRequestCreateEmbeddedWithTemplate.
	Operation string         `yaml:"operation,omitempty" json:"operation,omitempty"`
	Body      map[string]any `yaml:"body" json:"body"`
	Documents []SeedDocument `yaml:"documents,omitempty" json:"documents,omitempty"`
	// Templates names seeded templates by ref (with_template operations).
	Templates []string `yaml:"templates,omitempty" json:"templates,omitempty"`
	// State is processing, sent (default), completed, declined, canceled,
	// expired, or an error state (ProcessingStatusCodes: error_file,
	// error_unknown, error_invalid_email, error_component_position,
	// error_text_tag).
	State   string       `yaml:"state,omitempty" json:"state,omitempty"`
	Message string       `yaml:"message,omitempty" json:"message,omitempty"`
	Actions []SeedAction `yaml:"actions,omitempty" json:"actions,omitempty"`
}

// SeedAction is a signer action applied to a seeded request after it was
// sent, in order.
type SeedAction struct {
	// Signer is the signer's index in the request (0-based) or e-mail
	// address.
	Signer any `yaml:"signer" json:"signer"`
	// Do is view, sign, decline or bounce.
	Do     string         `yaml:"do" json:"do"`
	Reason string         `yaml:"reason,omitempty" json:"reason,omitempty"`
	Values map[string]any `yaml:"values,omitempty" json:"values,omitempty"`
}

// Rule is a fault or reaction. It has a match, exactly one effect, and
// optional limits.
type Rule struct {
	Name  string `yaml:"name,omitempty" json:"name,omitempty"`
	Match *Match `yaml:"match,omitempty" json:"match,omitempty"`

	// Effects (exactly one).
	Respond      *Respond `yaml:"respond,omitempty" json:"respond,omitempty"`
	Latency      string   `yaml:"latency,omitempty" json:"latency,omitempty"`
	Gone         bool     `yaml:"gone,omitempty" json:"gone,omitempty"`
	FailTemplate *Failure `yaml:"fail_template,omitempty" json:"fail_template,omitempty"`
	FailFile     *Failure `yaml:"fail_file,omitempty" json:"fail_file,omitempty"`
	// FailProcessing generalizes FailFile to every signature error status.
	FailProcessing *ProcessingFailure `yaml:"fail_processing,omitempty" json:"fail_processing,omitempty"`
	Bounce         *Delay             `yaml:"bounce,omitempty" json:"bounce,omitempty"`
	SignerAction   *SignerAction      `yaml:"signer_action,omitempty" json:"signer_action,omitempty"`
	Callback       *CallbackFault     `yaml:"callback,omitempty" json:"callback,omitempty"`
	ExhaustQuota   *ExhaustQuota      `yaml:"exhaust_quota,omitempty" json:"exhaust_quota,omitempty"`
	RateLimit      *RateLimitEffect   `yaml:"rate_limit,omitempty" json:"rate_limit,omitempty"`

	// Times caps how often the rule fires; After skips the first matches;
	// Window limits it to a span of world time.
	Times  *int    `yaml:"times,omitempty" json:"times,omitempty"`
	After  int     `yaml:"after,omitempty" json:"after,omitempty"`
	Window *Window `yaml:"window,omitempty" json:"window,omitempty"`
}

// Match says which calls, objects or deliveries a rule applies to. Every
// given condition must hold.
type Match struct {
	// Operation is an operationId or a list of them.
	Operation any `yaml:"operation,omitempty" json:"operation,omitempty"`
	// Method and Path match the HTTP request; Path is a pattern where
	// {name} and * stand for one path segment and ** for the rest.
	Method string `yaml:"method,omitempty" json:"method,omitempty"`
	Path   string `yaml:"path,omitempty" json:"path,omitempty"`
	// Fields are field matchers on the decoded body and query (calls), or
	// on the object (signature requests, templates).
	Fields map[string]any `yaml:"fields,omitempty" json:"fields,omitempty"`
	// Signer is a glob on signer e-mail addresses ("*@bounce.example").
	Signer string `yaml:"signer,omitempty" json:"signer,omitempty"`
	// ObjectID is a path parameter, request, template or event object id.
	ObjectID string `yaml:"object_id,omitempty" json:"object_id,omitempty"`
	// Account is a glob on the e-mail address of the caller (calls), the
	// requester or owner (objects), or the reported account (callbacks).
	Account string `yaml:"account,omitempty" json:"account,omitempty"`
	// Event is an event type or a list of them (callbacks).
	Event any `yaml:"event,omitempty" json:"event,omitempty"`
}

// Respond answers a call with an error instead of running it.
type Respond struct {
	Status    int    `yaml:"status,omitempty" json:"status,omitempty"`
	ErrorName string `yaml:"error_name,omitempty" json:"error_name,omitempty"`
	ErrorMsg  string `yaml:"error_msg,omitempty" json:"error_msg,omitempty"`
	ErrorPath string `yaml:"error_path,omitempty" json:"error_path,omitempty"`
}

// Failure gives the message of an injected template or file failure.
type Failure struct {
	Message string `yaml:"message,omitempty" json:"message,omitempty"`
}

// ProcessingFailure ends a signature request's processing in error: its
// signatures get StatusCode (one of ProcessingStatusCodes) and the event of
// that status is emitted (file_error, unknown_error or
// signature_request_invalid). With error_invalid_email and a match.signer
// condition, only the matching signers' signatures get the status.
type ProcessingFailure struct {
	StatusCode string `yaml:"status_code" json:"status_code"`
	Message    string `yaml:"message,omitempty" json:"message,omitempty"`
}

// ProcessingStatusCodes are the status codes fail_processing may give.
var ProcessingStatusCodes = []string{"error_file", "error_unknown", "error_invalid_email", "error_component_position", "error_text_tag"}

// Delay is an effect that happens some world time after its trigger.
type Delay struct {
	After string `yaml:"after,omitempty" json:"after,omitempty"`
}

// SignerAction makes matching signers act some world time after the
// request was sent.
type SignerAction struct {
	// Do is view, sign or decline.
	Do     string         `yaml:"do" json:"do"`
	After  string         `yaml:"after,omitempty" json:"after,omitempty"`
	Reason string         `yaml:"reason,omitempty" json:"reason,omitempty"`
	Values map[string]any `yaml:"values,omitempty" json:"values,omitempty"`
}

// CallbackFault makes delivery attempts fail.
type CallbackFault struct {
	// Fault is unreachable (the receiver is not contacted) or reject (it is,
	// but its answer counts as a failure).
	Fault string `yaml:"fault" json:"fault"`
}

// ExhaustQuota sets an account's quota to 0 when the scenario loads.
type ExhaustQuota struct {
	// Account is an e-mail address (default: the world's first account).
	Account string `yaml:"account,omitempty" json:"account,omitempty"`
	// Quota is api_signature_requests (default), templates, documents,
	// sms_verifications or fax_pages.
	Quota string `yaml:"quota,omitempty" json:"quota,omitempty"`
}

// RateLimitEffect turns on rate limiting in the world when the scenario
// loads.
type RateLimitEffect struct {
	Limit  int    `yaml:"limit" json:"limit"`
	Window string `yaml:"window,omitempty" json:"window,omitempty"`
}

// Window limits a rule to a span of world time. Each bound is a duration
// relative to the moment the scenario loads ("0s", "24h", "2d") or an
// RFC 3339 instant.
type Window struct {
	From  string `yaml:"from,omitempty" json:"from,omitempty"`
	Until string `yaml:"until,omitempty" json:"until,omitempty"`
}

// Step is one line of a script. Exactly one action key is set: call,
// request, advance, view, sign, decline, reassign, bounce, wait_callbacks,
// events or emails.
type Step struct {
	Name string `yaml:"name,omitempty" json:"name,omitempty"`

	// Call is an operationId; Request is "METHOD /path" (API or control
	// plane).
	Call    string         `yaml:"call,omitempty" json:"call,omitempty"`
	Request string         `yaml:"request,omitempty" json:"request,omitempty"`
	Params  map[string]any `yaml:"params,omitempty" json:"params,omitempty"`
	Query   map[string]any `yaml:"query,omitempty" json:"query,omitempty"`
	Body    any            `yaml:"body,omitempty" json:"body,omitempty"`
	// Form sends the body as multipart/form-data (always when Files are
	// given), as the official SDKs do.
	Form  bool       `yaml:"form,omitempty" json:"form,omitempty"`
	Files []StepFile `yaml:"files,omitempty" json:"files,omitempty"`
	// As is the e-mail address of the account to call as, or "none"; Key
	// is an API key; Auth is a raw Authorization header (recordings).
	As   string `yaml:"as,omitempty" json:"as,omitempty"`
	Key  string `yaml:"key,omitempty" json:"key,omitempty"`
	Auth string `yaml:"auth,omitempty" json:"auth,omitempty"`

	// Advance moves the world clock: a duration, or {to: instant}.
	Advance any `yaml:"advance,omitempty" json:"advance,omitempty"`

	// Signer actions: a signature id, or a map with signature_id and the
	// action's fields.
	View     any `yaml:"view,omitempty" json:"view,omitempty"`
	Sign     any `yaml:"sign,omitempty" json:"sign,omitempty"`
	Decline  any `yaml:"decline,omitempty" json:"decline,omitempty"`
	Reassign any `yaml:"reassign,omitempty" json:"reassign,omitempty"`
	Bounce   any `yaml:"bounce,omitempty" json:"bounce,omitempty"`

	// WaitCallbacks waits until every due callback attempt was made.
	WaitCallbacks bool `yaml:"wait_callbacks,omitempty" json:"wait_callbacks,omitempty"`
	// Events and Emails check the event log and the outbox.
	Events *ListCheck `yaml:"events,omitempty" json:"events,omitempty"`
	Emails *ListCheck `yaml:"emails,omitempty" json:"emails,omitempty"`

	Expect *Expect `yaml:"expect,omitempty" json:"expect,omitempty"`
}

// StepFile is an uploaded file of a step.
type StepFile struct {
	// Field is the form field (default files[N]).
	Field       string `yaml:"field,omitempty" json:"field,omitempty"`
	Name        string `yaml:"name" json:"name"`
	ContentType string `yaml:"content_type,omitempty" json:"content_type,omitempty"`
	Text        string `yaml:"text,omitempty" json:"text,omitempty"`
	Base64      string `yaml:"base64,omitempty" json:"base64,omitempty"`
}

// Expect are the expectations on a step's answer.
type Expect struct {
	// Status is a number or a matcher.
	Status any `yaml:"status,omitempty" json:"status,omitempty"`
	// Error is sugar for body error.error_name.
	Error string `yaml:"error,omitempty" json:"error,omitempty"`
	// Body holds field matchers (see README).
	Body any `yaml:"body,omitempty" json:"body,omitempty"`
	// JSON is the exact JSON answer (recordings).
	JSON any `yaml:"json,omitempty" json:"json,omitempty"`
	// BodySHA256 is the hex SHA-256 of the exact answer bytes (recordings).
	BodySHA256  string         `yaml:"body_sha256,omitempty" json:"body_sha256,omitempty"`
	ContentType string         `yaml:"content_type,omitempty" json:"content_type,omitempty"`
	Headers     map[string]any `yaml:"headers,omitempty" json:"headers,omitempty"`
}

// ListCheck checks a list of events or e-mails.
type ListCheck struct {
	// Filter is the query of GET /_sandbox/callbacks or /_sandbox/emails.
	Filter map[string]any `yaml:"filter,omitempty" json:"filter,omitempty"`
	// Count is a number or a matcher on the number of entries.
	Count any `yaml:"count,omitempty" json:"count,omitempty"`
	// Types (events) or Kinds (e-mails) is the exact sequence of
	// event_type or kind values.
	Types []string `yaml:"types,omitempty" json:"types,omitempty"`
	Kinds []string `yaml:"kinds,omitempty" json:"kinds,omitempty"`
	// Sequence matches the entries in order (same length); Contains needs
	// each matcher to match some entry; Absent needs none to match any.
	Sequence []any `yaml:"sequence,omitempty" json:"sequence,omitempty"`
	Contains []any `yaml:"contains,omitempty" json:"contains,omitempty"`
	Absent   []any `yaml:"absent,omitempty" json:"absent,omitempty"`
}

// Recording describes where a recorded session starts.
type Recording struct {
	// Host is the Host header the session was recorded with: URLs the
	// sandbox hands out contain it, so a replay sends the same one.
	Host string `yaml:"host,omitempty" json:"host,omitempty"`
	// Source says what was recorded (a sandbox world, an upstream URL).
	Source string `yaml:"source,omitempty" json:"source,omitempty"`
	// State is the exported world state (GET /_sandbox/state) at the start
	// of the recording; a replay imports it first. Absent when the
	// upstream was not a sandbox.
	State any `yaml:"state,omitempty" json:"state,omitempty"`
	// AttemptDurations are the measured durations (milliseconds) of the
	// callback delivery attempts of a world whose time flows, by attempt
	// ("DELIVERY_ID/N": the attempt made after N were logged): a replay
	// cannot measure them again, so it reports these.
	AttemptDurations map[string]int64 `yaml:"attempt_durations,omitempty" json:"attempt_durations,omitempty"`
	// Credentials names the credentials the recording left out, each
	// written as ${credentials.NAME} (credentials.go): a replay resolves
	// them all before it starts, the values of those that only appear in
	// answers included.
	Credentials []string `yaml:"credentials,omitempty" json:"credentials,omitempty"`
}
