package sandbox

// Where form fields lie on their pages, measured against the page sizes the
// documents subsystem found (state.Document.Pages, points as displayed,
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
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Place is where a field lies relative to its page.
type Place int

const (
	PlaceInside  Place = iota
	PlaceUnknown            // the page or its size is not known
	PlacePartly             // it runs over an edge
	PlaceOutside            // no part of it is on the page
)

// Placement places a field on its document's page.
func Placement(f state.FormField, docs []state.Document) (Place, state.Page) {
	if f.DocumentIndex < 0 || f.DocumentIndex >= len(docs) {
		return PlaceUnknown, state.Page{}
	}
	pages := docs[f.DocumentIndex].Pages
	page := FieldPage(f)
	if page < 1 || page > len(pages) {
		return PlaceUnknown, state.Page{}
	}
	p := pages[page-1]
	if p.Width <= 0 || p.Height <= 0 {
		return PlaceUnknown, p
	}
	x, y := float64(f.X), float64(f.Y)
	right, bottom := x+float64(f.Width), y+float64(f.Height)
	switch {
	case x >= p.Width || y >= p.Height || right <= 0 || bottom <= 0:
		return PlaceOutside, p
	case x < 0 || y < 0 || right > p.Width || bottom > p.Height:
		return PlacePartly, p
	}
	return PlaceInside, p
}

// FieldPage is the page a field is on (1 when it names none).
func FieldPage(f state.FormField) int {
	if f.Page != nil {
		return *f.Page
	}
	return 1
}

// Misplaced describes the first field whose placement is at least
// worse (placePartly or placeOutside); "" when there is none.
func Misplaced(fields []state.FormField, docs []state.Document, worse Place) string {
	for _, f := range fields {
		where, p := Placement(f, docs)
		if where < worse || where == PlaceUnknown {
			continue
		}
		how := "extends beyond"
		if where == PlaceOutside {
			how = "lies outside"
		}
		return fmt.Sprintf("Form field %q (document %d, page %d, x %d, y %d, %d x %d) %s its page (%g x %g).",
			f.APIID, f.DocumentIndex, FieldPage(f), f.X, f.Y, f.Width, f.Height, how, p.Width, p.Height)
	}
	return ""
}

// warnFieldPlacement gives the official form_fields_placement warning on a
// create or edit call when a field is not wholly inside its page.
func warnFieldPlacement(c *api.Call, fields []state.FormField, pending []document.Pending) {
	docs := make([]state.Document, len(pending))
	for i, d := range pending {
		docs[i] = d.Doc
	}
	if msg := Misplaced(fields, docs, PlacePartly); msg != "" {
		c.Warn("form_fields_placement", "Form fields must be placed within the document. "+msg)
	}
}

// tPlacementError ends the processing of a request that has a field
// entirely outside its page: every signature in error_component_position
// and signature_request_invalid. It answers nil (tProcess decides) when the
// request is not processing, when a document cannot be read (error_file
// comes first), or when every field is on its page.
func tPlacementError(req *state.SignatureRequest, now int64) *outcome {
	if req.Phase != state.PhaseProcessing {
		return nil
	}
	for _, d := range req.Documents {
		if d.Error != "" {
			return nil
		}
	}
	msg := Misplaced(req.FormFields, req.Documents, PlaceOutside)
	if msg == "" {
		return nil
	}
	return tFail(req, processFailure{StatusCode: state.SigErrorComponentPosition, Message: msg}, now)
}

// templateFieldPlacementProblem is the template counterpart of
// tPlacementError: a template field entirely outside its page ends the
// template's preparation in template_error (every request made from it
// would otherwise end in error_component_position). "" when every field is
// on its page.
func templateFieldPlacementProblem(t *state.Template) string {
	fields := make([]state.FormField, 0, len(t.Fields))
	for _, f := range t.Fields {
		ff := state.FormField{APIID: f.APIID, DocumentIndex: f.DocumentIndex, X: f.X, Y: f.Y, Width: f.Width, Height: f.Height}
		if f.Page > 0 {
			p := f.Page
			ff.Page = &p
		}
		fields = append(fields, ff)
	}
	return Misplaced(fields, t.Documents, PlaceOutside)
}
