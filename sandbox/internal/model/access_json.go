package model

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// accessJSON is the exported shape of a SignatureRequestAccess, in the
// field order it always had.
type accessJSON struct {
	ID         string `json:"id"`
	AccountID  string `json:"account_id"`
	RequestID  string `json:"signature_request_id"`
	RequestSeq uint64 `json:"request_seq"`
	Ordinal    uint64 `json:"ordinal"`
}

// MarshalJSON writes the row with its id.
func (a SignatureRequestAccess) MarshalJSON() ([]byte, error) {
	return json.Marshal(accessJSON{ID: a.ID(), AccountID: a.AccountID, RequestID: a.RequestID, RequestSeq: a.RequestSeq, Ordinal: a.Ordinal})
}

// UnmarshalJSON reads an exported row, refusing unknown fields as every
// imported row does and an id that is not the one its ids make (an id
// that disagreed with them would once have been the row's id).
func (a *SignatureRequestAccess) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var j accessJSON
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*a = SignatureRequestAccess{AccountID: j.AccountID, RequestID: j.RequestID, RequestSeq: j.RequestSeq, Ordinal: j.Ordinal}
	if want := a.ID(); j.ID != want {
		return fmt.Errorf("id %q is not %q, the id of account_id and signature_request_id", j.ID, want)
	}
	return nil
}
