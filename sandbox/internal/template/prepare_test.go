package template

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

var (
	a4Portrait  = model.Page{Width: 595, Height: 842}
	a4Landscape = model.Page{Width: 842, Height: 595}
)

func docOf(name string, pages ...model.Page) model.Document {
	return model.Document{Name: name, Pages: pages}
}

func TestTemplatePreparationProblem(t *testing.T) {
	old := []model.Page{a4Portrait, a4Portrait}
	cases := []struct {
		name string
		t    model.Template
		want string
	}{
		{"plain template", model.Template{Documents: []model.Document{docOf("a.pdf", a4Portrait)}}, ""},
		{"document error", model.Template{Documents: []model.Document{{Name: "a.pdf", Error: "unreadable"}}}, "Document 0 (a.pdf) could not be processed: unreadable"},
		{"no pages", model.Template{Documents: []model.Document{docOf("a.pdf")}}, "Document 0 (a.pdf) has no pages."},
		{"same pages", model.Template{OverlayOf: "x", OverlayPages: old, Documents: []model.Document{docOf("a.pdf", a4Portrait, a4Portrait)}}, ""},
		{"more pages over two documents", model.Template{OverlayOf: "x", OverlayPages: old,
			Documents: []model.Document{docOf("a.pdf", a4Portrait), docOf("b.pdf", a4Portrait, a4Landscape)}}, ""},
		{"fewer pages", model.Template{OverlayOf: "x", OverlayPages: old, Documents: []model.Document{docOf("a.pdf", a4Portrait)}},
			"The new files have 1 page(s), fewer than the 2 page(s) of the files of template x: an overlay needs the same or a higher page count."},
		{"other orientation", model.Template{OverlayOf: "x", OverlayPages: old, Documents: []model.Document{docOf("a.pdf", a4Landscape, a4Portrait)}},
			"Page 1 of the new files is landscape but page 1 of the files of template x is portrait: an overlay needs the same orientation."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, PreparationProblem(&tc.t))
		})
	}
}
