package state

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	memdb "github.com/hashicorp/go-memdb"
)

// Scheduler tables and indexes.
const (
	TableJobs = "jobs"
	// IndexSubject finds the jobs of one object (to drop them when it goes).
	IndexSubject = "subject"
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

// registerJobs adds the job queue and its index by subject.
func registerJobs() {
	Register[Job](&memdb.TableSchema{
		Name: TableJobs,
		Indexes: map[string]*memdb.IndexSchema{
			// The primary key is the queue order (see Job).
			IndexID: {Name: IndexID, Unique: true, Indexer: &jobQueueIndex{}},
		},
	})
	// A subject's jobs are a compact index in scheduling order: a memdb
	// entry cost every queued job about 450 bytes, a radix insert when it
	// was scheduled and a delete when it ran. An entry names its job by
	// its queue key (rowID), looked up as a jobKeyArg. Jobs of no subject
	// are left out.
	registerCompact(&compactIndex{table: TableJobs, name: IndexSubject, tag: "job.subject/",
		bits: 10, keys: func(row any, dst []compactKey) []compactKey {
			if j := row.(*Job); j.Subject != "" {
				dst = append(dst, compactKey{j.Subject, j.Seq})
			}
			return dst
		}})
}

// Schedule queues a job of kind to run after delay (on the world clock),
// acting on subject with args (any JSON-encodable value, or nil). The
// scheduler is woken after commit by whoever owns the store.
func Schedule(tx *Txn, kind, subject string, delay time.Duration, args any) (*Job, error) {
	return ScheduleAt(tx, kind, subject, tx.Now().Add(delay), args)
}

// ScheduleAt queues a job at an absolute world time.
func ScheduleAt(tx *Txn, kind, subject string, at time.Time, args any) (*Job, error) {
	var raw json.RawMessage
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("state: job args: %w", err)
		}
		raw = b
	}
	// The subject is often the id of a row read from its frozen encoding
	// (package rowcodec), which a queued job would keep alive for days: the
	// job keeps a copy of its own.
	j := &Job{Due: at.UnixNano(), Seq: tx.Seq(), Kind: kind, Subject: strings.Clone(subject), Args: raw}
	if err := Put(tx, TableJobs, j); err != nil {
		return nil, err
	}
	tx.Notify(TopicJobs)
	return j, nil
}

// NextJob returns the earliest job, or nil when the queue is empty.
func NextJob(tx *Txn) *Job {
	raw, _ := tx.mem.First(TableJobs, IndexID)
	if raw == nil {
		return nil
	}
	return raw.(*Job)
}

// QueuedJob returns the job still queued at (due, seq), or nil.
func QueuedJob(tx *Txn, due int64, seq uint64) *Job {
	raw, _ := tx.First(TableJobs, IndexID, due, seq)
	if raw == nil {
		return nil
	}
	return raw.(*Job)
}

// CancelJobs removes the queued jobs of a subject of the given kinds (of
// every kind when none is given), reading the subject's jobs once.
func CancelJobs(tx *Txn, subject string, kinds ...string) error {
	jobs, err := JobsOf(tx, subject)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if len(kinds) == 0 || slices.Contains(kinds, j.Kind) {
			if err := tx.Delete(TableJobs, j); err != nil {
				return err
			}
		}
	}
	return nil
}

// JobsOf lists the queued jobs of a subject in id (scheduling) order,
// the order of the subject index.
func JobsOf(tx *Txn, subject string) ([]*Job, error) {
	return All[Job](tx, TableJobs, IndexSubject, subject)
}
