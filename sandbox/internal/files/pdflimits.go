package files

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
// to inspect. Object streams hold a document's small objects (a few
// hundred bytes each), so their bounds are generous for real documents.
const (
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

// limitReading tightens pdfcpu's resource limits to the sandbox's.
func limitReading(conf *model.Configuration) {
	l := &conf.Limits
	l.MaxDecodeBytes = min(l.MaxDecodeBytes, maxStreamDecodeBytes)
	l.MaxObjectStreamFirst = min(l.MaxObjectStreamFirst, maxObjectStreamProlog)
	l.MaxObjectCount = min(l.MaxObjectCount, maxObjectCount)
	l.MaxXRefEntries = min(l.MaxXRefEntries, maxObjectCount)
}

// decodeObjectStreams decodes every object stream of a document that was
// read, before anything dereferences their objects, and refuses the
// document when together they decode to more than maxObjectStreamsBytes.
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
				return fileErr(ReasonTooLarge, "An object stream of the PDF decodes to more than %d MiB.", maxStreamDecodeBytes>>20)
			}
			if err != nil {
				break // pdfcpu reports it when the object is needed
			}
			total += int64(len(data))
			if total > maxObjectStreamsBytes {
				return fileErr(ReasonTooLarge, "The PDF's object streams decode to more than %d MiB.", maxObjectStreamsBytes>>20)
			}
		}
	}
	return nil
}
