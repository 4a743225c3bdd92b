package state

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
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
// Jobs enter the queue only through ScheduleAt (see JobCursor).
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

// jobJSON is a job as exported: the shape jobs have always had, id first.
type jobJSON struct {
	ID      string          `json:"id"`
	Due     int64           `json:"due"`
	Seq     uint64          `json:"seq"`
	Kind    string          `json:"kind"`
	Subject string          `json:"subject,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
}

// MarshalJSON writes the job with its id, as jobs were always exported.
func (j *Job) MarshalJSON() ([]byte, error) {
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

// jobQueueIndex keys a job by (Due, Seq) in 16 bytes that sort as the pair
// does (the sign bit of Due flipped, both big-endian). Lookups take the
// two numbers: FromArgs(due int64, seq uint64).
type jobQueueIndex struct{}

func jobKey(due int64, seq uint64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(due)^(1<<63))
	binary.BigEndian.PutUint64(k[8:], seq)
	return k
}

func (*jobQueueIndex) FromObject(obj any) (bool, []byte, error) {
	j, ok := obj.(*Job)
	if !ok {
		return false, nil, fmt.Errorf("state: job index: %T is not a *Job", obj)
	}
	return true, jobKey(j.Due, j.Seq), nil
}

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

func init() {
	Register[Job](&memdb.TableSchema{
		Name: TableJobs,
		Indexes: map[string]*memdb.IndexSchema{
			// The primary key is the queue order (see Job).
			IndexID:      {Name: IndexID, Unique: true, Indexer: &jobQueueIndex{}},
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
	j := &Job{Due: at.UnixNano(), Seq: tx.Seq(), Kind: kind, Subject: subject, Args: raw}
	if err := Put(tx, TableJobs, j); err != nil {
		return nil, err
	}
	jobsScheduled.Add(1)
	tx.Notify(TopicJobs)
	return j, nil
}

// jobsScheduled counts the jobs ScheduleAt has queued, in any world: a
// JobCursor that sees it unchanged knows that no job entered its queue.
var jobsScheduled atomic.Uint64

// JobCursor walks the queue of a write transaction in (due, seq) order
// while the scheduler takes the jobs it shows and runs them, which may
// schedule and cancel others. It reads the queue once, and again only
// when a job was scheduled since (in any world: a needless read costs
// time, never a job). Reading the queue before every job, as NextJob
// does, is what made a batch expensive: memdb answers a read of an index
// the transaction has written from a clone, and making the clone drops the
// nodes the transaction has copied, so every removal then copied the
// queue's path from its root again.
type JobCursor struct {
	tx   *Txn
	it   memdb.ResultIterator
	seen uint64
	head *Job
}

// NewJobCursor starts a walk of tx's queue.
func NewJobCursor(tx *Txn) *JobCursor { return &JobCursor{tx: tx} }

// Peek returns the first job of the queue, or nil when it is empty. The
// job may have been cancelled since the cursor read the queue (by a job
// taken before it): Take then reports it gone, and Queued tells.
func (c *JobCursor) Peek() *Job {
	if n := jobsScheduled.Load(); c.it == nil || n != c.seen {
		c.seen = n
		it, err := c.tx.Txn.Get(TableJobs, IndexID)
		if err != nil {
			return nil // the table and index are the schema's own: cannot happen
		}
		c.it, c.head = it, nil
	}
	if c.head == nil {
		raw := c.it.Next()
		if raw == nil {
			return nil
		}
		c.head = raw.(*Job)
	}
	return c.head
}

// Take removes the job Peek returned from the queue, so that the cursor
// moves on. It reports false, removing nothing, when the job is no longer
// queued.
func (c *JobCursor) Take(job *Job) (bool, error) {
	c.head = nil
	if err := c.tx.Delete(TableJobs, job); err != nil {
		if errors.Is(err, memdb.ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// Skip moves past the job Peek returned without removing it (one Queued
// reported gone).
func (c *JobCursor) Skip() { c.head = nil }

// Queued reports whether job is still queued. It reads the queue: ask it
// only where a cancelled job would change a decision.
func (c *JobCursor) Queued(job *Job) bool { return QueuedJob(c.tx, job.Due, job.Seq) != nil }

// NextJob returns the earliest job, or nil when the queue is empty.
func NextJob(tx *Txn) *Job {
	raw, _ := tx.Txn.First(TableJobs, IndexID)
	if raw == nil {
		return nil
	}
	return raw.(*Job)
}

// QueuedJob returns the job still queued at (due, seq), or nil.
func QueuedJob(tx *Txn, due int64, seq uint64) *Job {
	raw, _ := tx.Txn.First(TableJobs, IndexID, due, seq)
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
	jobs, err := All[Job](tx, TableJobs, IndexSubject, subject)
	sortJobsBySeq(jobs)
	return jobs, err
}

func sortJobsBySeq(jobs []*Job) {
	slices.SortFunc(jobs, func(a, b *Job) int { return cmp.Compare(a.Seq, b.Seq) })
}

// jobsInIDOrder puts exported job rows in id order, the order export has
// always written them in (the table itself is in queue order).
func jobsInIDOrder(rows []any) {
	slices.SortStableFunc(rows, func(a, b any) int { return cmp.Compare(a.(*Job).Seq, b.(*Job).Seq) })
}

// checkJobIDs refuses imported jobs that share an id (a sequence number):
// the table's key is (due, seq), so memdb would keep both.
func checkJobIDs(rows []any) error {
	seen := make(map[uint64]bool, len(rows))
	dups := 0
	for _, r := range rows {
		s := r.(*Job).Seq
		if seen[s] {
			dups++
		}
		seen[s] = true
	}
	if dups > 0 {
		return fmt.Errorf("table %q: %d rows share an id with another row", TableJobs, dups)
	}
	return nil
}
