package testvalues

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// On reports whether the world of tx uses test values (the world
// configuration's test_values).
func On(tx *state.Txn) bool { return state.GetConfig(tx).TestValues.On() }

// DocumentFailure is the first document of docs that asks for a failure
// (FileFailure on its name and original bytes): its index and status code,
// or -1 and "". A document that could not be read at all is left to the
// real failure it has.
func DocumentFailure(tx *state.Txn, docs []model.Document) (int, string) {
	for i, d := range docs {
		if d.Error != "" {
			continue
		}
		id := d.BlobID
		if id == "" {
			id = d.PDFBlobID
		}
		var data []byte
		if id != "" {
			data, _ = state.GetBlob(tx, id)
		}
		if f := FileFailure(d.Name, data); f != "" {
			return i, f
		}
	}
	return -1, ""
}
