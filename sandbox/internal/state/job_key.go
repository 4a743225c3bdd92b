package state

// The primary key of the jobs table: a job's place in the queue.

import (
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

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
	j, ok := obj.(*model.Job)
	if !ok {
		return false, nil, fmt.Errorf("state: job index: %T is not a *Job", obj)
	}
	return true, jobKey(j.Due, j.Seq), nil
}

// jobKeyArg is a job's whole key (jobKey) as one lookup argument: what
// an entry of a compact index names its job by. A plain string is not
// one, so that an id string is never taken for a key.
type jobKeyArg string

// FromArgs is the key of a lookup by (due int64, seq uint64) or by a
// jobKeyArg; any other arguments (an id string from a reference check)
// are an error, which lookups answer as no row.
func (*jobQueueIndex) FromArgs(args ...any) ([]byte, error) {
	if len(args) == 1 {
		if k, ok := args[0].(jobKeyArg); ok && len(k) == 2*numberKeyLen {
			return []byte(k), nil
		}
	}
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

// jobKeyID is a job's key as its row id: a job's id index key is binary
// (its due time and sequence number), and a lookup takes it as a
// jobKeyArg. It is built without the
// copy FromObject's key would need.
func jobKeyID(j *model.Job) string {
	var k [2 * numberKeyLen]byte
	return string(appendDigits(appendDigits(k[:0], signedDigits(j.Due)), j.Seq))
}

// idArg is the argument a lookup by the id index of table takes to find
// the row whose id (rowInfo.rowID) is id: the id itself, or a job's key.
func idArg(table, id string) any {
	if table == TableJobs {
		return jobKeyArg(id)
	}
	return id
}
