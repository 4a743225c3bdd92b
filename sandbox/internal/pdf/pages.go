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

// srcPage is one page of a parsed PDF with its inherited attributes resolved.
type srcPage struct {
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
func (p srcPage) visible() box {
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
func (p srcPage) geometry() geometry { return geometry{vis: p.visible(), rotate: p.rotate} }

// inherited carries the attributes a page tree node passes to its kids.
type inherited struct {
	resources types.Object
	media     *box
	crop      *box
	rotate    int
}

var errPageTree = errors.New("the page tree is malformed")

// pagesOf walks the page tree of ctx in order.
func pagesOf(ctx *model.Context) ([]srcPage, error) {
	root, err := ctx.Pages()
	if err != nil || root == nil {
		return nil, errPageTree
	}
	var out []srcPage
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
			out = append(out, srcPage{ref: ref, dict: d, resources: inh.resources, media: media, crop: inh.crop, rotate: inh.rotate})
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
