package pdftest

import (
	"fmt"
	"strings"
)

// FormField is one widget of a generated AcroForm PDF.
type FormField struct {
	// Name is the field's partial name (/T). Widgets with the same Group
	// are the buttons of one radio field named Group, and Name is ignored.
	Name  string
	Group string
	// Type is the field type: Tx, Btn, Ch or Sig.
	Type string
	// Flags is /Ff (2 required, 1<<15 radio, 1<<16 push button).
	Flags int
	// Page is 1-based; Rect is [llx lly urx ury] in default user space.
	Page int
	Rect [4]float64
	// On sets the appearance state of a check box or radio button.
	On bool
	// Options are a choice field's options; Value its value or a text
	// field's.
	Options []string
	Value   string
	// Parent, when set, nests the field under a field of that name (its
	// full name is Parent.Name).
	Parent string
}

// MakeFormPDF writes a PDF of US Letter pages (each with a line of
// Helvetica text) whose AcroForm holds the given fields.
func MakeFormPDF(pages int, fields ...FormField) []byte {
	var objs []string
	add := func(body string) int { objs = append(objs, body); return len(objs) }
	set := func(n int, body string) { objs[n-1] = body }
	catalog := add("")
	tree := add("")
	font := add("<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>")
	pageNums := make([]int, pages)
	for i := range pageNums {
		pageNums[i] = add("")
	}
	annots := make([][]string, pages)
	var top []string
	parents := map[string]int{}
	kids := map[int][]string{}
	parentOf := func(name, extra string) int {
		if n, ok := parents[name]; ok {
			return n
		}
		n := add("")
		parents[name] = n
		top = append(top, fmt.Sprintf("%d 0 R", n))
		set(n, extra) // completed below
		return n
	}
	for _, f := range fields {
		page := pageNums[f.Page-1]
		w := fmt.Sprintf("/Type/Annot/Subtype/Widget/Rect[%g %g %g %g]/P %d 0 R/F 4", f.Rect[0], f.Rect[1], f.Rect[2], f.Rect[3], page)
		if f.Type == "Btn" {
			state := "Off"
			if f.On {
				state = "On"
			}
			w += "/AS/" + state + "/MK<<>>"
		}
		var n int
		switch {
		case f.Group != "":
			p := parentOf(f.Group, fmt.Sprintf("<</FT/Btn/Ff %d/T(%s)", f.Flags|1<<15, f.Group))
			n = add(fmt.Sprintf("<<%s/Parent %d 0 R>>", w, p))
			kids[p] = append(kids[p], fmt.Sprintf("%d 0 R", n))
		default:
			d := fmt.Sprintf("<<%s/FT/%s/T(%s)/DA(/Helv 0 Tf 0 g)", w, f.Type, f.Name)
			if f.Flags != 0 {
				d += fmt.Sprintf("/Ff %d", f.Flags)
			}
			if len(f.Options) > 0 {
				d += "/Opt[(" + strings.Join(f.Options, ")(") + ")]"
			}
			if f.Value != "" {
				d += "/V(" + f.Value + ")"
			}
			if f.Parent != "" {
				p := parentOf(f.Parent, fmt.Sprintf("<</T(%s)", f.Parent))
				n = add(fmt.Sprintf("%s/Parent %d 0 R>>", d, p))
				kids[p] = append(kids[p], fmt.Sprintf("%d 0 R", n))
			} else {
				n = add(d + ">>")
				top = append(top, fmt.Sprintf("%d 0 R", n))
			}
		}
		annots[f.Page-1] = append(annots[f.Page-1], fmt.Sprintf("%d 0 R", n))
	}
	for _, n := range parents {
		set(n, objs[n-1]+"/Kids["+strings.Join(kids[n], " ")+"]>>")
	}
	for i, n := range pageNums {
		content := fmt.Sprintf("BT /F1 12 Tf 72 740 Td (Form page %d) Tj ET", i+1)
		c := add(fmt.Sprintf("<</Length %d>>\nstream\n%s\nendstream", len(content), content))
		a := ""
		if len(annots[i]) > 0 {
			a = "/Annots[" + strings.Join(annots[i], " ") + "]"
		}
		set(n, fmt.Sprintf("<</Type/Page/Parent %d 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 %d 0 R>>>>/Contents %d 0 R%s>>", tree, font, c, a))
	}
	refs := make([]string, len(pageNums))
	for i, n := range pageNums {
		refs[i] = fmt.Sprintf("%d 0 R", n)
	}
	set(tree, fmt.Sprintf("<</Type/Pages/Kids[%s]/Count %d>>", strings.Join(refs, " "), pages))
	set(catalog, fmt.Sprintf("<</Type/Catalog/Pages %d 0 R/AcroForm<</Fields[%s]/DA(/Helv 0 Tf 0 g)/DR<</Font<</Helv %d 0 R>>>>>>>>",
		tree, strings.Join(top, " "), font))

	return WritePDF("1.7", objs, catalog)
}
