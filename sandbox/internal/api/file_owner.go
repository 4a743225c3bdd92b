package api

// The seam between the documents area and the objects that own files.

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// FileOwner is how the documents area reaches the objects that own files
// (Registry.FileOwners, by object kind).
type FileOwner struct {
	// Visible returns nil when the caller may download the object's files,
	// else the API error (404 not_found, 410 deleted, 409 while the object
	// itself is not ready).
	Visible func(c *Call, tx *state.Txn, id string) error
	// Compose describes the object's downloadable PDF as of now, with the
	// blob id holding each document's bytes ("" for bytes that only the
	// composition holds).
	Compose func(tx *state.Txn, id string) (pdf.Composition, []string, error)
}
