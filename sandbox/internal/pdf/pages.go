package pdf

import (
	"errors"
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Limits of the page tree walk: real documents stay far below them; hostile
// files hit them instead of exhausting the stack or memory.
const (
	maxPages     = 5000
	maxTreeDepth = 64
)

// box is a rectangle in default user space.
type box struct{ llx, lly, urx, ury float64 }

func (b box) width() float64  { return b.urx - b.llx }
func (b box) height() float64 { return b.ury - b.lly }

// letter is the page size readers assume when a page has no MediaBox.
var letter = box{0, 0, 612, 792}

// Page is one page of a parsed PDF with its inherited attributes resolved.
type Page struct {
	ref  types.IndirectRef
	dict types.Dict
	// resources is the page's own /Resources or the inherited one (a Dict or
	// an IndirectRef); nil when there is none.
	resources types.Object
	media     box
	crop      *box
	rotate    int // 0, 90, 180 or 270
}

// visible is the area a reader shows: the crop box clipped to the media box.
func (p Page) visible() box {
	if p.crop == nil {
		return p.media
	}
	c := *p.crop
	v := box{math.Max(c.llx, p.media.llx), math.Max(c.lly, p.media.lly), math.Min(c.urx, p.media.urx), math.Min(c.ury, p.media.ury)}
	if v.width() <= 0 || v.height() <= 0 {
		return p.media
	}
	return v
}

// geometry is how the page is displayed: its visible area and rotation.
func (p Page) geometry() geometry { return geometry{vis: p.visible(), rotate: p.rotate} }

// inherited carries the attributes a page tree node passes to its kids.
type inherited struct {
	resources types.Object
	media     *box
	crop      *box
	rotate    int
}

var errPageTree = errors.New("the page tree is malformed")

// pagesOf walks the page tree of ctx in order.
func pagesOf(ctx *model.Context) ([]Page, error) {
	root, err := ctx.Pages()
	if err != nil || root == nil {
		return nil, errPageTree
	}
	var out []Page
	seen := map[int]bool{}
	var walk func(ref types.IndirectRef, inh inherited, depth int) error
	walk = func(ref types.IndirectRef, inh inherited, depth int) error {
		if depth > maxTreeDepth || len(out) > maxPages {
			return fmt.Errorf("%w: more than %d levels or %d pages", errPageTree, maxTreeDepth, maxPages)
		}
		n := ref.ObjectNumber.Value()
		if seen[n] {
			return fmt.Errorf("%w: node %d appears twice", errPageTree, n)
		}
		seen[n] = true
		d, err := ctx.DereferenceDict(ref)
		if err != nil || d == nil {
			return fmt.Errorf("%w: node %d is not a dictionary", errPageTree, n)
		}
		if r, ok := d.Find("Resources"); ok && r != nil {
			inh.resources = r
		}
		if b := boxEntry(ctx, d, "MediaBox"); b != nil {
			inh.media = b
		}
		if b := boxEntry(ctx, d, "CropBox"); b != nil {
			inh.crop = b
		}
		if r, ok := d.Find("Rotate"); ok {
			if v, err := ctx.DereferenceNumber(r); err == nil {
				inh.rotate = normRotate(v)
			}
		}
		kidsObj, hasKids := d.Find("Kids")
		typ := d.NameEntry("Type")
		isNode := typ != nil && *typ == "Pages" || typ == nil && hasKids
		if !isNode {
			if err := checkContents(ctx, d); err != nil {
				return fmt.Errorf("%w: page %d: %v", errPageTree, n, err)
			}
			media := letter
			if inh.media != nil {
				media = *inh.media
			}
			out = append(out, Page{ref: ref, dict: d, resources: inh.resources, media: media, crop: inh.crop, rotate: inh.rotate})
			return nil
		}
		if !hasKids {
			return nil // an empty node
		}
		kids, err := ctx.DereferenceArray(kidsObj)
		if err != nil {
			return fmt.Errorf("%w: node %d has no readable kids", errPageTree, n)
		}
		for _, k := range kids {
			kr, ok := k.(types.IndirectRef)
			if !ok {
				return fmt.Errorf("%w: a kid of node %d is not a reference", errPageTree, n)
			}
			if err := walk(kr, inh, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(*root, inherited{}, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// checkContents refuses a page whose /Contents is neither absent, a content
// stream, nor an array of content streams. pdfcpu's relaxed validation only
// checks the pages it recognises as pages, and this walk may recognise more
// (a leaf whose /Type is damaged): a page accepted here is copied as it is
// when composed, so anything but streams would make a document that its own
// reader refuses.
func checkContents(ctx *model.Context, page types.Dict) error {
	o, ok := page.Find("Contents")
	if !ok || o == nil {
		return nil
	}
	if r, isRef := o.(types.IndirectRef); isRef {
		v, err := ctx.Dereference(r)
		if err != nil {
			return err
		}
		if a, isArray := v.(types.Array); isArray {
			o = a
		}
	}
	parts, isArray := o.(types.Array)
	if !isArray {
		parts = types.Array{o}
	}
	for _, part := range parts {
		if _, _, err := ctx.DereferenceStreamDict(part); err != nil {
			return errors.New("its contents are not a content stream")
		}
	}
	return nil
}

// boxEntry reads a rectangle entry; nil when absent or unreadable.
func boxEntry(ctx *model.Context, d types.Dict, key string) *box {
	o, ok := d.Find(key)
	if !ok {
		return nil
	}
	a, err := ctx.DereferenceArray(o)
	if err != nil || len(a) != 4 {
		return nil
	}
	var v [4]float64
	for i, e := range a {
		f, err := ctx.DereferenceNumber(e)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		v[i] = f
	}
	b := box{math.Min(v[0], v[2]), math.Min(v[1], v[3]), math.Max(v[0], v[2]), math.Max(v[1], v[3])}
	if b.width() <= 0 || b.height() <= 0 {
		return nil
	}
	return &b
}

// normRotate maps a /Rotate value to 0, 90, 180 or 270 (readers ignore
// values that are not multiples of 90).
func normRotate(v float64) int {
	r := int(v)
	if float64(r) != v || r%90 != 0 {
		return 0
	}
	r %= 360
	if r < 0 {
		r += 360
	}
	return r
}

// APIBox returns a user-space box of the page (llx, lly, urx, ury) in the
// API's coordinates: whole points from the top-left corner of the page as
// displayed, the box grown outwards to whole points, at least 1x1, not
// above or left of the page.
func (p Page) APIBox(llx, lly, urx, ury float64) (x, y, w, h int) {
	return apiBox(p.geometry(), box{llx, lly, urx, ury})
}

func apiBox(g geometry, b box) (x, y, w, h int) {
	const far = 1e7 // beyond any page; keeps the conversions to int defined
	inv := invert(g.matrix())
	size := g.size()
	minU, minV, maxU, maxV := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]float64{{b.llx, b.lly}, {b.urx, b.lly}, {b.llx, b.ury}, {b.urx, b.ury}} {
		u, v := inv[0]*p[0]+inv[2]*p[1]+inv[4], inv[1]*p[0]+inv[3]*p[1]+inv[5]
		minU, minV, maxU, maxV = math.Min(minU, u), math.Min(minV, v), math.Max(maxU, u), math.Max(maxV, v)
	}
	// Rounding to a millionth first keeps sums of character widths that
	// land on a whole point (5.4 x 25) from growing a point.
	snap := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
	left, top := math.Floor(snap(minU)), math.Floor(snap(size.Height-maxV))
	right, bottom := math.Ceil(snap(maxU)), math.Ceil(snap(size.Height-minV))
	clamp := func(v float64) float64 {
		if math.IsNaN(v) {
			return 0
		}
		return math.Min(far, math.Max(0, v))
	}
	left, top, right, bottom = clamp(left), clamp(top), clamp(right), clamp(bottom)
	x, y = int(left), int(top)
	w, h = max(1, int(right-left)), max(1, int(bottom-top))
	return x, y, w, h
}

// invert returns the inverse of a transformation matrix [a b c d e f]
// (the identity for a singular one).
func invert(m [6]float64) [6]float64 {
	det := m[0]*m[3] - m[1]*m[2]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return [6]float64{1, 0, 0, 1, 0, 0}
	}
	a, b, c, d := m[3]/det, -m[1]/det, -m[2]/det, m[0]/det
	return [6]float64{a, b, c, d, -(m[4]*a + m[5]*c), -(m[4]*b + m[5]*d)}
}

// Dict returns the page's dictionary.
func (p Page) Dict() types.Dict { return p.dict }

// Resources returns the page's own /Resources or the inherited one (a Dict
// or an IndirectRef); nil when there is none.
func (p Page) Resources() types.Object { return p.resources }
