package scenarioworld

// The hooks through which rules act: before API calls (respond, latency,
// gone), after template-creating calls (fail_template marks), while a
// request is processed (fail_file, fail_processing, bounce, signer_action)
// and before callback delivery attempts.

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// errorMessages are the messages of injected errors by name, as close to
// the real service's as the reference gives.
var errorMessages = map[string]string{
	string(apierr.Unauthorized):    apierr.MsgUnauthorizedInvalid,
	string(apierr.PaymentRequired): apierr.MsgPaymentRequired,
	string(apierr.NotFound):        apierr.MsgNotFound,
	string(apierr.Deleted):         apierr.MsgDeleted,
	string(apierr.ExceededRate):    apierr.MsgExceededRate,
	string(apierr.Conflict):        apierr.MsgConflict,
	string(apierr.Unavailable):     "The service is temporarily unavailable. Please try again later.",
	string(apierr.Maintenance):     "The service is down for maintenance. Please try again later.",
	string(apierr.Unknown):         "An unknown error occurred.",
}

// respondError is the answer of a respond rule.
func respondError(row *model.ScenarioRule, rs *scenario.Respond) *apierr.Error {
	name := rs.ErrorName
	if name == "" {
		name = scenario.StatusName(Vocabulary(), rs.Status)
	}
	msg := rs.ErrorMsg
	if msg == "" {
		msg = errorMessages[name]
	}
	if msg == "" {
		msg = "The request failed (scenario rule " + row.ID + ")."
	}
	e := &apierr.Error{Name: apierr.Name(name), Msg: msg, Path: rs.ErrorPath}
	if rs.Status != 0 && rs.Status != e.Name.Status() {
		e.StatusOverride = rs.Status
	}
	return e
}

// scenarioCallHook applies respond, latency and gone rules to an API call.
// callEffects are the effects of rules that act on API calls.
var callEffects = []string{scenario.EffectRespond, scenario.EffectLatency, scenario.EffectGone}

func scenarioCallHook(c *api.Call) (v any, err error, handled bool) {
	if c.World == nil {
		return nil, nil, false
	}
	// Most worlds have no rules: the rules of the last commit are read once
	// per commit, not once per call.
	rows := rulesIn(c.World.Store.ScenarioRules(), callEffects...)
	if len(rows) == 0 {
		return nil, nil, false
	}
	defer guard(c.World, "call")
	sub := callSubject(c)
	// Most calls match no rule: only a match is worth a write.
	matched := false
	for _, row := range rows {
		if spec := ruleSpec(row); spec != nil && sub.matches(spec.Match) {
			matched = true
			break
		}
	}
	if !matched {
		return nil, nil, false
	}
	var answer *apierr.Error
	var latency time.Duration
	// gone applies to calls on a signature request only.
	onRequest := strings.Contains(routePathOf(c), "{signature_request_id}")
	uerr := c.Update(func(tx *state.Txn) error {
		rows := slices.DeleteFunc(rulesFor(tx, callEffects...), func(r *model.ScenarioRule) bool {
			return r.Effect == scenario.EffectGone && !onRequest
		})
		return fireRules(tx, c.World.Logger(), rows, sub, tx.Now(), func(row *model.ScenarioRule, spec *scenario.Rule) (bool, error) {
			switch row.Effect {
			case scenario.EffectLatency:
				d, _ := scenario.ParseDuration(spec.Latency)
				latency += d
			case scenario.EffectRespond:
				answer = respondError(row, spec.Respond)
			case scenario.EffectGone:
				answer = apierr.Gone()
			}
			return answer != nil, nil
		})
	})
	if uerr != nil {
		c.World.Logger().Warn("scenario rules: counters not updated", "err", uerr)
	}
	wait(c, latency)
	if answer != nil {
		return nil, answer, true
	}
	return nil, nil, false
}

func routePathOf(c *api.Call) string {
	if c.Route == nil {
		return ""
	}
	return c.Route.Path
}

// wait applies a latency rule. On a real clock the call waits (at most
// scenario.MaxLatency, and no longer than the client does). On a fake
// clock (a replay's too) it does not: the world's time only moves when it is advanced, so
// waiting on it would hang the call; the rule's fired counter (GET
// /_sandbox/scenarios) shows it applied.
func wait(c *api.Call, d time.Duration) {
	if d <= 0 || !c.World.TimeFlows() {
		return
	}
	if d > scenario.MaxLatency {
		d = scenario.MaxLatency
	}
	t := c.World.Clock().NewTimer(d)
	defer t.Stop()
	select {
	case <-t.Chan():
	case <-c.Request.Context().Done():
	case <-c.World.Stopped():
	}
}

// Kinds of marks rules leave on objects.
const markFailTemplate = "fail_template"

// scenarioTemplateMarks runs after template-creating calls: a matching
// fail_template rule marks the new template, whose preparation job will
// then end in template_error.
func scenarioTemplateMarks(c *api.Call, v any, err error) {
	if err != nil || c.World == nil || !slices.Contains(scenario.TemplateOperations, c.OperationID()) {
		return
	}
	defer guard(c.World, "template")
	if len(rulesFor(c.Read(), scenario.EffectFailTemplate)) == 0 {
		return
	}
	id := templateIDOf(v)
	if id == "" {
		return
	}
	sub := callSubject(c)
	sub.objectIDs = append(sub.objectIDs, id)
	uerr := c.Update(func(tx *state.Txn) error {
		return fireRules(tx, c.World.Logger(), rulesFor(tx, scenario.EffectFailTemplate), sub, tx.Now(), func(row *model.ScenarioRule, spec *scenario.Rule) (bool, error) {
			msg := spec.FailTemplate.Message
			return true, state.Put(tx, state.TableScenarioMarks, &model.ScenarioMark{
				ID: state.ScenarioMarkID(markFailTemplate, id), Kind: markFailTemplate, ObjectID: id, Rule: row.ID, Message: msg})
		})
	})
	if uerr != nil {
		c.World.Logger().Warn("scenario rules: template mark not stored", "err", uerr)
	}
}

// templateIDOf reads template.template_id from a handler's result.
func templateIDOf(v any) string {
	if ws, ok := v.(api.WithStatus); ok {
		v = ws.Value
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var out struct {
		Template struct {
			TemplateID string `json:"template_id"`
		} `json:"template"`
	}
	if json.Unmarshal(b, &out) != nil {
		return ""
	}
	return out.Template.TemplateID
}

// forcedFailures are the template failures a seed asks for while it runs
// its own preparation (the hook cannot see the seeding transaction's
// marks): template id -> message. They live in the seeding world
// (world.Ext), so that no other world, in this sandbox or another one in
// the process, ever sees them.
type forcedFailures struct {
	mu  sync.Mutex
	msg map[string]string
}

// forcedExt is the forced failures' key in world.Ext.
const forcedExt = "scenarioworld.forced"

func forcedOf(w *world.World) *forcedFailures {
	return world.Ext(w, forcedExt, func() *forcedFailures { return &forcedFailures{msg: map[string]string{}} })
}

// forceTemplateFailure makes the template's preparation in w fail with msg
// until it is called again with msg "".
func forceTemplateFailure(w *world.World, templateID, msg string) {
	f := forcedOf(w)
	f.mu.Lock()
	defer f.mu.Unlock()
	if msg == "" {
		delete(f.msg, templateID)
		return
	}
	f.msg[templateID] = msg
}

// forcedTemplateFailure returns the failure forced on the template in w.
func forcedTemplateFailure(w *world.World, templateID string) (string, bool) {
	f := world.Lookup[forcedFailures](w, forcedExt)
	if f == nil {
		return "", false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	msg, ok := f.msg[templateID]
	return msg, ok
}

// scenarioTemplateFailure is the templates code's failure hook: it runs in
// the preparation job and fails marked templates. It reads the committed
// marks (a mark is always committed before the job that reads it runs).
func scenarioTemplateFailure(w *world.World, t *model.Template) (bool, string) {
	defer guard(w, "template failure")
	if msg, ok := forcedTemplateFailure(w, t.ID); ok {
		return true, msg
	}
	m, err := state.Get[model.ScenarioMark](w.Store.Read(), state.TableScenarioMarks, state.ScenarioMarkID(markFailTemplate, t.ID))
	if err != nil {
		return false, ""
	}
	return true, m.Message
}

// requestSubject describes a signature request for matching.
func requestSubject(req *model.SignatureRequest) *subject {
	sub := &subject{account: req.RequesterEmail, objectIDs: []string{req.ID}}
	if v, err := jsonValue(sigreq.View(req, req.RequesterAccountID)); err == nil {
		sub.fields = v
	}
	for _, sg := range req.Signatures {
		sub.signers = append(sub.signers, sg.Email)
	}
	return sub
}

// defaultFileError is the message of an injected file failure.
const defaultFileError = "The file could not be converted."

// scenarioProcessFault runs while a request is processed: a fail_file or
// fail_processing rule fails it (internal/sigreq/failures.go); bounce and
// signer_action rules schedule their effect for the matching signers.
func scenarioProcessFault(s *api.Host, w *world.World, tx *state.Txn, req *model.SignatureRequest) (fail *api.ProcessFailure) {
	defer guard(w, "process")
	rows := rulesFor(tx, scenario.EffectFailFile, scenario.EffectFailProcessing, scenario.EffectBounce, scenario.EffectSignerAction)
	if len(rows) == 0 {
		return nil
	}
	sub := requestSubject(req)
	// A failure first: a request that fails is never sent.
	failure := func(r *model.ScenarioRule) bool {
		return r.Effect == scenario.EffectFailFile || r.Effect == scenario.EffectFailProcessing
	}
	sort.SliceStable(rows, func(i, j int) bool { return failure(rows[i]) && !failure(rows[j]) })
	err := fireRules(tx, w.Logger(), rows, sub, tx.Now(), func(row *model.ScenarioRule, spec *scenario.Rule) (bool, error) {
		switch row.Effect {
		case scenario.EffectFailFile:
			fail = &api.ProcessFailure{StatusCode: model.SigErrorFile, Message: spec.FailFile.Message}
			if fail.Message == "" {
				fail.Message = defaultFileError
			}
			return true, nil
		case scenario.EffectFailProcessing:
			fail = &api.ProcessFailure{StatusCode: spec.FailProcessing.StatusCode, Message: spec.FailProcessing.Message}
			if fail.StatusCode == model.SigErrorInvalidEmail && spec.Match != nil && spec.Match.Signer != "" {
				// The address at fault is the matching signers'.
				for _, sg := range req.Signatures {
					if scenario.Glob(spec.Match.Signer, sg.Email) {
						fail.SignatureIDs = append(fail.SignatureIDs, sg.ID)
					}
				}
			}
			return true, nil
		case scenario.EffectBounce, scenario.EffectSignerAction:
			glob := ""
			if spec.Match != nil {
				glob = spec.Match.Signer
			}
			if err := scheduleSignerEffects(tx, req, row, spec, glob); err != nil {
				w.Logger().Warn("scenario rules: effect not scheduled", "rule", row.ID, "err", err)
			}
		}
		return false, nil
	})
	if err != nil {
		w.Logger().Warn("scenario rules: counter not updated", "err", err)
	}
	return fail
}

// scenarioCallbackFault makes delivery attempts fail while a callback rule
// matches (its window is checked against the attempt's due time).
func scenarioCallbackFault(s *api.Host, w *world.World, a api.CallbackAttempt) (fault api.CallbackFault, reason string) {
	defer guard(w, "callback")
	if len(rulesFor(w.Store.Read(), scenario.EffectCallback)) == 0 {
		return api.FaultNone, ""
	}
	sub := &subject{event: a.EventType}
	read := w.Store.Read()
	if ev, err := state.Get[model.Event](read, state.TableEvents, a.EventID); err == nil && ev.ObjectID != "" {
		sub.objectIDs = []string{ev.ObjectID}
	}
	if acct, err := state.Get[model.Account](read, state.TableAccounts, a.AccountID); err == nil {
		sub.account = acct.Email
	}
	err := w.Store.Update(func(tx *state.Txn) error {
		return fireRules(tx, w.Logger(), rulesFor(tx, scenario.EffectCallback), sub, a.DueAt, func(row *model.ScenarioRule, spec *scenario.Rule) (bool, error) {
			reason = "scenario rule " + row.ID + ": the receiver is unreachable"
			fault = api.FaultUnreachable
			if spec.Callback.Fault == "reject" {
				reason = "scenario rule " + row.ID + ": the receiver's answer counts as a failure"
				fault = api.FaultRejectAnswer
			}
			return true, nil
		})
	})
	if err != nil {
		w.Logger().Warn("scenario rules: callback counters not updated", "err", err)
	}
	return fault, reason
}
