package pdf

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// maxObjectDepth bounds the nesting of one object (arrays in dictionaries in
// arrays...) that the copier follows.
const maxObjectDepth = 100

var errTooDeep = errors.New("objects nested too deeply")

// copier copies the pages of one parsed PDF into a pdfWriter. Every object a
// page reaches is copied once, numbered when first referenced; the queue is
// worked first in, first out, so the output order depends only on the input.
// The source's catalog, outlines and form dictionary are not copied: the
// output is a new document made of the pages.
type copier struct {
	w     *pdfWriter
	ctx   *model.Context
	nums  map[int]int
	queue []types.IndirectRef
}

func newCopier(w *pdfWriter, ctx *model.Context) *copier {
	return &copier{w: w, ctx: ctx, nums: map[int]int{}}
}

// number returns the output number of a source object, queueing it for
// copying the first time.
func (c *copier) number(ref types.IndirectRef) int {
	src := ref.ObjectNumber.Value()
	if n, ok := c.nums[src]; ok {
		return n
	}
	n := c.w.alloc()
	c.nums[src] = n
	c.queue = append(c.queue, ref)
	return n
}

// preparePages numbers the page objects up front, so that a reference to a
// later page (a link, an annotation's /P) points at the page this copier
// writes instead of copying the source's page tree along.
func (c *copier) preparePages(pages []Page) []int {
	out := make([]int, len(pages))
	for i, p := range pages {
		n := c.w.alloc()
		c.nums[p.ref.ObjectNumber.Value()] = n
		out[i] = n
	}
	return out
}

// writePages writes the pages of a parsed document as a new PDF: the pages
// in contents (by index) get that content as their only content stream
// (hidden text tags), the others are copied as they are. The document date
// is the Unix epoch, so the bytes depend on the content alone.
func writePages(ctx *model.Context, pages []Page, contents map[int][]byte, title string) ([]byte, error) {
	w := newPDFWriter()
	cp := newCopier(w, ctx)
	nums := cp.preparePages(pages)
	for i, p := range pages {
		var err error
		if c, ok := contents[i]; ok {
			err = cp.pageWithContent(p, nums[i], c)
		} else {
			err = cp.page(p, nums[i], nil)
		}
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", i+1, err)
		}
	}
	return w.finish(title, time.Unix(0, 0)), nil
}

// pageKeysRewritten are the page entries the copier writes itself; /B
// (article beads) would drag the source's threads along and is dropped.
var pageKeysRewritten = map[string]bool{
	"Type": true, "Parent": true, "Resources": true, "MediaBox": true, "CropBox": true,
	"Rotate": true, "Contents": true, "B": true,
}

// page writes one page as object n. overlay, when not nil, is content drawn
// on top of the page (stamps, markings), which needs the sandbox's fonts.
func (c *copier) page(p Page, n int, overlay []byte) error {
	var b strings.Builder
	if err := c.pageEntries(&b, p); err != nil {
		return err
	}
	if overlay == nil {
		if p.resources != nil {
			b.WriteString("/Resources ")
			if err := c.serialize(&b, p.resources, 1); err != nil {
				return err
			}
		}
		if o, ok := p.dict.Find("Contents"); ok {
			b.WriteString("/Contents ")
			if err := c.serialize(&b, o, 1); err != nil {
				return err
			}
		}
	} else {
		if err := c.resourcesWithFonts(&b, p.resources); err != nil {
			return err
		}
		if err := c.contentsWithOverlay(&b, p.dict, overlay); err != nil {
			return err
		}
	}
	b.WriteString(">>")
	return c.finishPage(n, b.String())
}

// pageEntries starts a page dictionary: type, parent, boxes, rotation and
// every source entry the copier does not rewrite itself.
func (c *copier) pageEntries(b *strings.Builder, p Page) error {
	fmt.Fprintf(b, "<</Type/Page/Parent %d 0 R", c.w.pagesID)
	writeBox(b, "MediaBox", p.media)
	if p.crop != nil {
		writeBox(b, "CropBox", *p.crop)
	}
	if p.rotate != 0 {
		fmt.Fprintf(b, "/Rotate %d", p.rotate)
	}
	for _, k := range sortedKeys(p.dict) {
		if pageKeysRewritten[k] {
			continue
		}
		b.WriteString("/" + types.EncodeName(k) + " ")
		if err := c.serialize(b, p.dict[k], 1); err != nil {
			return err
		}
	}
	return nil
}

// finishPage writes a complete page dictionary as object n.
func (c *copier) finishPage(n int, dict string) error {
	c.w.object(n, dict)
	c.w.pages = append(c.w.pages, n)
	return c.flush()
}

// resourcesWithFonts writes the page's resources with the sandbox's fonts
// added to /Font. The dictionary is written directly on the page, so a
// resource dictionary shared with other pages is left as it was.
func (c *copier) resourcesWithFonts(b *strings.Builder, res types.Object) error {
	b.WriteString("/Resources<<")
	d, err := c.dictOf(res)
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(d) {
		if k == "Font" {
			continue
		}
		b.WriteString("/" + types.EncodeName(k) + " ")
		if err := c.serialize(b, d[k], 2); err != nil {
			return err
		}
	}
	b.WriteString("/Font<<")
	fonts, err := c.dictOf(d["Font"])
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(fonts) {
		b.WriteString("/" + types.EncodeName(k) + " ")
		if err := c.serialize(b, fonts[k], 3); err != nil {
			return err
		}
	}
	b.WriteString(c.w.fontDictEntries())
	b.WriteString(">>>>")
	return nil
}

// contentsWithOverlay writes /Contents as an array: the page's own streams
// between q and Q (so that whatever graphics state they leave behind does not
// move the overlay), then the overlay.
func (c *copier) contentsWithOverlay(b *strings.Builder, page types.Dict, overlay []byte) error {
	var parts []types.Object
	if o, ok := page.Find("Contents"); ok && o != nil {
		switch v := o.(type) {
		case types.Array:
			parts = v
		case types.IndirectRef:
			d, err := c.ctx.Dereference(v)
			if err != nil {
				return err
			}
			if a, ok := d.(types.Array); ok {
				parts = a
			} else {
				parts = []types.Object{v}
			}
		}
	}
	b.WriteString("/Contents[")
	if len(parts) > 0 {
		fmt.Fprintf(b, "%d 0 R", c.w.saveStream())
		for _, p := range parts {
			b.WriteByte(' ')
			if err := c.serialize(b, p, 2); err != nil {
				return err
			}
		}
		overlay = append([]byte("Q\n"), overlay...)
	}
	fmt.Fprintf(b, " %d 0 R]", c.w.contentStream(overlay))
	return nil
}

// dictOf resolves a dictionary (direct, referenced or absent).
func (c *copier) dictOf(o types.Object) (types.Dict, error) {
	if o == nil {
		return types.Dict{}, nil
	}
	r, err := c.resolve(o)
	if err != nil {
		return nil, err
	}
	switch v := r.(type) {
	case types.Dict:
		return v, nil
	case nil:
		return types.Dict{}, nil
	default:
		return nil, fmt.Errorf("expected a dictionary, found %T", r)
	}
}

// resolve dereferences o in the source document.
func (c *copier) resolve(o types.Object) (types.Object, error) { return resolveObject(c.ctx, o) }

// resolveObject dereferences o and decodes objects kept in object streams.
func resolveObject(ctx *model.Context, o types.Object) (types.Object, error) {
	r, err := ctx.Dereference(o)
	if err != nil {
		return nil, err
	}
	if l, ok := r.(types.LazyObjectStreamObject); ok {
		return l.DecodedObject(context.Background())
	}
	return r, nil
}

// flush copies every queued object.
func (c *copier) flush() error {
	for len(c.queue) > 0 {
		ref := c.queue[0]
		c.queue = c.queue[1:]
		n := c.nums[ref.ObjectNumber.Value()]
		o, err := c.resolve(ref)
		if err != nil {
			return fmt.Errorf("object %d: %w", ref.ObjectNumber, err)
		}
		var b strings.Builder
		switch v := o.(type) {
		case types.StreamDict:
			for _, k := range sortedKeys(v.Dict) {
				if k == "Length" {
					continue
				}
				b.WriteString("/" + types.EncodeName(k) + " ")
				if err := c.serialize(&b, v.Dict[k], 1); err != nil {
					return err
				}
			}
			raw := v.Raw
			if raw == nil && len(v.FilterPipeline) == 0 {
				raw = v.Content
			}
			c.w.stream(n, b.String(), raw)
		case types.ObjectStreamDict, types.XRefStreamDict:
			// Structural streams of the source file have no meaning in the
			// copy; a reference to one is answered with null.
			c.w.object(n, "null")
		default:
			if err := c.serialize(&b, o, 0); err != nil {
				return err
			}
			c.w.object(n, b.String())
		}
	}
	return nil
}

// serialize writes o in PDF syntax, numbering the objects it references.
func (c *copier) serialize(b *strings.Builder, o types.Object, depth int) error {
	if depth > maxObjectDepth {
		return errTooDeep
	}
	switch v := o.(type) {
	case nil:
		b.WriteString("null")
	case types.IndirectRef:
		fmt.Fprintf(b, "%d 0 R", c.number(v))
	case types.Dict:
		b.WriteString("<<")
		for _, k := range sortedKeys(v) {
			b.WriteString("/" + types.EncodeName(k) + " ")
			if err := c.serialize(b, v[k], depth+1); err != nil {
				return err
			}
		}
		b.WriteString(">>")
	case types.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(' ')
			}
			if err := c.serialize(b, e, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case types.StreamDict:
		// A stream can only be an indirect object; where one appears
		// directly, its dictionary is kept.
		return c.serialize(b, v.Dict, depth)
	case types.LazyObjectStreamObject:
		d, err := v.DecodedObject(context.Background())
		if err != nil {
			return err
		}
		return c.serialize(b, d, depth+1)
	case types.Boolean, types.Integer, types.Float, types.Name, types.StringLiteral, types.HexLiteral:
		b.WriteString(v.PDFString())
	default:
		b.WriteString("null")
	}
	return nil
}

func writeBox(b *strings.Builder, key string, r box) {
	fmt.Fprintf(b, "/%s[%s %s %s %s]", key, num(r.llx), num(r.lly), num(r.urx), num(r.ury))
}

func sortedKeys(d types.Dict) []string { return slices.Sorted(maps.Keys(d)) }

// pageWithContent writes one page as object n with content as its only
// content stream (the page's other entries are copied as page does).
func (c *copier) pageWithContent(p Page, n int, content []byte) error {
	var b strings.Builder
	if err := c.pageEntries(&b, p); err != nil {
		return err
	}
	if p.resources != nil {
		b.WriteString("/Resources ")
		if err := c.serialize(&b, p.resources, 1); err != nil {
			return err
		}
	}
	fmt.Fprintf(&b, "/Contents %d 0 R>>", c.w.contentStream(content))
	return c.finishPage(n, b.String())
}

// Open parses a PDF (without pdfcpu's validation) and returns its pages
// with their inherited attributes resolved, for readers of its content.
func Open(data []byte) (*model.Context, []Page, error) { return openPDF(data, false) }

// RewritePages writes the document again with the content of the pages
// contents names (by index) replaced; everything else is copied as it was.
func RewritePages(ctx *model.Context, pages []Page, contents map[int][]byte) ([]byte, error) {
	return writePages(ctx, pages, contents, "")
}
