package scenarioworld

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
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// seedPlan is a scenario's seed, checked and ready to write.
type seedPlan struct {
	s         *api.Host
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
	in      template.ContentInput
	content *template.Content
	pending []document.Pending
}

type seedRequestPlan struct {
	at      []any
	spec    *scenario.SeedRequest
	op      sigreq.Op
	body    sigreq.Body
	req     *sigreq.Spec
	tb      *sigreq.TemplateBody
	pending []document.Pending
}

// seedRequest is the request seeding calls pretend to be: the loading
// control call, or a stand-in with the configured base URL.
func seedRequest(r *http.Request) *http.Request {
	if r != nil {
		return r
	}
	req, _ := http.NewRequest(http.MethodPost, "http://localhost/_sandbox/scenarios", nil)
	return req
}

// seedCall builds the call seeding code hands to the API's helpers, with
// body as its decoded parameters.
func (pl *seedPlan) seedCall(body map[string]any, docs []scenario.SeedDocument) *api.Call {
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
	return &api.Call{Host: pl.s, World: pl.w, Request: pl.r, Body: b}
}

// planSeed checks the seed's bodies and converts its documents.
func planSeed(s *api.Host, w *world.World, p *scenario.Parsed, r *http.Request) (*seedPlan, error) {
	pl := &seedPlan{s: s, w: w, p: p, r: seedRequest(r), tplIDs: map[string]string{}}
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
		if err := c.Bind(&tp.in); err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
		content, err := template.BuildContent(&tp.in, true, true, c.Has(template.FieldsPath))
		if err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
		tp.content = content
		if tp.pending, err = document.Collect(s, c, tp.in.Files, nil); err != nil {
			return nil, pl.apiIssue(tp.at, err)
		}
		preview := make([]model.Document, len(tp.pending))
		for j, d := range tp.pending {
			preview[j] = d.Doc
		}
		if err := template.CheckDocuments(content, preview); err != nil {
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
		rp.op = sigreq.Op{Embedded: strings.Contains(opID, "Embedded"), Template: strings.HasSuffix(opID, "WithTemplate")}
		docs := rq.Documents
		if len(docs) == 0 && !rp.op.Template {
			docs = []scenario.SeedDocument{{Name: rq.Ref + ".txt"}}
		}
		body := rq.Body
		if rp.op.Template {
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
		if err := c.Bind(&rp.body); err != nil {
			return nil, pl.apiIssue(rp.at, err)
		}
		spec, e := rp.body.Spec(c, rp.op)
		if e != nil {
			return nil, pl.apiIssue(rp.at, e)
		}
		rp.req = spec
		var formFields []fields.Parsed
		if rp.op.Template {
			if rp.tb, e = rp.body.CheckTemplateBody(c, false); e != nil {
				return nil, pl.apiIssue(rp.at, e)
			}
		} else if formFields, e = fields.Decode(rp.body.FormFieldsPerDocument); e != nil {
			return nil, pl.apiIssue(rp.at, e)
		}
		if len(rp.body.Files) > 0 {
			pending, err := document.Collect(s, c, rp.body.Files, nil)
			if err != nil {
				return nil, pl.apiIssue(rp.at, err)
			}
			rp.pending = pending
		}
		if !rp.op.Template {
			if e := spec.AddFields(&rp.body, formFields, rp.pending); e != nil {
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
			if n, err := strconv.ParseInt(part, 10, 64); err == nil {
				path = append(path, int(n))
			} else {
				path = append(path, part)
			}
		}
	}
	return pl.p.Issue(path, fmt.Sprintf("%s: %s", e.Name, e.Msg))
}

// account finds an account by e-mail ("" is the world's first account).
func (pl *seedPlan) account(tx *state.Txn, email string, at []any) (*model.Account, error) {
	a, err := scenarioAccount(pl.s, tx, email)
	switch {
	case err != nil && email == "":
		return nil, pl.p.Issue(at, "the world has no first account")
	case err != nil:
		return nil, pl.p.Issue(at, "no account "+email+" in this world (seed it under seed.accounts)")
	}
	return a, nil
}

// scenarioAccount is the account a scenario names by e-mail address; ""
// names the world's first account.
func scenarioAccount(s *api.Host, tx *state.Txn, email string) (*model.Account, error) {
	if email == "" {
		return state.Get[model.Account](tx, state.TableAccounts, s.FirstAccountID())
	}
	return state.AccountByEmail(tx, email)
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
func seededAccount(tx *state.Txn, a *model.Account) map[string]any {
	return map[string]any{"account_id": a.ID, "email_address": a.Email, "api_key": state.PrimaryKeyOf(tx, a.ID)}
}

// seedAccount creates an account or changes the one with the address.
func (pl *seedPlan) seedAccount(tx *state.Txn, sa *scenario.SeedAccount, at []any) (*model.Account, error) {
	existing, err := state.AccountByEmail(tx, sa.EmailAddress)
	var a *model.Account
	created := err != nil
	if created {
		a = &model.Account{ID: tx.NewID(), Email: sa.EmailAddress, EmailKey: state.EmailKey(sa.EmailAddress), Locale: "en-US",
			CreatedAt: tx.Unix(), Confirmed: true, Seq: tx.Seq()}
	} else {
		a = state.Clone(existing)
	}
	if sa.Name != nil {
		a.Name = *sa.Name
	}
	if sa.Team != nil {
		if *sa.Team {
			first, err := scenarioAccount(pl.s, tx, "")
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
	for _, k := range slices.Sorted(maps.Keys(sa.Quotas)) {
		var v *int
		if raw := sa.Quotas[k]; raw != nil {
			n, err := strconv.ParseInt(fmt.Sprint(raw), 10, 64)
			if err != nil {
				return nil, pl.p.Issue(append(at, "quotas", k), "a quota is a whole number or null")
			}
			q := int(n)
			v = &q
		}
		if f := quotaField(&a.Quotas, k); f != nil {
			*f = v
		}
	}
	callbackChanged := false
	if sa.CallbackURL != nil && *sa.CallbackURL != a.CallbackURL {
		if *sa.CallbackURL != "" {
			if err := document.CheckURL(*sa.CallbackURL); err != nil {
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
	if callbackChanged {
		if err := callbacks.EmitTestAccount(pl.s, tx, a); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// quotaField is the field of q that a quota's wire name
// (api_signature_requests_left, ...) sets, or nil for an unknown name. The
// caller assigns a new pointer: the old one may be shared with a stored row.
func quotaField(q *model.Quotas, name string) **int {
	switch name {
	case "api_signature_requests_left":
		return &q.APISignatureRequestsLeft
	case "documents_left":
		return &q.DocumentsLeft
	case "templates_total":
		return &q.TemplatesTotal
	case "templates_left":
		return &q.TemplatesLeft
	case "sms_verifications_left":
		return &q.SMSVerificationsLeft
	case "num_fax_pages_left":
		return &q.NumFaxPagesLeft
	}
	return nil
}

// seedAPIKey adds a key from the world's sequence.
func seedAPIKey(tx *state.Txn, a *model.Account, name string, primary bool) (string, error) {
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
	row := &model.APIKey{Key: tx.NewSecret(), AccountID: a.ID, Name: name, Primary: primary, CreatedAt: tx.Unix(), Seq: tx.Seq()}
	return row.Key, state.Put(tx, state.TableAPIKeys, row)
}

// seedApp adds an API app.
func (pl *seedPlan) seedApp(tx *state.Txn, app scenario.SeedAPIApp, at []any) (*model.APIApp, error) {
	owner, err := pl.account(tx, app.Owner, append(at, "owner"))
	if err != nil {
		return nil, err
	}
	row := &model.APIApp{ClientID: tx.NewID()[:32], OwnerAccountID: owner.ID, Name: app.Name, Domains: app.Domains,
		CallbackURL: app.CallbackURL, CreatedAt: tx.Unix(), Seq: tx.Seq()}
	if row.Domains == nil {
		row.Domains = []string{}
	}
	if app.CallbackURL != "" {
		if err := document.CheckURL(app.CallbackURL); err != nil {
			return nil, pl.p.Issue(append(at, "callback_url"), "callback_url must be an absolute http(s) URL")
		}
	}
	if o := app.OAuth; o != nil {
		row.OAuth = &model.APIAppOAuth{CallbackURL: o.CallbackURL, Secret: tx.NewSecret()[:32], Scopes: append([]string{}, o.Scopes...)}
	}
	if err := state.Put(tx, state.TableAPIApps, row); err != nil {
		return nil, err
	}
	if row.CallbackURL != "" {
		if err := callbacks.EmitTestApp(pl.s, tx, row); err != nil {
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
		var next *model.Job
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
		fn := pl.s.Reg().Job(next.Kind)
		if fn == nil {
			return fmt.Errorf("no job function for %s", next.Kind)
		}
		if err := fn(pl.w, tx, next); err != nil {
			return err
		}
	}
}
