package pdf

import (
	"fmt"
	"strings"
)

// The appended signature page of a request sent without fields: one block
// per signer with their name, e-mail and a signature box, in which the
// signature is drawn once they sign. The signing page shows the same page
// and puts the signer's input over their box, so the box's place is worked
// out here once (SignaturePageBoxes) for both.

// SignatureBox is a signer's box on the appended signature page: the page
// (1-based, counted within the signature page's own pages) and the box in
// the API's coordinates (points from the page's top-left corner).
type SignatureBox struct {
	Page                int
	X, Y, Width, Height float64
}

// The signature box's size and the height of a signer's block (name,
// e-mail, box, gaps and the rule below it), so that a block never breaks
// across pages.
const (
	sigBoxWidth  = 270.0
	sigBoxHeight = 46.0
	sigBlockNeed = 120.0
)

// signaturePage draws the appended signature page and answers where each
// signer's box is, one box per signer line.
func signaturePage(c *Composition) ([]string, []SignatureBox) {
	l := newLayout(0)
	heading(l, "Signature page", c)
	var boxes []SignatureBox
	for i, s := range c.SignaturePage.Signers {
		l.need(sigBlockNeed)
		name := s.Name
		if name == "" {
			name = fmt.Sprintf("Signer %d", i+1)
		}
		l.para(fontBold, 12, 0, black, name)
		if s.Email != "" {
			l.para(fontRegular, 10, 0, black, s.Email)
		}
		l.gap(6)
		boxes = append(boxes, signatureBlock(l, s, name))
		l.gap(4)
		l.rule()
	}
	return l.finish(), boxes
}

// signatureBlock draws a signer's box at the layout's position (the
// signature in it once signed) and the signing time and status beside it.
func signatureBlock(l *layout, s SignerLine, name string) SignatureBox {
	top := l.y
	box := SignatureBox{Page: len(l.pages) + 1, X: margin, Y: pageHeight - top, Width: sigBoxWidth, Height: sigBoxHeight}
	fmt.Fprintf(&l.cur, "%s %s %s RG 0.75 w %s %s %s %s re S\n", num(lightGray[0]), num(lightGray[1]), num(lightGray[2]),
		num(box.X), num(top-box.Height), num(box.Width), num(box.Height))
	size := PageSize{Width: pageWidth, Height: pageHeight}
	var marks []mark
	side := margin + sigBoxWidth + 16
	if s.SignedAt != nil {
		sig := s.Signature
		if strings.TrimSpace(sig) == "" {
			sig = name
		}
		marks = append(marks, stampMark(Stamp{X: box.X + 6, Y: box.Y, Width: box.Width - 12, Height: box.Height, Text: sig, Kind: StampSignature}, size),
			mark{x: side, y: top - 16, font: fontRegular, size: 9, color: gray, text: winAnsi("Signed " + worldTime(*s.SignedAt))})
	} else {
		marks = append(marks, mark{x: box.X + 8, y: top - box.Height/2 - 3, font: fontRegular, size: 9, color: gray, text: winAnsi("(not signed)")})
	}
	if s.Status != "" {
		marks = append(marks, mark{x: side, y: top - 30, font: fontRegular, size: 9, color: gray, text: winAnsi("Status: " + s.Status)})
	}
	drawMarks(&l.cur, marks)
	l.y = top - box.Height
	return box
}

// SignaturePageBoxes returns where each signer line of c's signature page
// has its box (none without a signature page).
func SignaturePageBoxes(c Composition) []SignatureBox {
	if c.SignaturePage == nil {
		return nil
	}
	_, boxes := signaturePage(&c)
	return boxes
}

// SignaturePagePDF draws only c's appended signature page, with the marks
// every page of the merged PDF carries (its id, the test-mode banner), as
// a standalone PDF: what the signing page shows for the signers to sign on.
func SignaturePagePDF(c Composition) []byte {
	if c.SignaturePage == nil {
		return nil
	}
	w := newPDFWriter()
	pages, _ := signaturePage(&c)
	addDrawn(w, &c, pages)
	return w.finish(c.Title, c.at())
}
