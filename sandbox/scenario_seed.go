package sandbox

// Seeding: the objects a scenario starts the world with, created through
// the sandbox's own entry points (the template and signature request code,
// the signer transitions, the scheduler's job functions) so that a seeded
// object is exactly what the API would have made, history included: its
// events and e-mails are in the logs like those of any other object.
//
// planSeed decodes and validates every body and converts the documents
// before any transaction (as the API handlers do); apply writes everything
// in the loader's one transaction.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// seedPlan is a scenario's seed, checked and ready to write.
type seedPlan struct {
	s         *Sandbox
	w         *world.World
	p         *scenario.Parsed
	r         *http.Request
	templates []*seedTemplatePlan
	requests  []*seedRequestPlan
	// tplIDs maps template refs to the ids they got.
	tplIDs map[string]string
}

type seedTemplatePlan struct {
	at      []any
	spec    *scenario.SeedTemplate
	in      tplContentInput
	content *tplContent
	pending []pendingDocument
}

type seedRequestPlan struct {
	at      []any
	spec    *scenario.SeedRequest
	op      sigreqOp
	body    sigreqBody
	req     *sigreqSpec
	tb      *templateBody
	pending []pendingDocument
}

// seedRequest is the request seeding calls pretend to be: the loading
// control call, or a stand-in with the configured base URL.
func (s *Sandbox) seedRequest(r *http.Request) *http.Request {
	if r != nil {
		return r
	}
	req, _ := http.NewRequest(http.MethodPost, "http://localhost/_sandbox/scenarios", nil)
	return req
}

// seedCall builds the call seeding code hands to the API's helpers, with
// body as its decoded parameters.
func (pl *seedPlan) seedCall(body map[string]any, docs []scenario.SeedDocument) *call {
	b := &wire.Body{Tree: map[string]any{}, Files: map[string][]wire.File{}}
	for k, v := range body {
		b.Tree[k] = v
	}
	for i, d := range docs {
		text := d.Text
		if text == "" {
			text = "Document " + d.Name + " seeded by scenario " + pl.p.Doc.Name + "."
		}
		b.Files["files"] = append(b.Files["files"], wire.File{Field: fmt.Sprintf("files[%d]", i), Name: d.Name,
			ContentType: "text/plain", Data: []byte(text)})
	}
	return &call{s: pl.s, w: pl.w, r: pl.r, body: b}
}

// planSeed checks the seed's bodies and converts its documents.
func (s *Sandbox) planSeed(w *world.World, p *scenario.Parsed, r *http.Request) (*seedPlan, error) {
	pl := &seedPlan{s: s, w: w, p: p, r: s.seedRequest(r), tplIDs: map[string]string{}}
	sd := p.Doc.Seed
	if sd == nil {
		return pl, nil
	}
	for i := range sd.Templates {
		t := &sd.Templates[i]
		tp := &seedTemplatePlan{at: []any{"seed", "templates", i}, spec: t}
		docs := t.Documents
		if len(docs) == 0 {
			docs = []scenario.SeedDocument{{Name: t.Ref + ".txt"}}
		}
		c := pl.seedCall(t.Body, docs)
		if err := c.bind(&tp.in); err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
		content, err := buildTemplateContent(&tp.in, true, true, c.has(tplFieldsPath))
		if err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
		tp.content = content
		if tp.pending, err = s.collectDocuments(c, tp.in.Files, nil); err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
		preview := make([]state.Document, len(tp.pending))
		for j, d := range tp.pending {
			preview[j] = d.doc
		}
		if err := checkTemplateDocuments(content, preview); err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
		pl.templates = append(pl.templates, tp)
	}
	for i := range sd.SignatureRequests {
		rq := &sd.SignatureRequests[i]
		rp := &seedRequestPlan{at: []any{"seed", "signature_requests", i}, spec: rq}
		opID := rq.Operation
		if opID == "" {
			opID = "signatureRequestSend"
		}
		rp.op = sigreqOp{embedded: strings.Contains(opID, "Embedded"), template: strings.HasSuffix(opID, "WithTemplate")}
		docs := rq.Documents
		if len(docs) == 0 && !rp.op.template {
			docs = []scenario.SeedDocument{{Name: rq.Ref + ".txt"}}
		}
		body := rq.Body
		if rp.op.template {
			// The templates get their ids in the transaction; stand-ins
			// pass the body checks until then.
			body = map[string]any{}
			for k, v := range rq.Body {
				body[k] = v
			}
			ids := make([]any, len(rq.Templates))
			for j, ref := range rq.Templates {
				ids[j] = "seed:" + ref
			}
			body["template_ids"] = ids
		}
		c := pl.seedCall(body, docs)
		if err := c.bind(&rp.body); err != nil {
			return nil, pl.apiIssue(rp.at, err)
		}
		spec, e := c.sigreqSpecOf(&rp.body, rp.op)
		if e != nil {
			return nil, pl.apiIssue(rp.at, e)
		}
		rp.req = spec
		var fields []parsedField
		if rp.op.template {
			if rp.tb, e = checkTemplateBody(c, &rp.body); e != nil {
				return nil, pl.apiIssue(rp.at, e)
			}
		} else if fields, e = decodeFormFields(rp.body.FormFieldsPerDocument); e != nil {
			return nil, pl.apiIssue(rp.at, e)
		}
		if len(rp.body.Files) > 0 {
			pending, err := s.collectDocuments(c, rp.body.Files, nil)
			if err != nil {
				return nil, pl.apiIssue(rp.at, err)
			}
			rp.pending = pending
		}
		if !rp.op.template {
			if e := spec.addFields(&rp.body, fields, rp.pending); e != nil {
				return nil, pl.apiIssue(rp.at, e)
			}
		}
		pl.requests = append(pl.requests, rp)
	}
	return pl, nil
}

// apiIssue locates an API error of a seeded body at its parameter.
func (pl *seedPlan) apiIssue(at []any, err error) error {
	e, ok := apierr.As(err)
	if !ok {
		return pl.p.Issue(at, err.Error())
	}
	path := append(append([]any(nil), at...), "body")
	if e.Path != "" {
		for _, part := range strings.FieldsFunc(e.Path, func(r rune) bool { return r == '[' || r == ']' }) {
			if n, err := parseInt64(part); err == nil {
				path = append(path, int(n))
			} else {
				path = append(path, part)
			}
		}
	}
	return pl.p.Issue(path, fmt.Sprintf("%s: %s", e.Name, e.Msg))
}

// account finds an account by e-mail ("" is the world's first account).
func (pl *seedPlan) account(tx *state.Txn, email string, at []any) (*state.Account, error) {
	if email == "" {
		a, err := state.Get[state.Account](tx, state.TableAccounts, pl.s.fixtures.Accounts[0].ID)
		if err != nil {
			return nil, pl.p.Issue(at, "the world has no first account")
		}
		return a, nil
	}
	a, err := state.AccountByEmail(tx, email)
	if err != nil {
		return nil, pl.p.Issue(at, "no account "+email+" in this world (seed it under seed.accounts)")
	}
	return a, nil
}

// apply writes the seed in tx and answers the seeded objects by ref.
func (pl *seedPlan) apply(tx *state.Txn) (map[string]any, error) {
	out := map[string]any{}
	sd := pl.p.Doc.Seed
	if sd == nil {
		return out, nil
	}
	for i := range sd.Accounts {
		a, err := pl.seedAccount(tx, &sd.Accounts[i], []any{"seed", "accounts", i})
		if err != nil {
			return nil, err
		}
		if ref := sd.Accounts[i].Ref; ref != "" {
			out[ref] = seededAccount(tx, a)
		}
	}
	for i, k := range sd.APIKeys {
		at := []any{"seed", "api_keys", i}
		a, err := pl.account(tx, k.Account, append(at, "account"))
		if err != nil {
			return nil, err
		}
		key, err := seedAPIKey(tx, a, k.Name, k.Primary)
		if err != nil {
			return nil, pl.p.Issue(at, err.Error())
		}
		if k.Ref != "" {
			out[k.Ref] = map[string]any{"api_key": key, "account_id": a.ID, "email_address": a.Email}
		}
	}
	for i, app := range sd.APIApps {
		at := []any{"seed", "api_apps", i}
		row, err := pl.seedApp(tx, app, at)
		if err != nil {
			return nil, err
		}
		if app.Ref != "" {
			v := map[string]any{"client_id": row.ClientID, "name": row.Name, "owner_account_id": row.OwnerAccountID}
			if row.OAuth != nil {
				v["client_secret"] = row.OAuth.Secret
			}
			out[app.Ref] = v
		}
	}
	for _, tp := range pl.templates {
		view, err := pl.seedTemplate(tx, tp)
		if err != nil {
			return nil, err
		}
		out[tp.spec.Ref] = view
	}
	for _, rp := range pl.requests {
		view, err := pl.seedSignatureRequest(tx, rp)
		if err != nil {
			return nil, err
		}
		out[rp.spec.Ref] = view
	}
	return out, nil
}

// seededAccount is how a seeded account appears under ${seed.REF}.
func seededAccount(tx *state.Txn, a *state.Account) map[string]any {
	return map[string]any{"account_id": a.ID, "email_address": a.Email, "api_key": state.PrimaryKeyOf(tx, a.ID)}
}

// seedAccount creates an account or changes the one with the address.
func (pl *seedPlan) seedAccount(tx *state.Txn, sa *scenario.SeedAccount, at []any) (*state.Account, error) {
	existing, err := state.AccountByEmail(tx, sa.EmailAddress)
	var a *state.Account
	created := err != nil
	if created {
		a = &state.Account{ID: tx.NewID(), Email: sa.EmailAddress, EmailKey: state.EmailKey(sa.EmailAddress), Locale: "en-US",
			CreatedAt: tx.Unix(), Confirmed: true, Seq: tx.Seq()}
	} else {
		a = state.Clone(existing)
	}
	if sa.Name != nil {
		a.Name = *sa.Name
	}
	if sa.Team != nil {
		if *sa.Team {
			first, err := state.Get[state.Account](tx, state.TableAccounts, pl.s.fixtures.Accounts[0].ID)
			if err != nil || first.TeamID == "" {
				return nil, pl.p.Issue(append(at, "team"), "the world's first account has no team to join")
			}
			a.TeamID = first.TeamID
			if a.RoleCode == "" {
				a.RoleCode = "m"
			}
		} else {
			a.TeamID, a.RoleCode = "", ""
		}
	}
	if sa.RoleCode != nil {
		if a.TeamID == "" {
			return nil, pl.p.Issue(append(at, "role_code"), "the account is in no team, so it has no role (add team: true)")
		}
		a.RoleCode = *sa.RoleCode
	}
	for _, k := range sortedStringKeys(sa.Quotas) {
		var v *int
		if raw := sa.Quotas[k]; raw != nil {
			n, err := parseInt64(fmt.Sprint(raw))
			if err != nil {
				return nil, pl.p.Issue(append(at, "quotas", k), "a quota is a whole number or null")
			}
			v = intPtr(int(n))
		}
		switch k {
		case "api_signature_requests_left":
			a.Quotas.APISignatureRequestsLeft = v
		case "documents_left":
			a.Quotas.DocumentsLeft = v
		case "templates_total":
			a.Quotas.TemplatesTotal = v
		case "templates_left":
			a.Quotas.TemplatesLeft = v
		case "sms_verifications_left":
			a.Quotas.SMSVerificationsLeft = v
		case "num_fax_pages_left":
			a.Quotas.NumFaxPagesLeft = v
		}
	}
	callbackChanged := false
	if sa.CallbackURL != nil && *sa.CallbackURL != a.CallbackURL {
		if *sa.CallbackURL != "" {
			if err := checkFileURL(*sa.CallbackURL); err != nil {
				return nil, pl.p.Issue(append(at, "callback_url"), "callback_url must be an absolute http(s) URL")
			}
		}
		a.CallbackURL, callbackChanged = *sa.CallbackURL, *sa.CallbackURL != ""
	}
	if err := state.Put(tx, state.TableAccounts, a); err != nil {
		return nil, pl.p.Issue(append(at, "email_address"), err.Error())
	}
	if created {
		if _, err := seedAPIKey(tx, a, "Primary key", true); err != nil {
			return nil, err
		}
	}
	if callbackChanged && onAccountCallbackSet != nil {
		if err := onAccountCallbackSet(pl.s, pl.w, tx, a); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// seedAPIKey adds a key from the world's sequence.
func seedAPIKey(tx *state.Txn, a *state.Account, name string, primary bool) (string, error) {
	keys, err := state.APIKeysOf(tx, a.ID)
	if err != nil {
		return "", err
	}
	if len(keys) >= state.MaxAPIKeys {
		return "", fmt.Errorf("account %s already has %d API keys, the most an account can have", a.Email, state.MaxAPIKeys)
	}
	if len(keys) == 0 {
		primary = true
	}
	if primary {
		for _, k := range keys {
			if k.Primary {
				c := state.Clone(k)
				c.Primary = false
				if err := state.Put(tx, state.TableAPIKeys, c); err != nil {
					return "", err
				}
			}
		}
	}
	if name == "" {
		name = "Scenario key"
	}
	row := &state.APIKey{Key: tx.NewSecret(), AccountID: a.ID, Name: name, Primary: primary, CreatedAt: tx.Unix(), Seq: tx.Seq()}
	return row.Key, state.Put(tx, state.TableAPIKeys, row)
}

// seedApp adds an API app.
func (pl *seedPlan) seedApp(tx *state.Txn, app scenario.SeedAPIApp, at []any) (*state.APIApp, error) {
	owner, err := pl.account(tx, app.Owner, append(at, "owner"))
	if err != nil {
		return nil, err
	}
	row := &state.APIApp{ClientID: tx.NewID()[:32], OwnerAccountID: owner.ID, Name: app.Name, Domains: app.Domains,
		CallbackURL: app.CallbackURL, CreatedAt: tx.Unix(), Seq: tx.Seq()}
	if row.Domains == nil {
		row.Domains = []string{}
	}
	if app.CallbackURL != "" {
		if err := checkFileURL(app.CallbackURL); err != nil {
			return nil, pl.p.Issue(append(at, "callback_url"), "callback_url must be an absolute http(s) URL")
		}
	}
	if o := app.OAuth; o != nil {
		row.OAuth = &state.APIAppOAuth{CallbackURL: o.CallbackURL, Secret: tx.NewSecret()[:32], Scopes: append([]string{}, o.Scopes...)}
	}
	if err := state.Put(tx, state.TableAPIApps, row); err != nil {
		return nil, err
	}
	if row.CallbackURL != "" && onAppCallbackSet != nil {
		if err := onAppCallbackSet(pl.s, pl.w, tx, row); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// runJobsNow runs the queued jobs of an object of the given kinds at once,
// in queue order, as the scheduler would when their time comes: seeded
// objects start out processed.
func (pl *seedPlan) runJobsNow(tx *state.Txn, subject string, kinds ...string) error {
	for {
		jobs, err := state.JobsOf(tx, subject)
		if err != nil {
			return err
		}
		var next *state.Job
		for _, j := range jobs {
			if slices.Contains(kinds, j.Kind) && (next == nil || j.Due < next.Due || j.Due == next.Due && j.Seq < next.Seq) {
				next = j
			}
		}
		if next == nil {
			return nil
		}
		if err := tx.Delete(state.TableJobs, next); err != nil {
			return err
		}
		fn := jobKinds[next.Kind]
		if fn == nil {
			return fmt.Errorf("no job function for %s", next.Kind)
		}
		if err := fn(pl.s, pl.w, tx, next); err != nil {
			return err
		}
	}
}

// seedTemplate creates a template as template/create does and prepares it
// now (ready), leaves it preparing, or makes its preparation fail (error).
func (pl *seedPlan) seedTemplate(tx *state.Txn, tp *seedTemplatePlan) (any, error) {
	owner, err := pl.account(tx, tp.spec.As, append(tp.at, "as"))
	if err != nil {
		return nil, err
	}
	if tp.in.ClientID != "" {
		if err := templateApp(tx, owner.ID, tp.in.ClientID); err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
	}
	docs, err := storeDocuments(tx, tp.pending)
	if err != nil {
		return nil, pl.apiIssue(tp.at, err)
	}
	t := newTemplate(tx, owner.ID, tp.content, docs)
	t.ClientID, t.AllowReassign, t.UsePreexistingFields, t.TestMode = tp.in.ClientID, tp.in.AllowReassign, tp.in.UsePreexistingFields, tp.in.TestMode
	if err := settleTemplateQuota(tx, t); err != nil {
		return nil, pl.apiIssue(append(tp.at, "as"), err)
	}
	if err := startTemplatePreparation(tx, t); err != nil {
		return nil, err
	}
	if err := state.PutTemplate(tx, t); err != nil {
		return nil, err
	}
	pl.tplIDs[tp.spec.Ref] = t.ID
	switch tp.spec.State {
	case "preparing":
	case "error":
		forceTemplateFailure(pl.w, t.ID, "The template could not be created (seeded by scenario "+pl.p.Doc.Name+").")
		err := pl.runJobsNow(tx, t.ID, jobTemplatePrepare, jobFilesPrepare)
		forceTemplateFailure(pl.w, t.ID, "")
		if err != nil {
			return nil, err
		}
	default:
		if err := pl.runJobsNow(tx, t.ID, jobTemplatePrepare, jobFilesPrepare); err != nil {
			return nil, err
		}
	}
	cur, err := state.GetTemplate(tx, t.ID)
	if err != nil {
		return nil, err
	}
	return jsonValue(viewTemplate(tx, cur, owner.ID))
}

// jsonValue gives a view as JSON shapes (what ${seed...} resolves in).
func jsonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return scenario.DecodeJSON(b)
}

// seedSignatureRequest creates a request as its operation would, then
// moves it to the seeded state through the signer transitions.
func (pl *seedPlan) seedSignatureRequest(tx *state.Txn, rp *seedRequestPlan) (any, error) {
	acct, err := pl.account(tx, rp.spec.As, append(rp.at, "as"))
	if err != nil {
		return nil, err
	}
	c := pl.seedCall(rp.spec.Body, nil)
	c.account = acct
	spec := rp.req
	spec.Requester = acct
	if e := checkClientID(tx, acct, spec.ClientID, rp.op.embedded, spec.TestMode); e != nil {
		return nil, pl.apiIssue(rp.at, e)
	}
	stored, err := storeDocuments(tx, rp.pending)
	if err != nil {
		return nil, pl.apiIssue(rp.at, err)
	}
	if rp.op.template {
		tb := *rp.tb
		tb.TemplateIDs = make([]string, len(rp.spec.Templates))
		for i, ref := range rp.spec.Templates {
			tb.TemplateIDs[i] = pl.tplIDs[ref]
		}
		if err := bindTemplate(c, tx, spec, &tb, stored); err != nil {
			if e, ok := apierr.As(err); ok && strings.HasPrefix(e.Path, "template_ids") {
				return nil, pl.p.Issue(append(rp.at, "templates"), fmt.Sprintf("%s: %s", e.Name, e.Msg))
			}
			return nil, pl.apiIssue(rp.at, err)
		}
	} else {
		spec.Documents = stored
	}
	if spec.Title == "" && len(spec.Documents) > 0 {
		spec.Title = titleFromDocument(spec.Documents[0])
	}
	req, err := pl.s.createSignatureRequest(tx, spec)
	if err != nil {
		return nil, pl.apiIssue(append(rp.at, "as"), err)
	}
	if err := pl.moveRequest(tx, rp, req.ID); err != nil {
		return nil, err
	}
	if err := pl.runJobsNow(tx, req.ID, jobFilesPrepare, jobSigreqDownloadable); err != nil {
		return nil, err
	}
	cur, err := state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, req.ID)
	if err != nil {
		return nil, err
	}
	return jsonValue(viewSignatureRequest(cur, acct.ID))
}

// moveRequest processes a seeded request and applies its actions and
// state.
func (pl *seedPlan) moveRequest(tx *state.Txn, rp *seedRequestPlan, id string) error {
	get := func() (*state.SignatureRequest, error) {
		return state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, id)
	}
	st := rp.spec.State
	if st == "" {
		st = "sent"
	}
	switch st {
	case "processing":
		return nil
	case "error_file":
		if err := state.CancelJobs(tx, id, jobSigreqProcess); err != nil {
			return err
		}
		req, err := get()
		if err != nil {
			return err
		}
		msg := rp.spec.Message
		if msg == "" {
			msg = "The file could not be converted."
		}
		return pl.s.applyOutcome(tx, tProcess(req, msg, tx.Unix()))
	}
	if err := pl.runJobsNow(tx, id, jobSigreqProcess); err != nil {
		return err
	}
	for i, a := range rp.spec.Actions {
		at := append(append([]any(nil), rp.at...), "actions", i)
		req, err := get()
		if err != nil {
			return err
		}
		sigID, ok := seedSigner(req, a.Signer)
		if !ok {
			return pl.p.Issue(append(at, "signer"), fmt.Sprintf("the request has no signer %v", a.Signer))
		}
		if err := pl.signerAct(tx, sigID, a.Do, a.Reason, a.Values); err != nil {
			return pl.p.Issue(at, err.Error())
		}
	}
	req, err := get()
	if err != nil {
		return err
	}
	at := append(append([]any(nil), rp.at...), "state")
	switch st {
	case "completed":
		for req.Phase == state.PhaseSent {
			sg := nextToSign(req)
			if sg == nil {
				break
			}
			if err := pl.signerAct(tx, sg.ID, "sign", "", nil); err != nil {
				return pl.p.Issue(at, err.Error())
			}
			if req, err = get(); err != nil {
				return err
			}
		}
		if req.Phase != state.PhaseComplete {
			return pl.p.Issue(at, "the request cannot be completed from here (it is "+phaseWord(req.Phase)+")")
		}
	case "declined":
		if req.Phase != state.PhaseDeclined {
			sg := nextToSign(req)
			if sg == nil {
				return pl.p.Issue(at, "no signer can decline (the request is "+phaseWord(req.Phase)+")")
			}
			if err := pl.signerAct(tx, sg.ID, "decline", rp.spec.Message, nil); err != nil {
				return pl.p.Issue(at, err.Error())
			}
		}
	case "canceled":
		o, e := tCancel(req, true)
		if e != nil {
			return pl.p.Issue(at, e.Msg)
		}
		if err := pl.s.applyOutcome(tx, o); err != nil {
			return err
		}
		if req, err = get(); err != nil {
			return err
		}
		return pl.s.applyOutcome(tx, tCancelComplete(req, tx.Unix()))
	case "expired":
		c := req.Copy()
		now := tx.Unix()
		c.ExpiresAt = &now
		o := tExpire(c, now)
		if o == nil {
			return pl.p.Issue(at, "the request cannot expire from here (it is "+phaseWord(req.Phase)+")")
		}
		if err := state.CancelJobs(tx, id, jobSigreqExpire); err != nil {
			return err
		}
		return pl.s.applyOutcome(tx, o)
	case "sent":
		if req.Phase != state.PhaseSent && len(rp.spec.Actions) == 0 {
			return pl.p.Issue(at, "the request is "+phaseWord(req.Phase)+" after processing, not sent")
		}
	}
	return nil
}

// nextToSign is a signer whose turn it is and who has not acted.
func nextToSign(req *state.SignatureRequest) *state.Signature {
	for i := range req.Signatures {
		sg := &req.Signatures[i]
		if sg.Status == state.SigAwaiting && isTurn(req, sg) {
			return sg
		}
	}
	return nil
}

// seedSigner finds a signature by index or e-mail address.
func seedSigner(req *state.SignatureRequest, who any) (string, bool) {
	switch t := who.(type) {
	case string:
		for _, sg := range req.Signatures {
			if state.EmailKey(sg.Email) == state.EmailKey(t) {
				return sg.ID, true
			}
		}
	case json.Number:
		n, err := t.Int64()
		if err == nil && n >= 0 && int(n) < len(req.Signatures) {
			return req.Signatures[n].ID, true
		}
	}
	return "", false
}

// signerAct runs a signer transition (the control plane's entry points).
func (pl *seedPlan) signerAct(tx *state.Txn, sigID, do, reason string, values map[string]any) error {
	var err error
	switch do {
	case "view":
		_, err = pl.s.signerView(tx, sigID)
	case "sign":
		_, err = pl.s.signerSign(tx, sigID, values, "")
	case "decline":
		_, err = pl.s.signerDecline(tx, sigID, reason)
	case "bounce":
		_, err = pl.s.signerBounce(tx, sigID)
	default:
		err = fmt.Errorf("unknown action %q", do)
	}
	if e, ok := apierr.As(err); ok {
		return fmt.Errorf("%s as signer %s: %s: %s", do, sigID, e.Name, e.Msg)
	}
	return err
}
