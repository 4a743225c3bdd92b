package main

import (
	"bytes"
	"fmt"
	"strings"
)

// onePagePDF returns a valid one-page PDF of about size bytes: a Letter page
// with a line of text, padded by a comment in the content stream so that
// the upload weighs what a small real document does.
func onePagePDF(size int) []byte {
	doc := build("")
	// Padding changes the digits of /Length and startxref, so aim twice.
	for pad, i := size-len(doc)-2, 0; pad > 0 && i < 2; i++ {
		doc = build("%" + strings.Repeat("x", pad) + "\n")
		pad -= len(doc) - size
	}
	return doc
}

func build(padding string) []byte {
	text := "BT /F1 18 Tf 72 720 Td (signsandbox benchmark document) Tj ET\n" + padding
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(text), text),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}
