package scenario

// Validation of steps: one action each, known operations and path
// parameters, expressions that refer to earlier steps and seeded refs,
// valid matchers.

import (
	"math/big"
	"regexp"
	"slices"
	"strings"
)

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

var (
	methodRE = regexp.MustCompile(`^(GET|POST|PUT|DELETE|PATCH|HEAD) (/\S*)$`)
	sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

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
				case len(e.Path) > 1 && !slices.Contains([]string{"status", "body", "headers"}, e.Path[1].Key):
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
		if s.Name != "" {
			// Expectations may refer to the step's own answer (a name used
			// twice refers to the later step from here on, as in a run).
			defined[s.Name] = i
		}
		if s.Expect != nil {
			collectExprs(s.Expect.Body, at(p, "expect", "body"), v.add, check)
			collectExprs(s.Expect.Status, at(p, "expect", "status"), v.add, check)
			collectExprs(s.Expect.Headers, at(p, "expect", "headers"), v.add, check)
		}
		if s.Name != "" && !nameRE.MatchString(s.Name) {
			v.add(at(p, "name"), "step name %q must be letters, digits, dots, dashes or underscores", s.Name)
		} else if s.Name != "" && dup {
			v.add(at(p, "name"), "step name %q is also used by steps[%d]", s.Name, prev)
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
			if !slices.Contains(want, k) {
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
			if !slices.Contains(allowedFilters, k) {
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
		if e.BodySHA256 != "" && !sha256RE.MatchString(e.BodySHA256) {
			v.add(at(q, "body_sha256"), "body_sha256 is 64 lowercase hex digits")
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
			if !slices.Contains(fields, k) {
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
