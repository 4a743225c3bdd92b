package sandbox

// Prepared requests kept for later: an unclaimed draft keeps the request its
// user will send, a bulk send job what its requests share. Both store the
// validated sigreqSpec as JSON in their rows (so that a world's export
// carries it) and hand it to the signature request code when the time comes.

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// encodeSpec serializes a validated spec; the requester is not kept (it is
// looked up again when the request is created).
func encodeSpec(spec *sigreqSpec) (json.RawMessage, error) {
	c := *spec
	c.Requester = nil
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode request spec: %w", err)
	}
	return raw, nil
}

// decodeSpec reads a spec written by encodeSpec. Numbers stay json.Number,
// as the request decoder gives them, so metadata round-trips exactly.
func decodeSpec(raw json.RawMessage) (*sigreqSpec, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var spec sigreqSpec
	if err := dec.Decode(&spec); err != nil {
		return nil, fmt.Errorf("decode request spec: %w", err)
	}
	return &spec, nil
}

// createSignatureRequestAs is createSignatureRequest for a request whose id
// was handed out before it existed: an unclaimed draft answers its
// signature_request_id when it is created, and the request of that id is
// made when the draft is sent. It performs the same steps as
// createSignatureRequest (quota, row, list access, processing); keep the
// two in step (see the report: a spec.ID field there would make this a
// one-line call).
func (s *Sandbox) createSignatureRequestAs(tx *state.Txn, id string, spec *sigreqSpec) (*state.SignatureRequest, error) {
	if err := consumeQuota(tx, spec.Requester.ID, spec.TestMode); err != nil {
		return nil, err
	}
	if _, err := state.Get[state.SignatureRequest](tx, state.TableSignatureRequests, id); err == nil {
		return nil, fmt.Errorf("signature request %s already exists", id)
	}
	req := &state.SignatureRequest{ID: id, Seq: tx.Seq(), CreatedAt: tx.Unix()}
	fillFromSpec(tx, req, spec)
	req.Audit = []state.AuditEntry{{Time: tx.Unix(), Actor: spec.Requester.Email, Action: "created", Detail: req.Title}}
	if err := state.Put(tx, state.TableSignatureRequests, req); err != nil {
		return nil, err
	}
	if err := grantAccess(tx, req, nil); err != nil {
		return nil, err
	}
	return req, scheduleProcessing(tx, req)
}
