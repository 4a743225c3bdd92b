package sigreq

// Prepared requests kept for later: an unclaimed draft keeps the request its
// user will send, a bulk send job what its requests share. Both store the
// validated Spec as JSON in their rows (so that a world's export
// carries it) and hand it to the signature request code when the time comes.

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Encode serializes a validated spec; the requester is not kept (it is
// looked up again when the request is created), nor an ID (the draft's row
// has it).
func (spec *Spec) Encode() (json.RawMessage, error) {
	c := *spec
	c.Requester, c.ID = nil, ""
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode request spec: %w", err)
	}
	return raw, nil
}

// DecodeSpec reads a spec written by Encode. Numbers stay json.Number,
// as the request decoder gives them, so metadata round-trips exactly.
func DecodeSpec(raw json.RawMessage) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var spec Spec
	if err := dec.Decode(&spec); err != nil {
		return nil, fmt.Errorf("decode request spec: %w", err)
	}
	return &spec, nil
}
