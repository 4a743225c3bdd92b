package pdftext

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
)

// TestScanRefusesWhatDecodesPastTheBudget: a small file whose page draws
// one stream inflating to 6 MB three times decodes to more than the
// document's budget (8 MB for a small file, pdf.Objects): scanning it for
// text tags and extracting its lines are refused as too large, not read
// in part.
func TestScanRefusesWhatDecodesPastTheBudget(t *testing.T) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(bytes.Repeat([]byte(" "), 6<<20))
	require.NoError(t, w.Close())
	doc := pdftest.WritePDF("1.7", []string{
		"<</Type/Catalog/Pages 2 0 R>>",
		"<</Type/Pages/Kids[4 0 R]/Count 1>>",
		fmt.Sprintf("<</Length %d/Filter/FlateDecode>>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
		"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents[3 0 R 3 0 R 3 0 R]>>",
	}, 1)
	_, err := ScanTextTags(doc, true)
	fe, ok := pdf.AsFileError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, pdf.ReasonTooLarge, fe.Reason)
	_, err = ExtractLines(doc)
	fe, ok = pdf.AsFileError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, pdf.ReasonTooLarge, fe.Reason)
}
