package scenario

// Validation of rules: one effect each, match conditions that apply to
// where the effect is evaluated, limits that do not contradict themselves.

import (
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
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
	add(r.FailProcessing != nil, EffectFailProcessing)
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
	EffectFailFile:       {"fields", "signer", "object_id", "account"},
	EffectFailProcessing: {"fields", "signer", "object_id", "account"},
	EffectBounce:         {"fields", "signer", "object_id", "account"},
	EffectSignerAction:   {"fields", "signer", "object_id", "account"},
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

func (v *validator) rule(r *Rule, p []any) {
	effects := r.effects()
	switch len(effects) {
	case 0:
		v.add(p, "a rule needs one effect: respond, latency, gone, fail_template, fail_file, fail_processing, bounce, signer_action, callback, exhaust_quota or rate_limit")
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
			for _, op := range Names(r.Match.Operation) {
				if !slices.Contains(TemplateOperations, op) {
					v.add(at(p, "match", "operation"), "fail_template applies to calls that create a template to prepare (%s), not %s",
						strings.Join(TemplateOperations, ", "), op)
				}
			}
		}
	case EffectFailProcessing:
		switch code := r.FailProcessing.StatusCode; {
		case code == "":
			v.add(at(p, "fail_processing", "status_code"), "status_code is required: one of %s", strings.Join(ProcessingStatusCodes, ", "))
		case !slices.Contains(ProcessingStatusCodes, code):
			v.add(at(p, "fail_processing", "status_code"), "unknown status_code %q (one of %s)", code, strings.Join(ProcessingStatusCodes, ", "))
		}
	case EffectBounce:
		if r.Bounce.After != "" {
			v.durationAt(at(p, "bounce", "after"), r.Bounce.After, true)
		}
	case EffectSignerAction:
		sa := r.SignerAction
		if !slices.Contains([]string{"view", "sign", "decline"}, sa.Do) {
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
		if !slices.Contains([]string{"unreachable", "reject"}, r.Callback.Fault) {
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

// Names reads a match condition written as one name or a list of names
// (match.operation, match.event); entries that are not text are left out.
func Names(v any) []string {
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
		if given[k] && !slices.Contains(allowed, k) {
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
		for i, id := range Names(m.Operation) {
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
		if !slices.Contains([]string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch}, strings.ToUpper(m.Method)) {
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
