package scenario

import (
	"fmt"
	"math/big"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"
)

// issue is a problem found by the validator, located by its path in the
// document; Parse turns it into a line and column.
type issue struct {
	path []any
	msg  string
}

type validator struct {
	voc    *Vocabulary
	doc    *Document
	issues []issue
	refs   map[string]string // seed ref -> kind
}

func (v *validator) add(p []any, format string, a ...any) {
	v.issues = append(v.issues, issue{path: append([]any(nil), p...), msg: fmt.Sprintf(format, a...)})
}

func at(p []any, more ...any) []any { return append(append([]any(nil), p...), more...) }

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Effect names, as written in rules.
const (
	EffectRespond      = "respond"
	EffectLatency      = "latency"
	EffectGone         = "gone"
	EffectFailTemplate = "fail_template"
	EffectFailFile     = "fail_file"
	EffectBounce       = "bounce"
	EffectSignerAction = "signer_action"
	EffectCallback     = "callback"
	EffectExhaustQuota = "exhaust_quota"
	EffectRateLimit    = "rate_limit"
)

// Effect names the one effect of a rule ("" when none or several are set;
// the validator refuses those).
func (r *Rule) Effect() string {
	effects := r.effects()
	if len(effects) != 1 {
		return ""
	}
	return effects[0]
}

func (r *Rule) effects() []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(r.Respond != nil, EffectRespond)
	add(r.Latency != "", EffectLatency)
	add(r.Gone, EffectGone)
	add(r.FailTemplate != nil, EffectFailTemplate)
	add(r.FailFile != nil, EffectFailFile)
	add(r.Bounce != nil, EffectBounce)
	add(r.SignerAction != nil, EffectSignerAction)
	add(r.Callback != nil, EffectCallback)
	add(r.ExhaustQuota != nil, EffectExhaustQuota)
	add(r.RateLimit != nil, EffectRateLimit)
	return out
}

// Where a rule is evaluated decides which match conditions make sense.
var matchKeysOf = map[string][]string{
	// before the handler of an API call
	EffectRespond: {"operation", "method", "path", "fields", "signer", "object_id", "account"},
	EffectLatency: {"operation", "method", "path", "fields", "signer", "object_id", "account"},
	EffectGone:    {"operation", "method", "path", "fields", "signer", "object_id", "account"},
	// after a template-creating call succeeded
	EffectFailTemplate: {"operation", "method", "path", "fields", "object_id", "account"},
	// while a signature request is processed
	EffectFailFile:     {"fields", "signer", "object_id", "account"},
	EffectBounce:       {"fields", "signer", "object_id", "account"},
	EffectSignerAction: {"fields", "signer", "object_id", "account"},
	// before a callback delivery attempt
	EffectCallback: {"event", "object_id", "account"},
	// applied once, when the scenario loads
	EffectExhaustQuota: {},
	EffectRateLimit:    {},
}

// TemplateOperations are the calls that create a template to prepare.
var TemplateOperations = []string{"templateCreate", "templateCreateEmbeddedDraft", "templateUpdateFiles"}

// GoneOperations are the calls that address one signature request.
var goneParams = []string{"signature_request_id"}

// Quota names of exhaust_quota and the account field they set.
var QuotaFields = map[string]string{
	"api_signature_requests": "api_signature_requests_left",
	"templates":              "templates_left",
	"documents":              "documents_left",
	"sms_verifications":      "sms_verifications_left",
	"fax_pages":              "num_fax_pages_left",
}

// SeedRequestOperations are the operations a seeded request may be made
// with.
var SeedRequestOperations = []string{
	"signatureRequestSend", "signatureRequestCreateEmbedded",
	"signatureRequestSendWithTemplate", "signatureRequestCreateEmbeddedWithTemplate",
}

// Seeded request states.
var seedRequestStates = []string{"processing", "sent", "completed", "declined", "canceled", "expired", "error_file"}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (v *validator) document() {
	d := v.doc
	if d.Name == "" {
		v.add([]any{"name"}, "name is required")
	} else if !nameRE.MatchString(d.Name) {
		v.add([]any{"name"}, "name %q must be 1-64 letters, digits, dots, dashes or underscores", d.Name)
	}
	if d.Config != nil && v.voc != nil && v.voc.CheckConfig != nil {
		if key, msg := v.voc.CheckConfig(d.Config); msg != "" {
			p := []any{"config"}
			for _, k := range strings.Split(key, ".") {
				if k != "" {
					p = append(p, k)
				}
			}
			v.add(p, "%s", msg)
		}
	}
	v.refs = map[string]string{}
	if d.Seed != nil {
		v.seed(d.Seed)
	}
	names := map[string]int{}
	for i := range d.Rules {
		r := &d.Rules[i]
		p := []any{"rules", i}
		if r.Name != "" {
			if j, dup := names[r.Name]; dup {
				v.add(at(p, "name"), "rule name %q is also used by rules[%d]", r.Name, j)
			}
			names[r.Name] = i
		}
		v.rule(r, p)
	}
	v.steps()
	if d.Recording != nil && d.Recording.State != nil {
		if _, ok := d.Recording.State.(map[string]any); !ok {
			v.add([]any{"recording", "state"}, "state is an exported world (GET /_sandbox/state)")
		}
	}
}

func (v *validator) ref(p []any, ref, kind string, required bool) {
	switch {
	case ref == "" && required:
		v.add(at(p, "ref"), "ref is required: steps refer to the seeded object as ${seed.REF...}")
	case ref == "":
	case !nameRE.MatchString(ref):
		v.add(at(p, "ref"), "ref %q must be letters, digits, dots, dashes or underscores", ref)
	case v.refs[ref] != "":
		v.add(at(p, "ref"), "ref %q is already used by a seeded %s", ref, v.refs[ref])
	default:
		v.refs[ref] = kind
	}
}

func validEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && !strings.ContainsAny(s, " \t\r\n,;<>")
}

func (v *validator) seed(s *Seed) {
	emails := map[string]int{}
	for i, a := range s.Accounts {
		p := []any{"seed", "accounts", i}
		v.ref(p, a.Ref, "account", false)
		if !validEmail(a.EmailAddress) {
			v.add(at(p, "email_address"), "email_address %q is not an e-mail address", a.EmailAddress)
		}
		key := strings.ToLower(a.EmailAddress)
		if j, dup := emails[key]; dup {
			v.add(at(p, "email_address"), "%s is also seeded by seed.accounts[%d]", a.EmailAddress, j)
		}
		emails[key] = i
		if a.RoleCode != nil && !contains([]string{"a", "m", "d", "t"}, *a.RoleCode) {
			v.add(at(p, "role_code"), "role_code is a (admin), m (member), d (developer) or t (team manager)")
		}
		if a.RoleCode != nil && a.Team != nil && !*a.Team {
			v.add(at(p, "role_code"), "role_code needs team: true (an account without a team has no role)")
		}
		for _, k := range sortedKeys(a.Quotas) {
			if !contains([]string{"api_signature_requests_left", "documents_left", "templates_total", "templates_left",
				"sms_verifications_left", "num_fax_pages_left"}, k) {
				v.add(at(p, "quotas", k), "unknown quota %q", k)
				continue
			}
			switch q := a.Quotas[k].(type) {
			case nil:
			default:
				if n, ok := number(q); !ok || !n.IsInt() || n.Sign() < 0 {
					v.add(at(p, "quotas", k), "a quota is a whole number of at least 0, or null for unlimited")
				}
			}
		}
		if a.CallbackURL != nil && *a.CallbackURL != "" && !strings.HasPrefix(*a.CallbackURL, "http://") &&
			!strings.HasPrefix(*a.CallbackURL, "https://") && !strings.Contains(*a.CallbackURL, "${") {
			v.add(at(p, "callback_url"), "callback_url must be an absolute http(s) URL")
		}
	}
	for i, k := range s.APIKeys {
		p := []any{"seed", "api_keys", i}
		v.ref(p, k.Ref, "api key", false)
		if !validEmail(k.Account) {
			v.add(at(p, "account"), "account is the e-mail address of the key's account")
		}
	}
	for i, a := range s.APIApps {
		p := []any{"seed", "api_apps", i}
		v.ref(p, a.Ref, "api app", false)
		if strings.TrimSpace(a.Name) == "" {
			v.add(at(p, "name"), "name is required")
		}
		if a.Owner != "" && !validEmail(a.Owner) {
			v.add(at(p, "owner"), "owner is the e-mail address of the owning account")
		}
		if a.OAuth != nil && a.OAuth.CallbackURL == "" {
			v.add(at(p, "oauth", "callback_url"), "oauth.callback_url is required")
		}
	}
	for i, t := range s.Templates {
		p := []any{"seed", "templates", i}
		v.ref(p, t.Ref, "template", true)
		if t.Body == nil {
			v.add(at(p, "body"), "body is required: the parameters of template/create (title, signer_roles, ...)")
		}
		if t.As != "" && !validEmail(t.As) {
			v.add(at(p, "as"), "as is the e-mail address of the owning account")
		}
		if t.State != "" && !contains([]string{"ready", "preparing", "error"}, t.State) {
			v.add(at(p, "state"), "state is ready, preparing or error")
		}
		v.documents(at(p, "documents"), t.Documents, t.Body)
	}
	for i, r := range s.SignatureRequests {
		p := []any{"seed", "signature_requests", i}
		v.ref(p, r.Ref, "signature request", true)
		if r.Body == nil {
			v.add(at(p, "body"), "body is required: the parameters of the operation (signers, title, ...)")
		}
		if r.As != "" && !validEmail(r.As) {
			v.add(at(p, "as"), "as is the e-mail address of the sending account")
		}
		op := r.Operation
		if op == "" {
			op = SeedRequestOperations[0]
		}
		withTemplate := strings.HasSuffix(op, "WithTemplate")
		switch {
		case !contains(SeedRequestOperations, op):
			v.add(at(p, "operation"), "operation %q cannot seed a request (use one of %s)", r.Operation, strings.Join(SeedRequestOperations, ", "))
		case withTemplate && len(r.Templates) == 0:
			v.add(at(p, "templates"), "%s needs templates: the refs of seeded templates", op)
		case !withTemplate && len(r.Templates) > 0:
			v.add(at(p, "templates"), "templates are only used by the *WithTemplate operations, not %s", op)
		}
		for j, ref := range r.Templates {
			if v.refs[ref] != "template" {
				v.add(at(p, "templates", j), "no seeded template has ref %q (seed templates before the requests that use them)", ref)
			}
		}
		if withTemplate && len(r.Documents) > 0 {
			v.add(at(p, "documents"), "requests from templates use the templates' documents")
		}
		if !withTemplate {
			v.documents(at(p, "documents"), r.Documents, r.Body)
		}
		state := r.State
		if state == "" {
			state = "sent"
		}
		if !contains(seedRequestStates, state) {
			v.add(at(p, "state"), "state is one of %s", strings.Join(seedRequestStates, ", "))
		}
		if r.Message != "" && state != "error_file" && state != "declined" {
			v.add(at(p, "message"), "message is the error of error_file or the reason of declined, not used by %s", state)
		}
		if len(r.Actions) > 0 && (state == "processing" || state == "error_file") {
			v.add(at(p, "actions"), "a request in state %s was never sent, so no signer can act on it", state)
		}
		for j, a := range r.Actions {
			ap := at(p, "actions", j)
			if !contains([]string{"view", "sign", "decline", "bounce"}, a.Do) {
				v.add(at(ap, "do"), "do is view, sign, decline or bounce")
			}
			switch sg := a.Signer.(type) {
			case string:
				if !validEmail(sg) {
					v.add(at(ap, "signer"), "signer is the signer's index (0, 1, ...) or e-mail address")
				}
			default:
				if n, ok := number(sg); !ok || !n.IsInt() || n.Sign() < 0 {
					v.add(at(ap, "signer"), "signer is the signer's index (0, 1, ...) or e-mail address")
				}
			}
			if a.Do == "decline" && (state == "completed") {
				v.add(at(ap, "do"), "a declined signer contradicts state completed")
			}
		}
	}
}

func (v *validator) documents(p []any, docs []SeedDocument, body map[string]any) {
	for j, d := range docs {
		if strings.TrimSpace(d.Name) == "" {
			v.add(at(p, j, "name"), "name is required (a .txt name: the text becomes PDF pages)")
		}
	}
	for _, k := range []string{"files", "file", "file_urls"} {
		if _, ok := body[k]; ok {
			v.add(at(p[:len(p)-1], "body", k), "seeded objects take their files from documents (generated from text), not %s", k)
		}
	}
}

func (v *validator) durationAt(p []any, s string, allowZero bool) time.Duration {
	d, err := ParseDuration(s)
	switch {
	case err != nil:
		v.add(p, "%v", err)
	case d < 0:
		v.add(p, "a duration must not be negative")
	case d == 0 && !allowZero:
		v.add(p, "a duration must be more than 0")
	}
	return d
}

func (v *validator) rule(r *Rule, p []any) {
	effects := r.effects()
	switch len(effects) {
	case 0:
		v.add(p, "a rule needs one effect: respond, latency, gone, fail_template, fail_file, bounce, signer_action, callback, exhaust_quota or rate_limit")
		return
	case 1:
	default:
		v.add(at(p, effects[1]), "a rule has one effect, but this one has %s: write one rule per effect", strings.Join(effects, " and "))
		return
	}
	effect := effects[0]
	allowed := matchKeysOf[effect]
	if effect == EffectExhaustQuota || effect == EffectRateLimit {
		switch {
		case r.Match != nil:
			v.add(at(p, "match"), "%s is applied once when the scenario loads and takes no match", effect)
		case r.Times != nil || r.After != 0 || r.Window != nil:
			v.add(p, "%s is applied once when the scenario loads and takes no times, after or window", effect)
		}
	}
	if m := r.Match; m != nil {
		v.match(m, at(p, "match"), effect, allowed)
	}
	switch effect {
	case EffectRespond:
		rs := r.Respond
		if rs.Status == 0 && rs.ErrorName == "" {
			v.add(at(p, "respond"), "respond needs a status, an error_name, or both")
		}
		if rs.Status != 0 && (rs.Status < 400 || rs.Status > 599) {
			v.add(at(p, "respond", "status"), "status %d is not an error status (400-599): rules inject failures", rs.Status)
		}
		if rs.ErrorName != "" && v.voc != nil && v.voc.ErrorStatus != nil {
			if _, ok := v.voc.ErrorStatus[rs.ErrorName]; !ok {
				v.add(at(p, "respond", "error_name"), "unknown error_name %q (one of %s)", rs.ErrorName, strings.Join(sortedKeys(v.voc.ErrorStatus), ", "))
			}
		}
		if rs.ErrorName == "" && rs.Status != 0 && v.voc != nil && StatusName(v.voc, rs.Status) == "" {
			v.add(at(p, "respond", "error_name"), "no error_name answers %d on its own: give one", rs.Status)
		}
	case EffectLatency:
		if d := v.durationAt(at(p, "latency"), r.Latency, false); d > MaxLatency {
			v.add(at(p, "latency"), "latency is at most %s", MaxLatency)
		}
	case EffectFailTemplate:
		if r.Match != nil {
			for _, op := range opList(r.Match.Operation) {
				if !contains(TemplateOperations, op) {
					v.add(at(p, "match", "operation"), "fail_template applies to calls that create a template to prepare (%s), not %s",
						strings.Join(TemplateOperations, ", "), op)
				}
			}
		}
	case EffectBounce:
		if r.Bounce.After != "" {
			v.durationAt(at(p, "bounce", "after"), r.Bounce.After, true)
		}
	case EffectSignerAction:
		sa := r.SignerAction
		if !contains([]string{"view", "sign", "decline"}, sa.Do) {
			v.add(at(p, "signer_action", "do"), "do is view, sign or decline")
		}
		if sa.After != "" {
			v.durationAt(at(p, "signer_action", "after"), sa.After, true)
		}
		if sa.Reason != "" && sa.Do != "decline" {
			v.add(at(p, "signer_action", "reason"), "reason is for decline")
		}
		if len(sa.Values) > 0 && sa.Do != "sign" {
			v.add(at(p, "signer_action", "values"), "values are for sign")
		}
	case EffectCallback:
		if !contains([]string{"unreachable", "reject"}, r.Callback.Fault) {
			v.add(at(p, "callback", "fault"), "fault is unreachable (the receiver is not contacted) or reject (its answers count as failures)")
		}
	case EffectExhaustQuota:
		q := r.ExhaustQuota
		if q.Quota != "" {
			if _, ok := QuotaFields[q.Quota]; !ok {
				v.add(at(p, "exhaust_quota", "quota"), "quota is one of %s", strings.Join(sortedKeys(QuotaFields), ", "))
			}
		}
		if q.Account != "" && !validEmail(q.Account) {
			v.add(at(p, "exhaust_quota", "account"), "account is an e-mail address")
		}
	case EffectRateLimit:
		if r.RateLimit.Limit < 1 {
			v.add(at(p, "rate_limit", "limit"), "limit must be at least 1")
		}
		if r.RateLimit.Window != "" {
			v.durationAt(at(p, "rate_limit", "window"), r.RateLimit.Window, false)
		}
	}
	if r.Times != nil && *r.Times < 1 {
		v.add(at(p, "times"), "times must be at least 1 (a rule that never fires is a contradiction; remove it)")
	}
	if r.After < 0 {
		v.add(at(p, "after"), "after must not be negative")
	}
	if w := r.Window; w != nil {
		if w.From == "" && w.Until == "" {
			v.add(at(p, "window"), "a window needs from, until or both")
		}
		var from, until time.Time
		base := time.Unix(0, 0)
		var fok, uok bool
		if w.From != "" {
			from, fok = v.bound(at(p, "window", "from"), w.From, base)
		}
		if w.Until != "" {
			until, uok = v.bound(at(p, "window", "until"), w.Until, base)
		}
		if fok && uok && relative(w.From) == relative(w.Until) && !until.After(from) {
			v.add(at(p, "window", "until"), "until must be after from")
		}
	}
}

func relative(s string) bool {
	_, err := ParseDuration(s)
	return err == nil
}

// bound reads a window bound relative to base.
func (v *validator) bound(p []any, s string, base time.Time) (time.Time, bool) {
	t, err := WindowBound(s, base)
	if err != nil {
		v.add(p, "%v", err)
		return t, false
	}
	return t, true
}

// WindowBound reads a window bound: a duration after base (the load time)
// or an RFC 3339 instant.
func WindowBound(s string, base time.Time) (time.Time, error) {
	if d, err := ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("%q: a window bound is a duration after the scenario loads (not negative) or an RFC 3339 instant", s)
		}
		return base.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither a duration (24h, 2d) nor an RFC 3339 instant", s)
	}
	return t, nil
}

// MaxLatency bounds the latency a rule may add.
const MaxLatency = time.Minute

// StatusName is the error_name a status answers with when a rule gives
// only a status.
func StatusName(voc *Vocabulary, status int) string {
	preferred := map[int]string{400: "bad_request", 401: "unauthorized", 402: "payment_required", 403: "forbidden",
		404: "not_found", 405: "method_not_supported", 409: "conflict", 410: "deleted", 422: "unprocessable_entity",
		429: "exceeded_rate", 500: "unknown", 503: "unavailable"}
	if n, ok := preferred[status]; ok {
		if voc == nil || voc.ErrorStatus == nil {
			return n
		}
		if _, known := voc.ErrorStatus[n]; known {
			return n
		}
	}
	return ""
}

// opList reads match.operation (a string or a list).
func opList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func (v *validator) match(m *Match, p []any, effect string, allowed []string) {
	given := map[string]bool{
		"operation": m.Operation != nil, "method": m.Method != "", "path": m.Path != "", "fields": m.Fields != nil,
		"signer": m.Signer != "", "object_id": m.ObjectID != "", "account": m.Account != "", "event": m.Event != nil,
	}
	for _, k := range []string{"operation", "method", "path", "fields", "signer", "object_id", "account", "event"} {
		if given[k] && !contains(allowed, k) {
			v.add(at(p, k), "match.%s does not apply to %s (it matches by %s)", k, effect, strings.Join(allowed, ", "))
		}
	}
	var ops []Operation
	if m.Operation != nil {
		switch m.Operation.(type) {
		case string, []any:
		default:
			v.add(at(p, "operation"), "operation is an operationId or a list of them")
		}
		for i, id := range opList(m.Operation) {
			op, ok := v.voc.Op(id)
			if !ok {
				q := at(p, "operation")
				if _, isList := m.Operation.([]any); isList {
					q = at(q, i)
				}
				v.add(q, "unknown operation %q (operations are named by their official operationId, such as signatureRequestSend)", id)
				continue
			}
			ops = append(ops, op)
		}
	}
	if m.Method != "" {
		if !contains([]string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch}, strings.ToUpper(m.Method)) {
			v.add(at(p, "method"), "method %q is not an HTTP method the API uses", m.Method)
		}
		for _, op := range ops {
			if !strings.EqualFold(op.Method, m.Method) {
				v.add(at(p, "method"), "method %s contradicts operation %s, which is %s", strings.ToUpper(m.Method), op.ID, op.Method)
			}
		}
	}
	if m.Path != "" {
		if !strings.HasPrefix(m.Path, "/") {
			v.add(at(p, "path"), "path is a pattern starting with / (/v3/signature_request/*)")
		}
		for _, op := range ops {
			if !PathMatch(m.Path, "/v3"+ExamplePath(op.Path)) {
				v.add(at(p, "path"), "path %s contradicts operation %s (/v3%s)", m.Path, op.ID, op.Path)
			}
		}
	}
	if effect == EffectGone {
		for _, op := range ops {
			if !strings.Contains(op.Path, "{"+goneParams[0]+"}") {
				v.add(at(p, "operation"), "gone answers 410 for calls that address a signature request, and %s does not", op.ID)
			}
		}
	}
	checkMatcher(m.Fields, at(p, "fields"), v.add)
	for _, g := range []struct{ key, val string }{{"signer", m.Signer}, {"account", m.Account}} {
		if g.val != "" {
			if _, err := path.Match(g.val, ""); err != nil {
				v.add(at(p, g.key), "bad glob %q: %v", g.val, err)
			}
		}
	}
	if m.Event != nil {
		var evs []string
		switch t := m.Event.(type) {
		case string:
			evs = []string{t}
		case []any:
			for _, x := range t {
				evs = append(evs, fmt.Sprint(x))
			}
		default:
			v.add(at(p, "event"), "event is an event type or a list of them")
		}
		for i, e := range evs {
			if v.voc != nil && !v.voc.knownEvent(e) {
				q := at(p, "event")
				if _, isList := m.Event.([]any); isList {
					q = at(q, i)
				}
				v.add(q, "unknown event type %q (one of the official types, such as signature_request_sent)", e)
			}
		}
	}
}

// ExamplePath fills an operation path's parameters with a sample segment,
// to test a pattern against it.
func ExamplePath(p string) string {
	p, _, _ = strings.Cut(p, "?")
	var b strings.Builder
	for {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			b.WriteString(p)
			return b.String()
		}
		j := strings.IndexByte(p[i:], '}')
		if j < 0 {
			b.WriteString(p)
			return b.String()
		}
		b.WriteString(p[:i])
		b.WriteString("x0")
		p = p[i+j+1:]
	}
}

// PathMatch matches a request path against a pattern: {name} and * match
// one segment, ** the rest (zero or more segments).
func PathMatch(pattern, p string) bool {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(p, "/"), "/")
	for i, seg := range ps {
		if seg == "**" {
			return true
		}
		if i >= len(xs) {
			return false
		}
		if seg == "*" || (strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}")) {
			if xs[i] == "" {
				return false
			}
			continue
		}
		if seg != xs[i] {
			return false
		}
	}
	return len(ps) == len(xs)
}

// StepAction names what a step does ("" when none or several keys are
// set; the validator refuses those).
func (s *Step) Action() string {
	a := s.actions()
	if len(a) != 1 {
		return ""
	}
	return a[0]
}

func (s *Step) actions() []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(s.Call != "", "call")
	add(s.Request != "", "request")
	add(s.Advance != nil, "advance")
	add(s.View != nil, "view")
	add(s.Sign != nil, "sign")
	add(s.Decline != nil, "decline")
	add(s.Reassign != nil, "reassign")
	add(s.Bounce != nil, "bounce")
	add(s.WaitCallbacks, "wait_callbacks")
	add(s.Events != nil, "events")
	add(s.Emails != nil, "emails")
	return out
}

var methodRE = regexp.MustCompile(`^(GET|POST|PUT|DELETE|PATCH|HEAD) (/\S*)$`)

// SplitRequest reads "METHOD /path".
func SplitRequest(s string) (method, p string, ok bool) {
	m := methodRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// PathParams lists the {name} parameters of an operation path.
func PathParams(p string) []string {
	var out []string
	for {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(p[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, p[i+1:i+j])
		p = p[i+j+1:]
	}
}

func (v *validator) steps() {
	defined := map[string]int{}
	for i := range v.doc.Steps {
		s := &v.doc.Steps[i]
		p := []any{"steps", i}
		acts := s.actions()
		switch len(acts) {
		case 0:
			v.add(p, "a step needs one action: call, request, advance, view, sign, decline, reassign, bounce, wait_callbacks, events or emails")
		case 1:
		default:
			v.add(at(p, acts[1]), "a step does one thing, but this one has %s: write one step each", strings.Join(acts, " and "))
		}
		action := s.Action()
		v.stepFields(s, p, action)
		// Expressions may refer to steps defined before this one, and to
		// seeded refs.
		check := func(q []any, e Expr) {
			switch e.Root {
			case RootSteps:
				name := e.Path[0].Key
				j, ok := defined[name]
				switch {
				case !ok && v.stepNamed(name):
					v.add(q, "${%s} refers to step %q, which runs after this one", e.Text, name)
				case !ok:
					v.add(q, "${%s} refers to step %q, but no step has that name", e.Text, name)
				case len(e.Path) > 1 && !contains([]string{"status", "body", "headers"}, e.Path[1].Key):
					v.add(q, "${%s}: a step's result has status, body and headers (steps[%d])", e.Text, j)
				}
			case RootSeed:
				if _, ok := v.refs[e.Path[0].Key]; !ok && !v.hasRecording() {
					v.add(q, "${%s} refers to seed ref %q, but nothing in seed has that ref", e.Text, e.Path[0].Key)
				}
			}
		}
		for _, f := range []struct {
			key string
			val any
		}{{"call", s.Call}, {"request", s.Request}, {"params", s.Params}, {"query", s.Query}, {"body", s.Body},
			{"as", s.As}, {"key", s.Key}, {"auth", s.Auth}, {"advance", s.Advance}, {"view", s.View}, {"sign", s.Sign},
			{"decline", s.Decline}, {"reassign", s.Reassign}, {"bounce", s.Bounce}} {
			collectExprs(f.val, at(p, f.key), v.add, check)
		}
		for _, lc := range []struct {
			key string
			lc  *ListCheck
		}{{"events", s.Events}, {"emails", s.Emails}} {
			if lc.lc != nil {
				collectExprs(lc.lc.Filter, at(p, lc.key, "filter"), v.add, check)
				collectExprs(lc.lc.Sequence, at(p, lc.key, "sequence"), v.add, check)
				collectExprs(lc.lc.Contains, at(p, lc.key, "contains"), v.add, check)
				collectExprs(lc.lc.Absent, at(p, lc.key, "absent"), v.add, check)
			}
		}
		prev, dup := defined[s.Name]
		if s.Name != "" && !dup {
			// Expectations may refer to the step's own answer.
			defined[s.Name] = i
		}
		if s.Expect != nil {
			collectExprs(s.Expect.Body, at(p, "expect", "body"), v.add, check)
			collectExprs(s.Expect.Status, at(p, "expect", "status"), v.add, check)
			collectExprs(s.Expect.Headers, at(p, "expect", "headers"), v.add, check)
		}
		if s.Name != "" {
			if !nameRE.MatchString(s.Name) {
				v.add(at(p, "name"), "step name %q must be letters, digits, dots, dashes or underscores", s.Name)
			} else if dup {
				v.add(at(p, "name"), "step name %q is also used by steps[%d]", s.Name, prev)
			}
			defined[s.Name] = i
		}
	}
}

func (v *validator) hasRecording() bool { return v.doc.Recording != nil }

func (v *validator) stepNamed(name string) bool {
	for _, s := range v.doc.Steps {
		if s.Name == name {
			return true
		}
	}
	return false
}

func (v *validator) stepFields(s *Step, p []any, action string) {
	httpStep := action == "call" || action == "request"
	if !httpStep {
		for _, f := range []struct {
			key string
			set bool
		}{{"params", s.Params != nil}, {"query", s.Query != nil}, {"body", s.Body != nil}, {"files", len(s.Files) > 0}, {"form", s.Form}} {
			if f.set && action != "" {
				v.add(at(p, f.key), "%s is for call and request steps, not %s", f.key, action)
			}
		}
	}
	switch action {
	case "call":
		op, ok := v.voc.Op(s.Call)
		if !ok {
			v.add(at(p, "call"), "unknown operation %q (steps call operations by their official operationId, such as signatureRequestSend)", s.Call)
			break
		}
		want := PathParams(op.Path)
		for _, k := range sortedKeys(s.Params) {
			if !contains(want, k) {
				v.add(at(p, "params", k), "%s has no path parameter %q (it has: %s)", op.ID, k, strings.Join(want, ", "))
			}
		}
		for _, k := range want {
			if _, ok := s.Params[k]; !ok {
				v.add(at(p, "params"), "%s needs the path parameter %s", op.ID, k)
			}
		}
	case "request":
		if _, _, ok := SplitRequest(s.Request); !ok {
			v.add(at(p, "request"), "request is \"METHOD /path\", such as \"GET /v3/account\" or \"GET /_sandbox/emails\"")
		}
		if s.Params != nil {
			v.add(at(p, "params"), "params fill the path of call steps; write the path of a request step in full")
		}
	case "advance":
		switch a := s.Advance.(type) {
		case string:
			if !strings.Contains(a, "${") {
				v.durationAt(at(p, "advance"), a, true)
			}
		case map[string]any:
			for _, k := range sortedKeys(a) {
				if k != "to" {
					v.add(at(p, "advance", k), "advance takes a duration or {to: instant}")
				}
			}
			if _, ok := a["to"]; !ok {
				v.add(at(p, "advance"), "advance takes a duration or {to: instant}")
			}
		default:
			v.add(at(p, "advance"), "advance takes a duration (90s, 1h, 2d) or {to: instant}")
		}
	case "view", "sign", "decline", "reassign", "bounce":
		v.signerStep(s, p, action)
	case "events", "emails":
		lc := s.Events
		if action == "emails" {
			lc = s.Emails
		}
		q := at(p, action)
		if action == "events" && len(lc.Kinds) > 0 {
			v.add(at(q, "kinds"), "kinds are for emails; events have types")
		}
		if action == "emails" && len(lc.Types) > 0 {
			v.add(at(q, "types"), "types are for events; e-mails have kinds")
		}
		for i, t := range lc.Types {
			if v.voc != nil && !v.voc.knownEvent(t) {
				v.add(at(q, "types", i), "unknown event type %q", t)
			}
		}
		if t, ok := lc.Filter["event_type"].(string); ok && v.voc != nil && !v.voc.knownEvent(t) && !strings.Contains(t, "${") {
			v.add(at(q, "filter", "event_type"), "unknown event type %q", t)
		}
		allowedFilters := []string{"event_type", "object_id", "state", "account_id", "client_id", "url"}
		if action == "emails" {
			allowedFilters = []string{"to", "kind", "signature_request_id"}
		}
		for _, k := range sortedKeys(lc.Filter) {
			if !contains(allowedFilters, k) {
				v.add(at(q, "filter", k), "%s can be filtered by %s", action, strings.Join(allowedFilters, ", "))
			}
		}
		if lc.Count != nil {
			checkMatcher(lc.Count, at(q, "count"), v.add)
		}
		checkMatcher(lc.Sequence, at(q, "sequence"), v.add)
		checkMatcher(lc.Contains, at(q, "contains"), v.add)
		checkMatcher(lc.Absent, at(q, "absent"), v.add)
		if s.Expect != nil && (s.Expect.Body != nil || s.Expect.JSON != nil) {
			v.add(at(p, "expect"), "expectations of %s steps go in %s (count, %s, sequence, contains, absent)", action, action,
				map[string]string{"events": "types", "emails": "kinds"}[action])
		}
	}
	if s.Expect != nil {
		e := s.Expect
		q := at(p, "expect")
		if e.Status != nil {
			if n, ok := number(e.Status); ok {
				if !n.IsInt() || n.Cmp(bigInt(100)) < 0 || n.Cmp(bigInt(599)) > 0 {
					v.add(at(q, "status"), "status is an HTTP status (100-599)")
				}
			} else {
				checkMatcher(e.Status, at(q, "status"), v.add)
			}
		}
		if e.Error != "" && v.voc != nil && v.voc.ErrorStatus != nil {
			if _, ok := v.voc.ErrorStatus[e.Error]; !ok {
				v.add(at(q, "error"), "unknown error_name %q", e.Error)
			}
		}
		checkMatcher(e.Body, at(q, "body"), v.add)
		if e.BodySHA256 != "" && !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(e.BodySHA256) {
			v.add(at(q, "body_sha256"), "body_sha256 is 64 lowercase hex digits")
		}
		if !httpStep && action != "" && action != "events" && action != "emails" && !isSignerAction(action) && action != "advance" && action != "wait_callbacks" {
			v.add(q, "expect is for steps that call the sandbox")
		}
	}
	for i, f := range s.Files {
		if f.Name == "" {
			v.add(at(p, "files", i, "name"), "name is required")
		}
		if f.Text != "" && f.Base64 != "" {
			v.add(at(p, "files", i), "give text or base64, not both")
		}
	}
}

func isSignerAction(a string) bool {
	return contains([]string{"view", "sign", "decline", "reassign", "bounce"}, a)
}

func bigInt(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }

// signerStep checks view/sign/decline/reassign/bounce: a signature id, or
// a mapping with signature_id and the action's fields.
func (v *validator) signerStep(s *Step, p []any, action string) {
	val := map[string]any{"view": s.View, "sign": s.Sign, "decline": s.Decline, "reassign": s.Reassign, "bounce": s.Bounce}[action]
	fields := map[string][]string{
		"view": {"signature_id"}, "bounce": {"signature_id"}, "sign": {"signature_id", "values", "pin"},
		"decline": {"signature_id", "reason"}, "reassign": {"signature_id", "name", "email_address", "reason"},
	}[action]
	switch t := val.(type) {
	case string:
		if action == "reassign" {
			v.add(at(p, action), "reassign takes {signature_id, name, email_address, reason}")
		}
	case map[string]any:
		for _, k := range sortedKeys(t) {
			if !contains(fields, k) {
				v.add(at(p, action, k), "%s takes %s", action, strings.Join(fields, ", "))
			}
		}
		if _, ok := t["signature_id"]; !ok {
			v.add(at(p, action), "%s needs signature_id", action)
		}
	default:
		v.add(at(p, action), "%s takes a signature id or {signature_id, ...}", action)
	}
}
