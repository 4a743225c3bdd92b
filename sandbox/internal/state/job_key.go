package state

// The primary key of the jobs table: a job's place in the queue.

import "fmt"

// jobQueueIndex keys a job by (Due, Seq) in 32 bytes that sort as the pair
// does (the sign bit of Due flipped, both in digit keys: number_keys.go).
// Lookups take the two numbers: FromArgs(due int64, seq uint64).
type jobQueueIndex struct{}

// jobKey is the key of the job at (due, seq).
func jobKey(due int64, seq uint64) []byte {
	k := make([]byte, 0, 2*numberKeyLen)
	return appendDigits(appendDigits(k, signedDigits(due)), seq)
}

// FromObject is the key of a stored job.
func (*jobQueueIndex) FromObject(obj any) (bool, []byte, error) {
	j, ok := obj.(*Job)
	if !ok {
		return false, nil, fmt.Errorf("state: job index: %T is not a *Job", obj)
	}
	return true, jobKey(j.Due, j.Seq), nil
}

// FromArgs is the key of a lookup by (due int64, seq uint64); any other
// arguments (an id string from a reference check) are an error, which
// lookups answer as no row.
func (*jobQueueIndex) FromArgs(args ...any) ([]byte, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("state: job index: want (due, seq), got %d arguments", len(args))
	}
	due, ok1 := args[0].(int64)
	seq, ok2 := args[1].(uint64)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("state: job index: want (int64, uint64), got (%T, %T)", args[0], args[1])
	}
	return jobKey(due, seq), nil
}

// idArgs is what finds the job by the id index (see keyedRow).
func (j *Job) idArgs() []any { return []any{j.Due, j.Seq} }
