package template

// Asynchronous template preparation: template/create, a saved embedded
// draft and update_files leave a template "preparing"; a scheduler job
// after the world's TemplatePreparationDelay makes it ready (template_created)
// or failed (template_error). Until then its files answer 409.

import (
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/testvalues"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// JobPrepare finishes the preparation of one template (subject).
const JobPrepare = "template.prepare"

// RegisterPrepare adds the preparation of templates: its job, which runs in
// a transaction of its own because its scenario failure hook reads the
// committed marks, and templates as owners of files.
func RegisterPrepare(r *api.Registry) {
	r.RegisterJobAlone(JobPrepare, runTemplatePrepare)
	r.FileOwners[document.KindTemplate] = api.FileOwner{Visible: templateFilesVisible, Compose: templateComposition}
}

// StartPreparation queues the preparation job and the file
// preparation of a template that has just become "preparing". Files are
// scheduled now so that they are ready when template_created is emitted;
// templateFilesVisible answers 409 until the template is ready.
func StartPreparation(tx *state.Txn, t *model.Template) error {
	cfg := state.GetConfig(tx)
	if err := state.CancelJobs(tx, t.ID, JobPrepare); err != nil {
		return err
	}
	if _, err := state.Schedule(tx, JobPrepare, t.ID, cfg.TemplatePreparationDelay.D(), nil); err != nil {
		return err
	}
	return document.ScheduleFiles(tx, document.KindTemplate, t.ID)
}

// runTemplatePrepare is the preparation job.
func runTemplatePrepare(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
	t, err := state.GetTemplate(tx, job.Subject)
	if err != nil || t.Status != model.TemplatePreparing {
		return nil // deleted or already settled meanwhile
	}
	msg := PreparationProblem(t)
	if msg == "" {
		msg = testValueProblem(tx, t)
	}
	if msg == "" && s.Reg().TemplateFailure != nil {
		if fail, m := s.Reg().TemplateFailure(w, t); fail {
			msg = m
			if msg == "" {
				msg = "The template could not be created."
			}
		}
	}
	c := cloneTemplate(t)
	c.UpdatedAt = tx.Unix()
	evType := notify.TypeTemplateCreated
	if msg != "" {
		c.Status, c.ErrorMessage, evType = model.TemplateError, msg, notify.TypeTemplateError
		if c.QuotaCharged {
			if err := refundTemplateQuota(tx, c.OwnerID); err != nil {
				return err
			}
			c.QuotaCharged = false
		}
	} else {
		c.Status = model.TemplateReady
	}
	if err := state.PutTemplate(tx, c); err != nil {
		return err
	}
	return s.Emit(tx, notify.Event{Type: evType, ObjectType: notify.ObjectTemplate, ObjectID: c.ID, AccountIDs: c.Accounts(),
		ClientID: c.ClientID, EventMessage: msg})
}

// testValueProblem is the failure a reserved test value asks of a
// template's preparation ("" for none): a document whose name or text asks
// for a processing failure (internal/testvalues) fails the template with
// template_error, the one failure templates have.
func testValueProblem(tx *state.Txn, t *model.Template) string {
	if !testvalues.On(tx) {
		return ""
	}
	i, status := testvalues.DocumentFailure(tx, t.Documents)
	if status == "" {
		return ""
	}
	return fmt.Sprintf("Document %d (%s) could not be processed (signsandbox test value %s).", i, t.Documents[i].Name, status)
}

// PreparationProblem says why a template cannot be prepared ("" when
// it can): a document that could not be fetched or read, a field that lies
// entirely outside its page, or an overlay whose files have fewer pages or
// another orientation than the files they replace (measured on the PDFs'
// pages, in order across documents).
func PreparationProblem(t *model.Template) string {
	for i, d := range t.Documents {
		if d.Error != "" {
			return fmt.Sprintf("Document %d (%s) could not be processed: %s", i, d.Name, d.Error)
		}
		if len(d.Pages) == 0 {
			return fmt.Sprintf("Document %d (%s) has no pages.", i, d.Name)
		}
		if d.TextTagError != "" { // text_tags.go
			return fmt.Sprintf("Document %d (%s): %s", i, d.Name, d.TextTagError)
		}
	}
	if msg := templateFieldPlacementProblem(t); msg != "" { // sigreq/placement.go
		return msg
	}
	if t.OverlayOf == "" {
		return ""
	}
	old, cur := t.OverlayPages, t.Pages()
	if len(cur) < len(old) {
		return fmt.Sprintf("The new files have %d page(s), fewer than the %d page(s) of the files of template %s: an overlay needs the same or a higher page count.", len(cur), len(old), t.OverlayOf)
	}
	for k := range old {
		if a, b := pageOrientation(old[k]), pageOrientation(cur[k]); a != b {
			return fmt.Sprintf("Page %d of the new files is %s but page %d of the files of template %s is %s: an overlay needs the same orientation.", k+1, b, k+1, t.OverlayOf, a)
		}
	}
	return ""
}

// pageOrientation is "landscape" for pages wider than tall, else "portrait".
func pageOrientation(p model.Page) string {
	if p.Width > p.Height {
		return "landscape"
	}
	return "portrait"
}

// templateFilesVisible is the documents subsystem's access check for
// template downloads: 404 for templates the caller cannot see, 409 while
// the template is a draft or being prepared, 422 when preparation failed.
func templateFilesVisible(c *api.Call, tx *state.Txn, id string) error {
	t, err := templateFor(tx, c.Account.ID, id)
	if err != nil {
		return err
	}
	switch t.Status {
	case model.TemplateDraft, model.TemplatePreparing:
		return apierr.Conflictf("The files of this template are still being prepared: wait for the template_created event.")
	case model.TemplateError:
		return apierr.New(apierr.UnprocessableEntity, "The files of this template could not be processed (template_error): "+t.ErrorMessage)
	}
	return nil
}

// templateComposition describes a template's downloadable PDF: its
// documents as they are (a template has no signatures or audit trail),
// with their blob ids.
func templateComposition(tx *state.Txn, id string) (pdf.Composition, []string, error) {
	t, err := state.GetTemplate(tx, id)
	if err != nil {
		return pdf.Composition{}, nil, errTemplateNotFound()
	}
	comp := pdf.Composition{ID: t.ID, Title: t.Title, TestMode: t.IsLocked}
	var refs []string
	for _, d := range t.Documents {
		if d.PDFBlobID == "" {
			continue
		}
		doc, err := state.GetBlob(tx, d.PDFBlobID)
		if err != nil {
			return pdf.Composition{}, nil, fmt.Errorf("template %s: document %s: %w", t.ID, d.Name, err)
		}
		comp.Documents = append(comp.Documents, pdf.Source{Name: d.Name, PDF: doc})
		refs = append(refs, d.PDFBlobID)
	}
	return comp, refs, nil
}

// cloneTemplate copies a stored template deeply enough to change any slice.
func cloneTemplate(t *model.Template) *model.Template {
	c := *t
	c.SignerRoles = append([]model.TemplateRole(nil), t.SignerRoles...)
	c.CCRoles = append([]string(nil), t.CCRoles...)
	c.Documents = append([]model.Document(nil), t.Documents...)
	c.Fields = append([]model.TemplateField(nil), t.Fields...)
	c.Groups = append([]model.FieldGroup(nil), t.Groups...)
	c.Rules = append([]model.FieldRule(nil), t.Rules...)
	c.MergeFields = append([]model.TemplateMergeField(nil), t.MergeFields...)
	c.Attachments = append([]model.TemplateAttachment(nil), t.Attachments...)
	c.SharedWith = append([]string(nil), t.SharedWith...)
	c.OverlayPages = append([]model.Page(nil), t.OverlayPages...)
	c.Metadata = append([]byte(nil), t.Metadata...)
	if t.Editor != nil {
		e := *t.Editor
		c.Editor = &e
	}
	return &c
}

// templateFieldPlacementProblem is the template counterpart of
// sigreq's failPlacement: a template field entirely outside its page ends the
// template's preparation in template_error (every request made from it
// would otherwise end in error_component_position). "" when every field is
// on its page.
func templateFieldPlacementProblem(t *model.Template) string {
	placed := make([]model.FormField, 0, len(t.Fields))
	for _, f := range t.Fields {
		ff := model.FormField{APIID: f.APIID, DocumentIndex: f.DocumentIndex, X: f.X, Y: f.Y, Width: f.Width, Height: f.Height}
		if f.Page > 0 {
			p := f.Page
			ff.Page = &p
		}
		placed = append(placed, ff)
	}
	return fields.Misplaced(placed, t.Documents, fields.PlaceOutside)
}
