package sigreq

// Where form fields lie on their pages, measured against the page sizes the
// documents subsystem found (model.Document.Pages, points as displayed,
// fields placed from the page's top-left corner as the stamps are drawn).
//
// The official vocabulary has two answers to a misplaced field, and the
// sandbox gives each the case it names:
//
//   - the form_fields_placement warning ("Form fields must be placed
//     within the document.") on the create or edit call, for every field
//     that is not wholly inside its page: the call succeeds, because the
//     service can still draw a field that only runs over an edge;
//   - the error_component_position status ("invalid form field placement")
//     with the signature_request_invalid event at the end of processing,
//     for a field that lies entirely outside its page: there is nothing on
//     the page for the signer to fill in, so the request cannot be sent.
//
// A page number beyond a document's pages stays the synchronous 400 of the
// field checks (package fields). A field without page is on the first page.
// Templates follow the same rule at preparation: a field entirely outside
// its page is a template_error.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// warnFieldPlacement gives the official form_fields_placement warning on a
// create or edit call when a field is not wholly inside its page.
func warnFieldPlacement(c *api.Call, placed []model.FormField, pending []document.Pending) {
	if len(placed) == 0 {
		return // no field, nothing to misplace (and no list of documents to build)
	}
	docs := make([]model.Document, len(pending))
	for i, d := range pending {
		docs[i] = d.Doc
	}
	if msg := fields.Misplaced(placed, docs, fields.PlacePartly); msg != "" {
		c.Warn("form_fields_placement", "Form fields must be placed within the document. "+msg)
	}
}

// failPlacement ends the processing of a request that has a field
// entirely outside its page: every signature in error_component_position
// and signature_request_invalid. It answers nil (process decides) when the
// request is not processing, when a document cannot be read (error_file
// comes first), or when every field is on its page.
func failPlacement(req *model.SignatureRequest, now int64) *outcome {
	if req.Phase != model.PhaseProcessing {
		return nil
	}
	for _, d := range req.Documents {
		if d.Error != "" {
			return nil
		}
	}
	msg := fields.Misplaced(req.FormFields, req.Documents, fields.PlaceOutside)
	if msg == "" {
		return nil
	}
	return fail(req, api.ProcessFailure{StatusCode: model.SigErrorComponentPosition, Message: msg}, now)
}
