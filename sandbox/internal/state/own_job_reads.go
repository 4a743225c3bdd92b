package state

import (
	"cmp"
	"slices"
	"strings"
)

// The jobs of a subject inside a write. Scheduling a job cancels the
// subject's jobs of that kind first (CancelJobs), and the subject index
// has usually been changed by the write already (a send schedules its
// processing, then its file preparation, then its expiry): memdb would
// answer from a clone of the index and the next job's insert would copy
// the index's path again (see own_reads.go). A counting write answers
// from the database as it found it and the jobs it put since, which it
// indexes by subject as it puts them (rowWrite.jobSubjects).

// noteJob indexes a job the write put under its subject. A subject with a
// NUL in it would match other subjects' lookups in memdb's index (the
// index ends every subject with a NUL): the write's reads are memdb's
// from then on.
func (w *rowWrite) noteJob(key rowKey, row any) {
	j, ok := row.(*Job)
	if !ok || key.table != TableJobs {
		return
	}
	if strings.IndexByte(j.Subject, 0) >= 0 {
		w.unsure = true
		return
	}
	if w.jobSubjects == nil {
		w.jobSubjects = map[string][]string{}
	}
	w.jobSubjects[j.Subject] = append(w.jobSubjects[j.Subject], key.id)
}

// ownJobsOf answers the jobs the subject index holds for subject in its
// order (due, then seq), as memdb's read of the write would (ok false when
// memdb must answer).
func (t *Txn) ownJobsOf(subject string) (jobs []*Job, ok bool) {
	if t.rows == nil || t.rows.unsure || subject == "" || strings.IndexByte(subject, 0) >= 0 || t.rowInfo(TableJobs) == nil {
		return nil, false
	}
	it, err := t.baseTxn().Get(TableJobs, IndexSubject, subject)
	if err != nil {
		return nil, false
	}
	for raw := it.Next(); raw != nil; raw = it.Next() {
		// A job the write deleted or replaced is left out here (one it
		// only read is seen as itself); one it put comes below.
		j := raw.(*Job)
		if cur, seen := t.rows.seen[rowKey{TableJobs, string(jobKey(j.Due, j.Seq))}]; !seen || cur == raw {
			jobs = append(jobs, j)
		}
	}
	base := len(jobs)
	for _, id := range t.rows.jobSubjects[subject] {
		j, _ := t.rows.seen[rowKey{TableJobs, id}].(*Job)
		if j == nil || j.Subject != subject || slices.Contains(jobs, j) {
			continue // deleted, moved to another subject, or put twice
		}
		jobs = append(jobs, j)
	}
	if len(jobs) > base {
		slices.SortFunc(jobs, func(a, b *Job) int {
			return cmp.Or(cmp.Compare(a.Due, b.Due), cmp.Compare(a.Seq, b.Seq))
		})
	}
	return jobs, true
}
