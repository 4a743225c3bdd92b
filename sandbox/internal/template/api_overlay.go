package template

// POST /template/update_files/{template_id}: an overlay of new files on an
// existing template, prepared asynchronously as a new template.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

func RegisterOverlay(r *api.Registry) {
	r.Handle("templateUpdateFiles", templateUpdateFiles)
}

// tplOverlayInput is TemplateUpdateFilesRequest.
type tplOverlayInput struct {
	ClientID string      `json:"client_id"`
	Files    []wire.File `json:"files"`
	FileURLs []string    `json:"file_urls"`
	Message  *string     `json:"message"`
	Subject  *string     `json:"subject"`
	TestMode bool        `json:"test_mode"`
}

// templateUpdateFiles checks synchronously what the real service checks
// before answering (the template, the caller, the parameters, the files'
// presence and the quota), then creates a new template with the source's
// roles, fields and sharing over the new files, prepared by a job. The page
// count and orientation are measured when the job runs: fewer pages or
// another orientation end in template_error for the new template. The
// source template is not changed and stays usable. The answer has no
// warnings key: TemplateUpdateFilesResponse has none.
func templateUpdateFiles(c *api.Call) (any, error) {
	var in tplOverlayInput
	if err := c.Bind(&in); err != nil {
		return nil, err
	}
	if in.Subject != nil {
		if err := param.CheckMaxLen("subject", *in.Subject, 100); err != nil {
			return nil, err
		}
	}
	if in.Message != nil {
		if err := param.CheckMaxLen("message", *in.Message, 5000); err != nil {
			return nil, err
		}
	}
	id := c.Param("template_id")
	if err := templateOverlayable(c.Read(), c.Account.ID, id, in.ClientID); err != nil {
		return nil, err
	}
	pending, err := document.Collect(c.Host, c, in.Files, in.FileURLs)
	if err != nil {
		return nil, err
	}
	var newID string
	err = c.Update(func(tx *state.Txn) error {
		if err := templateOverlayable(tx, c.Account.ID, id, in.ClientID); err != nil {
			return err
		}
		src, _ := state.GetTemplate(tx, id)
		docs, err := document.Store(tx, pending)
		if err != nil {
			return err
		}
		t := Overlay(tx, src, docs)
		if in.ClientID != "" {
			t.ClientID = in.ClientID
		}
		if in.Subject != nil {
			t.Subject = *in.Subject
		}
		if in.Message != nil {
			t.Message = *in.Message
		}
		t.TestMode = in.TestMode || src.IsLocked
		if err := SettleQuota(tx, t); err != nil {
			return err
		}
		if err := StartPreparation(tx, t); err != nil {
			return err
		}
		newID = t.ID
		return state.PutTemplate(tx, t)
	})
	if err != nil {
		return nil, err
	}
	return templateIDResponse{Template: templateIDView{TemplateID: newID}}, nil
}

// templateOverlayable is the synchronous check of update_files: the caller
// owns the template, it is ready (409 while a draft or being prepared, 400
// after a failed preparation), and client_id, if given, is the caller's app.
func templateOverlayable(tx *state.Txn, accountID, id, clientID string) error {
	t, err := templateOwnedBy(tx, accountID, id)
	if err != nil {
		return err
	}
	switch t.Status {
	case model.TemplateDraft, model.TemplatePreparing:
		return apierr.Conflictf("The template is still being prepared: wait for the template_created event.")
	case model.TemplateError:
		return apierr.Badf("template_id", "The template could not be created (template_error); its files cannot be updated.")
	}
	if clientID != "" {
		return App(tx, accountID, clientID)
	}
	return nil
}

// Overlay copies the source template onto new documents. Fields
// keep their position on the same page counted across all documents (page
// 3 of the old files is page 3 of the new ones, whatever the documents'
// boundaries); OverlayPages keeps the old pages for the job's check.
func Overlay(tx *state.Txn, src *model.Template, docs []model.Document) *model.Template {
	t := cloneTemplate(src)
	now := tx.Unix()
	t.ID, t.Seq = tx.NewID(), tx.Seq()
	t.Documents = docs
	t.Status, t.ErrorMessage = model.TemplatePreparing, ""
	t.CreatedAt, t.UpdatedAt = now, now
	t.OverlayOf, t.OverlayPages = src.ID, src.Pages()
	t.QuotaCharged, t.IsLocked = false, false
	for i := range t.Attachments {
		t.Attachments[i].ID = tx.NewID()
	}
	// Global page index of the first page of each old and new document.
	oldStart := pageStarts(src.Documents)
	newStart := pageStarts(docs)
	total := newStart[len(newStart)-1]
	for i, f := range t.Fields {
		if f.DocumentIndex >= len(src.Documents) {
			continue
		}
		page := f.Page
		if page == 0 {
			page = 1
		}
		g := oldStart[f.DocumentIndex] + page - 1
		if g >= total {
			continue // the job reports the missing pages
		}
		for d := len(docs) - 1; d >= 0; d-- {
			if g >= newStart[d] {
				t.Fields[i].DocumentIndex = d
				if f.Page != 0 || g-newStart[d] != 0 {
					t.Fields[i].Page = g - newStart[d] + 1
				}
				break
			}
		}
	}
	return t
}

// pageStarts gives the global index of each document's first page, plus the
// total page count as the last element.
func pageStarts(docs []model.Document) []int {
	out := make([]int, 0, len(docs)+1)
	n := 0
	for _, d := range docs {
		out = append(out, n)
		n += len(d.Pages)
	}
	return append(out, n)
}
