package model

import "fmt"

// FileSetKindRequest is the kind of the file sets kept in request rows.
const FileSetKindRequest = "signature_request"

// CheckImported refuses a file set carried in a request row that names
// another object.
func (r *SignatureRequest) CheckImported() error {
	if r.Files != nil && r.Files.ID != FileSetID(FileSetKindRequest, r.ID) {
		return fmt.Errorf("files: file set %q is not the request's", r.Files.ID)
	}
	return nil
}
