package scenario

import (
	"fmt"
	"regexp"
	"slices"
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
	// EffectFailProcessing is fail_file for every signature error status.
	EffectFailProcessing = "fail_processing"
	EffectBounce         = "bounce"
	EffectSignerAction   = "signer_action"
	EffectCallback       = "callback"
	EffectExhaustQuota   = "exhaust_quota"
	EffectRateLimit      = "rate_limit"
)

// SeedRequestOperations are the operations a seeded request may be made
// with.
var SeedRequestOperations = []string{
	"signatureRequestSend", "signatureRequestCreateEmbedded",
	"signatureRequestSendWithTemplate", "signatureRequestCreateEmbeddedWithTemplate",
}

// Seeded request states: the error states are ProcessingStatusCodes.
var seedRequestStates = append([]string{"processing", "sent", "completed", "declined", "canceled", "expired"}, ProcessingStatusCodes...)

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
		if a.RoleCode != nil && !slices.Contains([]string{"a", "m", "d", "t"}, *a.RoleCode) {
			v.add(at(p, "role_code"), "role_code is a (admin), m (member), d (developer) or t (team manager)")
		}
		if a.RoleCode != nil && a.Team != nil && !*a.Team {
			v.add(at(p, "role_code"), "role_code needs team: true (an account without a team has no role)")
		}
		for _, k := range sortedKeys(a.Quotas) {
			if !slices.Contains([]string{"api_signature_requests_left", "documents_left", "templates_total", "templates_left",
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
		if t.State != "" && !slices.Contains([]string{"ready", "preparing", "error"}, t.State) {
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
		case !slices.Contains(SeedRequestOperations, op):
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
		if !slices.Contains(seedRequestStates, state) {
			v.add(at(p, "state"), "state is one of %s", strings.Join(seedRequestStates, ", "))
		}
		failed := slices.Contains(ProcessingStatusCodes, state)
		if r.Message != "" && !failed && state != "declined" {
			v.add(at(p, "message"), "message is the error of an error state or the reason of declined, not used by %s", state)
		}
		if len(r.Actions) > 0 && (state == "processing" || failed) {
			v.add(at(p, "actions"), "a request in state %s was never sent, so no signer can act on it", state)
		}
		for j, a := range r.Actions {
			ap := at(p, "actions", j)
			if !slices.Contains([]string{"view", "sign", "decline", "bounce"}, a.Do) {
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
