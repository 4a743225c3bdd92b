package pdf

// Reading the objects of a parsed document within one decoding budget: the
// AcroForm reader here and the text extraction of pdftext share it, so that
// pages and fonts that share a stream inflating to the limit cannot make a
// small file cost gigabytes of decoding.

import (
	"errors"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Bounds of reading a document's objects: larger inputs are read up to the
// bound.
const (
	// MaxContentBytes bounds the decoded content of one page (or stream).
	MaxContentBytes = 16 << 20
	// maxDocumentDecodeBytes bounds all the decoding of one document's
	// text, which is also at most decodeFactor times the file (a 400 KB
	// file whose 50 pages share a stream inflating to 400 MB took 29 s and
	// 38 GB of allocations before; a text-heavy page decodes to tens of
	// kilobytes).
	maxDocumentDecodeBytes = 64 << 20
)

// Objects reads the objects of one document, and keeps the budget of what
// reading it may decode.
type Objects struct {
	ctx *model.Context
	// budget is what decoding may still produce (content streams and font
	// maps together); exhausted says a decode was refused for it.
	budget    int64
	exhausted bool
	// limit is the budget the document started with.
	limit int64
}

// NewObjects returns a reader of ctx's objects with the budget of a
// document of its size.
func NewObjects(ctx *model.Context) *Objects {
	budget := decodeBudget(ctx.Read.FileSize, maxDocumentDecodeBytes)
	return &Objects{ctx: ctx, budget: budget, limit: budget}
}

// Context returns the parsed document.
func (o *Objects) Context() *model.Context { return o.ctx }

// Exhausted reports whether a decode was refused for the budget.
func (o *Objects) Exhausted() bool { return o.exhausted }

// BudgetError returns the error of a document whose decoding ran out of
// its budget.
func (o *Objects) BudgetError() *FileError {
	return fileErr(ReasonTooLarge, "The PDF's content decodes to more than %d MiB; its text cannot be read.", o.limit>>20)
}

// Decode decodes a stream within limit and what remains of the document's
// budget, charging the budget what the decoding produced (or, when it hit
// the limit, the limit: the work was done). Pages and fonts may share one
// stream that inflates to the limit, so a per-stream limit alone lets a
// small file cost gigabytes of decoding.
func (o *Objects) Decode(sd *types.StreamDict, limit int64) ([]byte, bool) {
	limit = min(limit, o.budget)
	if limit <= 0 {
		o.exhausted = true
		return nil, false
	}
	c := *sd
	if err := c.DecodeWithLimit(limit); err != nil {
		if errors.Is(err, filter.ErrDecodeLimitExceeded) {
			o.budget -= limit
		} else {
			o.budget -= int64(len(sd.Raw))
		}
		return nil, false
	}
	o.budget -= int64(len(c.Content))
	return c.Content, true
}

// Resolve dereferences an object (resolveObject), nil when it cannot be
// read: readers read what they can.
func (o *Objects) Resolve(obj types.Object) types.Object {
	r, err := resolveObject(o.ctx, obj)
	if err != nil {
		return nil
	}
	return r
}

// Dict returns the dictionary obj is or refers to, nil otherwise.
func (o *Objects) Dict(obj types.Object) types.Dict {
	d, _ := o.Resolve(obj).(types.Dict)
	return d
}

// Array returns the array obj is or refers to, nil otherwise.
func (o *Objects) Array(obj types.Object) types.Array {
	a, _ := o.Resolve(obj).(types.Array)
	return a
}

// Number returns the number obj is or refers to.
func (o *Objects) Number(obj types.Object) (float64, bool) {
	switch v := o.Resolve(obj).(type) {
	case types.Integer:
		return float64(v), true
	case types.Float:
		return float64(v), true
	}
	return 0, false
}

// Name returns the name obj is or refers to, "" otherwise.
func (o *Objects) Name(obj types.Object) string {
	n, _ := o.Resolve(obj).(types.Name)
	return string(n)
}

// StreamContent decodes a stream (nil when it cannot be read).
func (o *Objects) StreamContent(obj types.Object) []byte {
	sd, _, err := o.ctx.DereferenceStreamDict(obj)
	if err != nil || sd == nil {
		return nil
	}
	content, _ := o.Decode(sd, MaxContentBytes)
	return content
}
