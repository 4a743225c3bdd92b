package pdf

import (
	"errors"
	"sort"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Limits of reading a PDF. pdfcpu's defaults let every stream decode to
// 512 MiB, and deflate inflates a thousandfold: a 400 KB upload whose page
// refers to an object in a stream of 400 MB of spaces took 9 s and 1.4 GB
// to inspect. What a document may decode grows with its size (real files
// compress text and object streams a few times, never a thousandfold), so
// that a request's memory stays a multiple of its size.
const (
	// decodeFactor is how many times its size a document may decode to,
	// within minDecodeBudget and the maxima below.
	decodeFactor = 16
	// minDecodeBudget is what any document may decode to, however small.
	minDecodeBudget = 8 << 20
	// maxStreamDecodeBytes bounds what one stream pdfcpu decodes may become.
	maxStreamDecodeBytes = 16 << 20
	// maxObjectStreamsBytes bounds what all of a document's object streams
	// decode to together.
	maxObjectStreamsBytes = 64 << 20
	// maxObjectStreamProlog bounds an object stream's prolog (its table of
	// object numbers and offsets, about 12 bytes per object).
	maxObjectStreamProlog = 256 << 10
	// maxObjectCount bounds the objects of a document (an xref stream's
	// /Size), far above the objects of any real document of 40 MiB.
	maxObjectCount = 2_000_000
)

// decodeBudget is what a document of size bytes may decode to in all, up
// to limit.
func decodeBudget(size int64, limit int64) int64 {
	return min(max(decodeFactor*size, minDecodeBudget), limit)
}

// limitReading tightens pdfcpu's resource limits to the sandbox's for a
// document of size bytes.
func limitReading(conf *model.Configuration, size int64) {
	l := &conf.Limits
	l.MaxDecodeBytes = min(l.MaxDecodeBytes, decodeBudget(size, maxStreamDecodeBytes))
	l.MaxObjectStreamFirst = min(l.MaxObjectStreamFirst, maxObjectStreamProlog)
	l.MaxObjectCount = min(l.MaxObjectCount, maxObjectCount)
	l.MaxXRefEntries = min(l.MaxXRefEntries, maxObjectCount)
}

// decodeObjectStreams decodes every object stream of a document that was
// read, before anything dereferences their objects, and refuses the
// document when together they decode to more than its budget (at most
// maxObjectStreamsBytes).
// pdfcpu decodes them lazily, each within its own limit but without a limit
// for the document; decoding them here, in object number order, caches the
// content where pdfcpu looks for it and bounds the total (to the budget
// plus one stream's limit).
func decodeObjectStreams(ctx *model.Context) error {
	nrs := make([]int, 0, len(ctx.Read.ObjectStreams))
	for nr := range ctx.Read.ObjectStreams {
		nrs = append(nrs, nr)
	}
	sort.Ints(nrs)
	budget := decodeBudget(ctx.Read.FileSize, maxObjectStreamsBytes)
	var total int64
	for _, nr := range nrs {
		entry := ctx.Table[nr]
		if entry == nil {
			continue
		}
		osd, ok := entry.Object.(types.ObjectStreamDict)
		if !ok {
			continue
		}
		for _, o := range osd.ObjArray {
			lazy, ok := o.(types.LazyObjectStreamObject)
			if !ok {
				continue
			}
			data, err := lazy.GetData()
			if errors.Is(err, filter.ErrDecodeLimitExceeded) {
				return fileErr(ReasonTooLarge, "An object stream of the PDF decodes to more than %d MiB.",
					decodeBudget(ctx.Read.FileSize, maxStreamDecodeBytes)>>20)
			}
			if err != nil {
				break // pdfcpu reports it when the object is needed
			}
			total += int64(len(data))
			if total > budget {
				return fileErr(ReasonTooLarge, "The PDF's object streams decode to more than %d MiB.", budget>>20)
			}
		}
	}
	return nil
}
