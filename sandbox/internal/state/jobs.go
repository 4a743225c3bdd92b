package state

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Scheduler tables and indexes.
const (
	TableJobs = "jobs"
	// IndexSubject finds the jobs of one object (to drop them when it goes).
	IndexSubject = "subject"
)

// registerJobs adds the job queue and its index by subject.
func registerJobs() {
	Register[model.Job](&memdb.TableSchema{
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
			if j := row.(*model.Job); j.Subject != "" {
				dst = append(dst, compactKey{j.Subject, j.Seq})
			}
			return dst
		}})
}

// Schedule queues a job of kind to run after delay (on the world clock),
// acting on subject with args (any JSON-encodable value, or nil). The
// scheduler is woken after commit by whoever owns the store.
func Schedule(tx *Txn, kind, subject string, delay time.Duration, args any) (*model.Job, error) {
	return ScheduleAt(tx, kind, subject, tx.Now().Add(delay), args)
}

// ScheduleAt queues a job at an absolute world time.
func ScheduleAt(tx *Txn, kind, subject string, at time.Time, args any) (*model.Job, error) {
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
	j := &model.Job{Due: at.UnixNano(), Seq: tx.Seq(), Kind: kind, Subject: strings.Clone(subject), Args: raw}
	if err := Put(tx, TableJobs, j); err != nil {
		return nil, err
	}
	tx.Notify(TopicJobs)
	return j, nil
}

// NextJob returns the earliest job, or nil when the queue is empty.
func NextJob(tx *Txn) *model.Job {
	raw, _ := tx.mem.First(TableJobs, IndexID)
	if raw == nil {
		return nil
	}
	return raw.(*model.Job)
}

// QueuedJob returns the job still queued at (due, seq), or nil.
func QueuedJob(tx *Txn, due int64, seq uint64) *model.Job {
	raw, _ := tx.First(TableJobs, IndexID, due, seq)
	if raw == nil {
		return nil
	}
	return raw.(*model.Job)
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
func JobsOf(tx *Txn, subject string) ([]*model.Job, error) {
	return All[model.Job](tx, TableJobs, IndexSubject, subject)
}
