package pdf

// Reading the form fields a PDF already has (its AcroForm), for
// use_preexisting_fields: every widget of a text, check box, radio button,
// choice or signature field, with its page and rectangle.
//
// The field tree is walked from the catalog's /AcroForm /Fields; a field's
// type (/FT), flags (/Ff), value (/V) and options (/Opt) are inherited from
// its ancestors, and its name is the names of the field and its ancestors
// joined by dots, as PDF readers show it. Push buttons, fields without
// widgets on a page, and widgets with an empty rectangle are left out.
// Widgets are reported in page order, in the order of each page's
// /Annots; widgets no page lists are placed by their /P entry.

import (
	"fmt"
	"math"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Kinds of PDF form fields.
const (
	PDFFieldText      = "text"
	PDFFieldCheckbox  = "checkbox"
	PDFFieldRadio     = "radio"
	PDFFieldSignature = "signature"
	PDFFieldDropdown  = "dropdown"
)

// Bounds of the field tree walk.
const (
	maxFieldDepth = 32
	maxFormFields = 10000
)

// Field flags (/Ff bits) that matter here.
const (
	ffReadOnly   = 1 << 0
	ffRequired   = 1 << 1
	ffRadio      = 1 << 15
	ffPushButton = 1 << 16
)

// PDFField is one widget of a PDF form field, placed in the API's
// coordinates (points from the top-left corner of the page as displayed).
type PDFField struct {
	// Name is the field's full name; the widgets of one field (the buttons
	// of a radio group, a field shown twice) share it.
	Name                string
	Kind                string
	Page                int // 1-based
	X, Y, Width, Height int
	Required, ReadOnly  bool
	// Checked says a check box or radio button is on (its appearance
	// state is not Off).
	Checked bool
	// Options are a choice field's displayed options.
	Options []string
	// Value is a text or choice field's value.
	Value string
}

// fieldInfo is what a terminal field passes to its widgets.
type fieldInfo struct {
	name    string
	ft      string
	ff      int
	value   types.Object
	options types.Array
}

// ReadFormFields lists the form fields of a PDF (none when it has no
// AcroForm).
func ReadFormFields(pdf []byte) (out []PDFField, err error) {
	ctx, pages, err := openPDF(pdf, false)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("form fields: %v", r)
		}
	}()
	fl := NewObjects(ctx)
	cat, err := ctx.Catalog()
	if err != nil || cat == nil {
		return nil, nil
	}
	form := fl.Dict(cat["AcroForm"])
	if form == nil {
		return nil, nil
	}
	widgets := map[int]fieldInfo{}
	var order []types.IndirectRef
	seen := map[int]bool{}
	var walk func(o types.Object, parent fieldInfo, depth int)
	walk = func(o types.Object, parent fieldInfo, depth int) {
		ref, ok := o.(types.IndirectRef)
		if !ok || depth > maxFieldDepth || len(widgets) >= maxFormFields {
			return
		}
		n := ref.ObjectNumber.Value()
		if seen[n] {
			return
		}
		seen[n] = true
		d := fl.Dict(ref)
		if d == nil {
			return
		}
		info := parent
		if t, ok := d.Find("T"); ok {
			if s, err := types.StringOrHexLiteral(fl.Resolve(t)); err == nil && s != nil {
				if info.name != "" {
					info.name += "." + *s
				} else {
					info.name = *s
				}
			}
		}
		if ft := fl.Name(d["FT"]); ft != "" {
			info.ft = ft
		}
		if ff, ok := fl.Number(d["Ff"]); ok {
			info.ff = int(ff)
		}
		if v, ok := d.Find("V"); ok {
			info.value = fl.Resolve(v)
		}
		if opt := fl.Array(d["Opt"]); opt != nil {
			info.options = opt
		}
		kids := fl.Array(d["Kids"])
		hasFieldKids := false
		for _, k := range kids {
			if kd := fl.Dict(k); kd != nil && kd.HasEntry("T") {
				hasFieldKids = true
			}
		}
		if _, isWidget := d.Find("Rect"); isWidget && !hasFieldKids {
			widgets[n] = info
			order = append(order, ref)
		}
		for _, k := range kids {
			kd := fl.Dict(k)
			if kd == nil {
				continue
			}
			if kd.HasEntry("T") || kd.HasEntry("Kids") {
				walk(k, info, depth+1)
				continue
			}
			// A widget of this field.
			if kr, ok := k.(types.IndirectRef); ok && !seen[kr.ObjectNumber.Value()] {
				seen[kr.ObjectNumber.Value()] = true
				widgets[kr.ObjectNumber.Value()] = info
				order = append(order, kr)
			}
		}
	}
	for _, f := range fl.Array(form["Fields"]) {
		walk(f, fieldInfo{}, 0)
	}
	if len(widgets) == 0 {
		return nil, nil
	}
	placed := map[int]bool{}
	pageOf := map[int]int{}
	for i, p := range pages {
		pageOf[p.ref.ObjectNumber.Value()] = i
		for _, a := range fl.Array(p.dict["Annots"]) {
			ar, ok := a.(types.IndirectRef)
			if !ok {
				continue
			}
			n := ar.ObjectNumber.Value()
			if info, ok := widgets[n]; ok && !placed[n] {
				placed[n] = true
				if f, ok := fl.widgetField(info, fl.Dict(ar), p, i+1); ok {
					out = append(out, f)
				}
			}
		}
	}
	for _, ref := range order {
		n := ref.ObjectNumber.Value()
		if placed[n] {
			continue
		}
		d := fl.Dict(ref)
		pr, ok := d["P"].(types.IndirectRef)
		if !ok {
			continue
		}
		if i, ok := pageOf[pr.ObjectNumber.Value()]; ok {
			if f, ok := fl.widgetField(widgets[n], d, pages[i], i+1); ok {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// widgetField describes one widget; ok is false for widgets the sandbox
// does not turn into fields.
func (fl *Objects) widgetField(info fieldInfo, w types.Dict, p Page, page int) (PDFField, bool) {
	if w == nil {
		return PDFField{}, false
	}
	f := PDFField{Name: info.name, Page: page, Required: info.ff&ffRequired != 0, ReadOnly: info.ff&ffReadOnly != 0}
	switch info.ft {
	case "Tx":
		f.Kind = PDFFieldText
		f.Value = fl.text(info.value)
	case "Sig":
		f.Kind = PDFFieldSignature
	case "Ch":
		f.Kind = PDFFieldDropdown
		for _, o := range info.options {
			v := fl.Resolve(o)
			if a, ok := v.(types.Array); ok && len(a) == 2 {
				v = fl.Resolve(a[1])
			}
			if s := fl.text(v); s != "" {
				f.Options = append(f.Options, s)
			}
		}
		f.Value = fl.text(info.value)
		if len(f.Options) == 0 {
			return PDFField{}, false
		}
	case "Btn":
		switch {
		case info.ff&ffPushButton != 0:
			return PDFField{}, false
		case info.ff&ffRadio != 0:
			f.Kind = PDFFieldRadio
		default:
			f.Kind = PDFFieldCheckbox
		}
		as := fl.Name(w["AS"])
		f.Checked = as != "" && as != "Off"
	default:
		return PDFField{}, false
	}
	r := fl.Array(w["Rect"])
	if len(r) != 4 {
		return PDFField{}, false
	}
	var v [4]float64
	for i, o := range r {
		n, ok := fl.Number(o)
		if !ok || math.IsNaN(n) || math.IsInf(n, 0) {
			return PDFField{}, false
		}
		v[i] = n
	}
	b := box{math.Min(v[0], v[2]), math.Min(v[1], v[3]), math.Max(v[0], v[2]), math.Max(v[1], v[3])}
	if b.width() <= 0 || b.height() <= 0 {
		return PDFField{}, false
	}
	f.X, f.Y, f.Width, f.Height = apiBox(p.geometry(), b)
	if f.Name == "" {
		f.Name = fmt.Sprintf("%s_%d", f.Kind, page)
	}
	return f, true
}

// text reads a text string or name ("" otherwise).
func (fl *Objects) text(o types.Object) string {
	switch v := o.(type) {
	case types.StringLiteral, types.HexLiteral:
		s, err := types.StringOrHexLiteral(v)
		if err == nil && s != nil {
			return strings.TrimSpace(*s)
		}
	case types.Name:
		return string(v)
	}
	return ""
}
