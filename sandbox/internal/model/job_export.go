package model

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jobJSON is a job as exported: the shape jobs have always had, id first.
type jobJSON struct {
	ID      string          `json:"id"`
	Due     int64           `json:"due"`
	Seq     uint64          `json:"seq"`
	Kind    string          `json:"kind"`
	Subject string          `json:"subject,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
}

// MarshalJSON writes the job with its id, as jobs were always exported
// (a value receiver: a Job held by value encodes the same).
func (j Job) MarshalJSON() ([]byte, error) {
	return json.Marshal(jobJSON{ID: j.ID(), Due: j.Due, Seq: j.Seq, Kind: j.Kind, Subject: j.Subject, Args: j.Args})
}

// UnmarshalJSON reads an exported job. Unknown fields are refused, as in
// every imported row, and so is an id that is not the one of the job's
// sequence number: the sandbox never made another, and the id is not kept.
func (j *Job) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var in jobJSON
	if err := dec.Decode(&in); err != nil {
		return err
	}
	if want := JobID(in.Seq); in.ID != want {
		return fmt.Errorf("job id %q is not the id of seq %d (%q)", in.ID, in.Seq, want)
	}
	*j = Job{Due: in.Due, Seq: in.Seq, Kind: in.Kind, Subject: in.Subject, Args: in.Args}
	return nil
}
