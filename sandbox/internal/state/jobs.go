package state

import (
	"encoding/json"
	"fmt"
	"time"

	memdb "github.com/hashicorp/go-memdb"
)

// Scheduler tables and indexes.
const (
	TableJobs = "jobs"
	// IndexDue orders jobs by (due time, sequence): the scheduler's queue.
	IndexDue = "due"
	// IndexSubject finds the jobs of one object (to drop them when it goes).
	IndexSubject = "subject"
)

// Job is one delayed effect on the world's scheduler. Jobs are data (a kind
// and JSON arguments), not closures, so that a world's queue is exported and
// imported with the rest of its state.
type Job struct {
	ID string `json:"id"`
	// Due is the world time (Unix nanoseconds) at which the job runs.
	Due int64 `json:"due"`
	// Seq breaks ties between jobs due at the same instant: the earlier
	// scheduled runs first.
	Seq  uint64 `json:"seq"`
	Kind string `json:"kind"`
	// Subject is the id of the object the job acts on ("" when none).
	Subject string          `json:"subject,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
}

// DueTime is Due as a time.
func (j *Job) DueTime() time.Time { return time.Unix(0, j.Due).UTC() }

func init() {
	Register[Job](&memdb.TableSchema{
		Name: TableJobs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexDue: {Name: IndexDue, Unique: true, Indexer: &memdb.CompoundIndex{Indexes: []memdb.Indexer{
				&memdb.IntFieldIndex{Field: "Due"},
				&memdb.UintFieldIndex{Field: "Seq"},
			}}},
			IndexSubject: {Name: IndexSubject, AllowMissing: true, Indexer: &memdb.StringFieldIndex{Field: "Subject"}},
		},
	})
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
	seq := tx.Seq()
	j := &Job{ID: fmt.Sprintf("job_%020d", seq), Due: at.UnixNano(), Seq: seq, Kind: kind, Subject: subject, Args: raw}
	if err := Put(tx, TableJobs, j); err != nil {
		return nil, err
	}
	tx.Notify(TopicJobs)
	return j, nil
}

// NextJob returns the earliest job, or nil when the queue is empty.
func NextJob(tx *Txn) *Job {
	raw, _ := tx.Txn.First(TableJobs, IndexDue)
	if raw == nil {
		return nil
	}
	return raw.(*Job)
}

// CancelJobs removes the queued jobs of a subject, optionally only of one kind
// ("" for all kinds).
func CancelJobs(tx *Txn, subject, kind string) error {
	jobs, err := JobsOf(tx, subject)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if kind == "" || j.Kind == kind {
			if err := tx.Delete(TableJobs, j); err != nil {
				return err
			}
		}
	}
	return nil
}

// JobsOf lists the queued jobs of a subject in id (scheduling) order.
func JobsOf(tx *Txn, subject string) ([]*Job, error) {
	return All[Job](tx, TableJobs, IndexSubject, subject)
}
