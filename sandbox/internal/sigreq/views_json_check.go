//go:build readcheck

package sigreq

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// checkShape makes every view the sandbox writes equal, byte for byte, to
// json.Marshal of its declared shape (views_shape.go): the whole test suite
// run with -tags readcheck checks the hand-written writer on every row the
// tests make, besides the seeded rows of views_shape_test.go.
func checkShape(req *model.SignatureRequest, written []byte) {
	want, err := json.Marshal(shapeOf(req))
	if err != nil {
		panic(fmt.Sprintf("sigreq: the shape of %s does not encode: %v", req.ID, err))
	}
	if !bytes.Equal(written, want) {
		panic(fmt.Sprintf("sigreq: the view of %s differs from its shape:\n wrote %s\n shape %s", req.ID, written, want))
	}
}
