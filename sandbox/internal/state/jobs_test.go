package state

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// legacyJob is a job row as exports have always written it (when the id
// was a stored field): what an older state holds.
type legacyJob struct {
	ID      string          `json:"id"`
	Due     int64           `json:"due"`
	Seq     uint64          `json:"seq"`
	Kind    string          `json:"kind"`
	Subject string          `json:"subject,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
}

// scheduleOutOfOrder queues four jobs whose queue order is not their
// scheduling order, two of them due at the same instant.
func scheduleOutOfOrder(t *testing.T, st *Store) []*model.Job {
	t.Helper()
	var jobs []*model.Job
	require.NoError(t, st.Update(func(tx *Txn) error {
		for _, s := range []struct {
			subject string
			delay   time.Duration
			args    any
		}{{"b", 3 * time.Hour, map[string]int{"n": 1}}, {"a", time.Hour, nil}, {"b", 2 * time.Hour, nil}, {"", time.Hour, []int{2}}} {
			j, err := Schedule(tx, "kind", s.subject, s.delay, s.args)
			if err != nil {
				return err
			}
			jobs = append(jobs, j)
		}
		return nil
	}))
	return jobs
}

func TestJobsExportInIDOrderAsTheyAlwaysWere(t *testing.T) {
	st := newTestStore(t)
	jobs := scheduleOutOfOrder(t, st)
	tables, err := Export(st.Read())
	require.NoError(t, err)
	require.Len(t, tables[TableJobs], len(jobs))
	for i, j := range jobs {
		want, err := json.Marshal(legacyJob{ID: j.ID(), Due: j.Due, Seq: j.Seq, Kind: j.Kind, Subject: j.Subject, Args: j.Args})
		require.NoError(t, err)
		assert.Equal(t, string(want), string(tables[TableJobs][i]), "row %d: the old shape, in id order", i)
	}
	byValue, err := json.Marshal(*jobs[0])
	require.NoError(t, err)
	assert.Equal(t, string(tables[TableJobs][0]), string(byValue), "a job held by value encodes the same")
	assert.Regexp(t, `^job_[0-9]{20}$`, jobs[0].ID())
	assert.Less(t, jobs[0].ID(), jobs[1].ID())
}

func TestOldJobRowsImportIntoTheQueue(t *testing.T) {
	st := newTestStore(t)
	jobs := scheduleOutOfOrder(t, st)
	tables, err := Export(st.Read())
	require.NoError(t, err)
	// The rows as the previous version wrote them.
	tables[TableJobs] = nil
	for _, j := range jobs {
		b, err := json.Marshal(legacyJob{ID: model.JobID(j.Seq), Due: j.Due, Seq: j.Seq, Kind: j.Kind, Subject: j.Subject, Args: j.Args})
		require.NoError(t, err)
		tables[TableJobs] = append(tables[TableJobs], b)
	}
	db, err := Import(tables)
	require.NoError(t, err)
	st2 := NewStore(db, func() time.Time { return exportTestNow })
	again, err := Export(st2.Read())
	require.NoError(t, err)
	assert.Equal(t, tables[TableJobs], again[TableJobs])

	// The queue runs them by (due, seq); a subject's jobs list in id order.
	tx := st2.Read()
	var order []uint64
	for _, j := range []*model.Job{jobs[1], jobs[3], jobs[2], jobs[0]} {
		order = append(order, j.Seq)
	}
	var got []uint64
	require.NoError(t, st2.Update(func(tx *Txn) error {
		for j := NextJob(tx); j != nil; j = NextJob(tx) {
			got = append(got, j.Seq)
			if err := tx.Delete(TableJobs, j); err != nil {
				return err
			}
		}
		return nil
	}))
	assert.Equal(t, order, got)
	of, err := JobsOf(tx, "b")
	require.NoError(t, err)
	require.Len(t, of, 2)
	assert.Equal(t, []uint64{jobs[0].Seq, jobs[2].Seq}, []uint64{of[0].Seq, of[1].Seq})
	assert.Equal(t, jobs[2].Seq, QueuedJob(tx, jobs[2].Due, jobs[2].Seq).Seq)
	assert.Nil(t, QueuedJob(tx, jobs[2].Due+1, jobs[2].Seq))
}

func TestImportRefusesJobIDsItNeverMade(t *testing.T) {
	st := newTestStore(t)
	scheduleOutOfOrder(t, st)
	cases := []struct {
		name string
		rows []string
		msg  string
	}{
		{"id of another seq", []string{`{"id":"job_00000000000000000007","due":1,"seq":8,"kind":"k"}`},
			`table "jobs" row 0: job id "job_00000000000000000007" is not the id of seq 8`},
		{"made-up id", []string{`{"id":"j","due":1,"seq":1,"kind":"k"}`}, `table "jobs" row 0`},
		{"unknown field", []string{`{"id":"job_00000000000000000001","due":1,"seq":1,"kind":"k","x":1}`}, `unknown field "x"`},
		{"same id, other due", []string{`{"id":"job_00000000000000000001","due":1,"seq":1,"kind":"k"}`,
			`{"id":"job_00000000000000000001","due":2,"seq":1,"kind":"k"}`}, "share an id"},
		{"same id and due", []string{`{"id":"job_00000000000000000001","due":1,"seq":1,"kind":"k"}`,
			`{"id":"job_00000000000000000001","due":1,"seq":1,"kind":"j"}`}, "share an id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tables, err := Export(st.Read())
			require.NoError(t, err)
			tables[TableJobs] = nil
			for _, r := range tc.rows {
				tables[TableJobs] = append(tables[TableJobs], json.RawMessage(r))
			}
			db, err := Import(tables)
			require.Error(t, err)
			assert.Nil(t, db)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestJobIDIsTheSequenceInTwentyDigits(t *testing.T) {
	assert.Equal(t, "job_00000000000000000000", model.JobID(0))
	assert.Equal(t, "job_00000000000000012345", model.JobID(12345))
	assert.Equal(t, "job_18446744073709551615", model.JobID(^uint64(0)))
}
