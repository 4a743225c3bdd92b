package state

import (
	"errors"
	"sync/atomic"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// jobsScheduled counts the jobs put in any world's queue: a JobCursor that
// sees it unchanged knows that no job entered its queue.
var jobsScheduled atomic.Uint64

// countScheduledJobs counts every job scheduled, for the job cursors.
func countScheduledJobs() {
	// Put is how every job enters a queue (ScheduleAt's and any other):
	// counting there leaves no way in that a cursor would miss.
	addPutCounter(TableJobs, func(*Txn, any) error {
		jobsScheduled.Add(1)
		return nil
	})
}

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
	head *model.Job
}

// NewJobCursor starts a walk of tx's queue.
func NewJobCursor(tx *Txn) *JobCursor { return &JobCursor{tx: tx} }

// Peek returns the first job of the queue, or nil when it is empty. The
// job may have been cancelled since the cursor read the queue (by a job
// taken before it): Take then reports it gone, and Queued tells.
func (c *JobCursor) Peek() *model.Job {
	if n := jobsScheduled.Load(); c.it == nil || n != c.seen {
		c.seen = n
		it, err := c.tx.mem.Get(TableJobs, IndexID)
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
		c.head = raw.(*model.Job)
	}
	return c.head
}

// Take removes the job Peek returned from the queue, so that the cursor
// moves on. It reports false, removing nothing, when the job is no longer
// queued.
func (c *JobCursor) Take(job *model.Job) (bool, error) {
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
func (c *JobCursor) Queued(job *model.Job) bool { return QueuedJob(c.tx, job.Due, job.Seq) != nil }
