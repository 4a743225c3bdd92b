package model

import (
	"encoding/json"
	"strconv"
	"time"
)

// Job is one delayed effect on the world's scheduler. Jobs are data (a kind
// and JSON arguments), not closures, so that a world's queue is exported and
// imported with the rest of its state.
//
// A job's primary key is its place in the queue, (Due, Seq), so that the
// queue needs no index of its own: every index entry costs a queued job
// hundreds of bytes. Its id (ID) is derived from Seq rather than stored.
// Jobs enter the queue only through Put (see JobCursor).
type Job struct {
	// Due is the world time (Unix nanoseconds) at which the job runs.
	Due int64
	// Seq breaks ties between jobs due at the same instant: the earlier
	// scheduled runs first. It is unique among a world's jobs.
	Seq  uint64
	Kind string
	// Subject is the id of the object the job acts on ("" when none).
	Subject string
	Args    json.RawMessage
}

// ID is the job's id, as runs and exports show it: "job_" and Seq in 20
// digits, so that ids sort as jobs were scheduled.
func (j *Job) ID() string { return JobID(j.Seq) }

// JobID is the id of the job of sequence number seq.
func JobID(seq uint64) string {
	const zeros = "00000000000000000000" // a uint64 has at most 20 digits
	d := strconv.FormatUint(seq, 10)
	return "job_" + zeros[len(d):] + d
}

// DueTime is Due as a time.
func (j *Job) DueTime() time.Time { return time.Unix(0, j.Due).UTC() }
