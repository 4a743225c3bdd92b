package fields

// Where form fields lie on their pages, measured against the page sizes
// the documents subsystem found (model.Document.Pages, points as
// displayed, fields placed from the page's top-left corner as the stamps
// are drawn). Signature requests and templates decide from it what a
// misplaced field means for them.

import (
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Place is where a field lies relative to its page.
type Place int

const (
	PlaceInside  Place = iota
	PlaceUnknown       // the page or its size is not known
	PlacePartly        // it runs over an edge
	PlaceOutside       // no part of it is on the page
)

// Placement places a field on its document's page.
func Placement(f model.FormField, docs []model.Document) (Place, model.Page) {
	if f.DocumentIndex < 0 || f.DocumentIndex >= len(docs) {
		return PlaceUnknown, model.Page{}
	}
	pages := docs[f.DocumentIndex].Pages
	page := FieldPage(f)
	if page < 1 || page > len(pages) {
		return PlaceUnknown, model.Page{}
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
func FieldPage(f model.FormField) int {
	if f.Page != nil {
		return *f.Page
	}
	return 1
}

// Misplaced describes the first field whose placement is at least
// worse (PlacePartly or PlaceOutside); "" when there is none.
func Misplaced(fields []model.FormField, docs []model.Document, worse Place) string {
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
