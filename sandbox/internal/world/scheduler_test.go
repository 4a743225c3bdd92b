package world

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// The test jobs leave their marks as team rows: a stored table that export
// and import carry, so that runs can be compared as whole states.

type markArgs struct {
	Name string `json:"name"`
	// Then schedules follow-up jobs, each after its delay (seconds).
	Then []followUp `json:"then,omitempty"`
}

type followUp struct {
	Name  string `json:"name"`
	After int    `json:"after"`
}

// testJobs registers the job kinds of these tests:
//   - mark: writes a team row named after the job and its run time, then
//     schedules its follow-ups;
//   - fail: writes a row and fails, so the row must not survive;
//   - cancel: cancels the queued jobs of the subject its args name;
//   - panicky is never registered (unknown kinds must not wedge the queue).
func testJobs() *JobRegistry {
	r := NewJobRegistry()
	r.Handle("mark", func(w *World, tx *state.Txn, job *model.Job) error {
		var a markArgs
		if err := json.Unmarshal(job.Args, &a); err != nil {
			return err
		}
		row := &model.Team{ID: fmt.Sprintf("%020d", job.Seq), Name: a.Name + "@" + tx.Now().Format(time.RFC3339), CreatedAt: tx.Unix()}
		if err := state.Put(tx, state.TableTeams, row); err != nil {
			return err
		}
		for _, f := range a.Then {
			if _, err := state.Schedule(tx, "mark", "", time.Duration(f.After)*time.Second, markArgs{Name: f.Name}); err != nil {
				return err
			}
		}
		return nil
	})
	r.Handle("noop", func(*World, *state.Txn, *model.Job) error { return nil })
	r.Handle("cancel", func(w *World, tx *state.Txn, job *model.Job) error {
		var subject string
		if err := json.Unmarshal(job.Args, &subject); err != nil {
			return err
		}
		return state.CancelJobs(tx, subject)
	})
	r.Handle("fail", func(w *World, tx *state.Txn, job *model.Job) error {
		if err := state.Put(tx, state.TableTeams, &model.Team{ID: "should-not-exist"}); err != nil {
			return err
		}
		return errors.New("this job always fails")
	})
	return r
}

func newTestWorld(t testing.TB, o Options) *World {
	t.Helper()
	if o.ID == "" {
		o.ID = "test"
	}
	if o.Seed == "" {
		o.Seed = "seed"
	}
	if o.Jobs == nil {
		o.Jobs = testJobs()
	}
	w, err := New(o)
	require.NoError(t, err)
	t.Cleanup(w.Close)
	return w
}

// schedule queues mark jobs in one transaction: delay in seconds -> name.
func schedule(t testing.TB, w *World, jobs ...followUp) {
	t.Helper()
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		for _, j := range jobs {
			if _, err := state.Schedule(tx, "mark", "", time.Duration(j.After)*time.Second, markArgs{Name: j.Name}); err != nil {
				return err
			}
		}
		return nil
	}))
}

// marks lists the team rows the jobs wrote, in run order.
func marks(t testing.TB, w *World) []string {
	t.Helper()
	rows, err := state.All[model.Team](w.Store.Read(), state.TableTeams, state.IndexID)
	require.NoError(t, err)
	var out []string
	for _, r := range rows {
		out = append(out, r.Name)
	}
	return out
}

func at(sec int) string {
	return DefaultStart.Add(time.Duration(sec) * time.Second).Format(time.RFC3339)
}

func TestAdvanceRunsJobsInDueThenSequenceOrder(t *testing.T) {
	w := newTestWorld(t, Options{})
	schedule(t, w, followUp{"c", 30}, followUp{"a", 10}, followUp{"b1", 20}, followUp{"b2", 20}, followUp{"late", 3600})
	schedule(t, w, followUp{"b3", 20})

	ran, err := w.Advance(25 * time.Second)
	require.NoError(t, err)
	// Jobs run with the clock at their due time; equal due times run in the
	// order they were scheduled.
	assert.Equal(t, []string{"a@" + at(10), "b1@" + at(20), "b2@" + at(20), "b3@" + at(20)}, marks(t, w))
	require.Len(t, ran, 4)
	assert.Equal(t, DefaultStart.Add(10*time.Second).Unix(), ran[0].At)
	assert.Equal(t, "mark", ran[0].Kind)
	assert.Empty(t, ran[0].Error)
	assert.Equal(t, DefaultStart.Add(25*time.Second), w.Now(), "the clock ends at the target")

	ran, err = w.Advance(5 * time.Second)
	require.NoError(t, err)
	require.Len(t, ran, 1, "a job due exactly at the target runs")
	assert.Equal(t, DefaultStart.Add(30*time.Second).Unix(), ran[0].At)

	ran, err = w.Advance(0)
	require.NoError(t, err)
	assert.Empty(t, ran)
	next := state.NextJob(w.Store.Read())
	require.NotNil(t, next)
	assert.Equal(t, DefaultStart.Add(time.Hour), next.DueTime())
}

func TestJobsScheduledByJobsRunInsideTheWindow(t *testing.T) {
	w := newTestWorld(t, Options{})
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		_, err := state.Schedule(tx, "mark", "", 10*time.Second, markArgs{Name: "parent", Then: []followUp{{"child", 5}, {"now", 0}, {"outside", 100}}})
		return err
	}))
	ran, err := w.Advance(20 * time.Second)
	require.NoError(t, err)
	assert.Len(t, ran, 3)
	assert.Equal(t, []string{"parent@" + at(10), "child@" + at(15), "now@" + at(10)}, marks(t, w)[:3])
	assert.Equal(t, []string{"parent", "now", "child"}, ranNames(t, w, ran), "run order is due time, then scheduling order")

	ran, err = w.Advance(100 * time.Second)
	require.NoError(t, err)
	require.Len(t, ran, 1)
	assert.Contains(t, marks(t, w), "outside@"+at(110))
}

// ranNames maps ran jobs to the names their marks carry.
func ranNames(t *testing.T, w *World, ran []RanJob) []string {
	t.Helper()
	tx := w.Store.Read()
	var out []string
	for _, r := range ran {
		var seq uint64
		_, err := fmt.Sscanf(r.ID, "job_%d", &seq)
		require.NoError(t, err)
		row, err := state.Get[model.Team](tx, state.TableTeams, fmt.Sprintf("%020d", seq))
		require.NoError(t, err)
		name := row.Name
		for i := range name {
			if name[i] == '@' {
				name = name[:i]
				break
			}
		}
		out = append(out, name)
	}
	return out
}

func TestFailingJobsDoNotWedgeTheQueue(t *testing.T) {
	w := newTestWorld(t, Options{})
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		if _, err := state.Schedule(tx, "fail", "sr1", time.Second, nil); err != nil {
			return err
		}
		if _, err := state.Schedule(tx, "no-such-kind", "sr2", 2*time.Second, nil); err != nil {
			return err
		}
		_, err := state.Schedule(tx, "mark", "", 3*time.Second, markArgs{Name: "after"})
		return err
	}))
	ran, err := w.Advance(time.Minute)
	require.NoError(t, err)
	require.Len(t, ran, 3)
	assert.Equal(t, "this job always fails", ran[0].Error)
	assert.Equal(t, "sr1", ran[0].Subject)
	assert.Contains(t, ran[1].Error, "no function for job kind")
	assert.Empty(t, ran[2].Error)
	assert.Equal(t, []string{"after@" + at(3)}, marks(t, w), "a failed job's writes roll back")
	assert.Nil(t, state.NextJob(w.Store.Read()), "failed jobs leave the queue")
}

func TestAdvanceRefusals(t *testing.T) {
	w := newTestWorld(t, Options{})
	_, err := w.Advance(-time.Second)
	require.Error(t, err)

	real := newTestWorld(t, Options{Mode: ClockReal})
	_, err = real.Advance(time.Second)
	require.ErrorIs(t, err, ErrNotFake)
	assert.Equal(t, ClockReal, real.Mode())
}

func TestRealClockWorldRunsDueJobsByItself(t *testing.T) {
	done := make(chan string, 1)
	jobs := testJobs()
	jobs.Handle("signal", func(w *World, tx *state.Txn, job *model.Job) error {
		done <- job.Subject
		return nil
	})
	w := newTestWorld(t, Options{Mode: ClockReal, Jobs: jobs})
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		_, err := state.Schedule(tx, "signal", "soon", 30*time.Millisecond, nil)
		return err
	}))
	select {
	case s := <-done:
		assert.Equal(t, "soon", s)
	case <-time.After(5 * time.Second):
		t.Fatal("a real-clock world did not run a due job by itself")
	}
	// A job scheduled in the past runs at once.
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		_, err := state.Schedule(tx, "signal", "past", -time.Hour, nil)
		return err
	}))
	select {
	case s := <-done:
		assert.Equal(t, "past", s)
	case <-time.After(5 * time.Second):
		t.Fatal("an overdue job did not run")
	}
}

func TestExternalFakeClockRunsDueJobsWhenMoved(t *testing.T) {
	done := make(chan time.Time, 1)
	jobs := testJobs()
	jobs.Handle("signal", func(w *World, tx *state.Txn, job *model.Job) error {
		done <- tx.Now()
		return nil
	})
	fc := clockwork.NewFakeClockAt(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	w := newTestWorld(t, Options{Clock: fc, Jobs: jobs})
	assert.Equal(t, ClockFake, w.Mode())
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		_, err := state.Schedule(tx, "signal", "", time.Hour, nil)
		return err
	}))
	select {
	case <-done:
		t.Fatal("the job ran before its time")
	case <-time.After(20 * time.Millisecond):
	}
	fc.Advance(2 * time.Hour)
	select {
	case ts := <-done:
		assert.Equal(t, time.Date(2030, 1, 1, 2, 0, 0, 0, time.UTC), ts)
	case <-time.After(5 * time.Second):
		t.Fatal("moving the embedder's fake clock did not run the due job")
	}
}

// TestCatchUpRunsWhatIsDueBeforeTheTimerFires: after the embedder's clock
// moves, a call that catches up sees the due job done, whether or not the
// background loop got there first; a world whose clock it owns is left alone.
func TestCatchUpRunsWhatIsDueBeforeTheTimerFires(t *testing.T) {
	jobs := testJobs()
	pending := func(w *World) int {
		n := 0
		if state.NextJob(w.Store.Read()) != nil {
			n = 1
		}
		return n
	}
	fc := clockwork.NewFakeClockAt(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	external := newTestWorld(t, Options{Clock: fc, Jobs: jobs})
	owned := newTestWorld(t, Options{Jobs: jobs})
	for _, w := range []*World{external, owned} {
		require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
			_, err := state.Schedule(tx, "noop", "", time.Second, nil)
			return err
		}))
	}
	external.CatchUp()
	assert.Equal(t, 1, pending(external), "not due yet")
	fc.Advance(2 * time.Second)
	external.CatchUp()
	assert.Equal(t, 0, pending(external), "due, so done when CatchUp returns")
	owned.CatchUp()
	assert.Equal(t, 1, pending(owned), "an owned fake clock runs jobs only when advanced")
}

func TestResetAndImportWithPendingJobs(t *testing.T) {
	w := newTestWorld(t, Options{})
	schedule(t, w, followUp{"x", 60})
	_, err := w.Advance(10 * time.Second)
	require.NoError(t, err)
	require.NoError(t, w.Reset(nil))
	assert.Nil(t, state.NextJob(w.Store.Read()), "a reset drops the queue")
	assert.Equal(t, DefaultStart.Add(10*time.Second), w.Now(), "a reset does not move the clock back")
	ran, err := w.Advance(time.Hour)
	require.NoError(t, err)
	assert.Empty(t, ran)
}

// TestImportedWorldBehavesLikeTheOriginal exports a world with pending jobs
// (some of which schedule more), imports it into another world, advances
// both the same way and compares the results byte for byte.
func TestImportedWorldBehavesLikeTheOriginal(t *testing.T) {
	orig := newTestWorld(t, Options{})
	require.NoError(t, orig.Store.Update(func(tx *state.Txn) error {
		_, err := state.Schedule(tx, "mark", "", 10*time.Second, markArgs{Name: "p", Then: []followUp{{"c1", 5}, {"c2", 500}}})
		if err != nil {
			return err
		}
		_, err = state.Schedule(tx, "mark", "", 100*time.Second, markArgs{Name: "q"})
		return err
	}))
	_, err := orig.Advance(12 * time.Second)
	require.NoError(t, err)

	tables, err := state.Export(orig.Store.Read())
	require.NoError(t, err)
	db, err := state.Import(tables)
	require.NoError(t, err)
	copyW := newTestWorld(t, Options{ID: "copy", Seed: "another seed", Start: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)})
	require.NoError(t, copyW.Import(db, ClockFake, orig.Now()))
	assert.Equal(t, orig.Now(), copyW.Now())

	for _, d := range []time.Duration{3 * time.Second, 100 * time.Second, time.Hour} {
		r1, err := orig.Advance(d)
		require.NoError(t, err)
		r2, err := copyW.Advance(d)
		require.NoError(t, err)
		assert.Equal(t, r1, r2)
		// New IDs come from the imported sequence too.
		for _, w := range []*World{orig, copyW} {
			schedule(t, w, followUp{"n", 1})
		}
	}
	e1, err := state.Export(orig.Store.Read())
	require.NoError(t, err)
	e2, err := state.Export(copyW.Store.Read())
	require.NoError(t, err)
	b1, _ := json.Marshal(e1)
	b2, _ := json.Marshal(e2)
	assert.Equal(t, string(b1), string(b2))
	assert.Len(t, marks(t, orig), 6)
}

func TestImportMovesTheSameFakeClock(t *testing.T) {
	fc := clockwork.NewFakeClockAt(DefaultStart)
	w := newTestWorld(t, Options{Clock: fc})
	db, err := state.Import(mustExport(t, w))
	require.NoError(t, err)
	later := DefaultStart.Add(48 * time.Hour)
	require.NoError(t, w.Import(db, ClockFake, later))
	assert.Equal(t, later, fc.Now(), "timers held on the clock stay valid")
	earlier := DefaultStart.Add(-time.Hour)
	db, err = state.Import(mustExport(t, w))
	require.NoError(t, err)
	require.NoError(t, w.Import(db, ClockFake, earlier))
	assert.Equal(t, earlier, w.Now())
}

func mustExport(t *testing.T, w *World) state.Tables {
	t.Helper()
	tables, err := state.Export(w.Store.Read())
	require.NoError(t, err)
	return tables
}

// TestRequestsDuringAdvance runs writers and readers while a long advance
// runs jobs (meaningful under -race).
func TestRequestsDuringAdvance(t *testing.T) {
	w := newTestWorld(t, Options{})
	var jobs []followUp
	for i := 0; i < 2000; i++ {
		jobs = append(jobs, followUp{fmt.Sprintf("j%d", i), 1 + i%600})
	}
	schedule(t, w, jobs...)

	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if i%2 == 0 {
					_ = w.Store.Update(func(tx *state.Txn) error {
						return state.Put(tx, state.TableTeams, &model.Team{ID: fmt.Sprintf("req-%d-%d", g, i), CreatedAt: tx.Unix()})
					})
				} else {
					_ = w.Config()
					_ = w.Now()
					_ = marks(t, w)
				}
			}
		}(g)
	}
	ran, err := w.Advance(time.Hour)
	close(stop)
	wg.Wait()
	require.NoError(t, err)
	assert.Len(t, ran, 2000)
	for i := 1; i < len(ran); i++ {
		require.LessOrEqual(t, ran[i-1].At, ran[i].At, "jobs ran out of order")
	}
}

// TestAdvanceTenThousandJobs measures the advance over 10,000 due jobs (the
// figure is logged; timings are not asserted because CI machines vary and
// -race slows everything down).
func TestAdvanceTenThousandJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	w := newTestWorld(t, Options{})
	queueJobs(t, w, 10000)
	start := time.Now()
	ran, err := w.Advance(24 * time.Hour)
	elapsed := time.Since(start)
	require.NoError(t, err)
	require.Len(t, ran, 10000)
	t.Logf("advance over 10,000 due jobs: %v (%.1f µs/job)", elapsed, float64(elapsed.Microseconds())/10000)
}

func queueJobs(t testing.TB, w *World, n int) {
	t.Helper()
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		for i := 0; i < n; i++ {
			if _, err := state.Schedule(tx, "noop", "", time.Duration(i%3600)*time.Second, nil); err != nil {
				return err
			}
		}
		return nil
	}))
}

func BenchmarkAdvance10000Jobs(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		jobs := NewJobRegistry()
		jobs.Handle("noop", func(*World, *state.Txn, *model.Job) error { return nil })
		w := newTestWorld(b, Options{Jobs: jobs})
		queueJobs(b, w, 10000)
		b.StartTimer()
		ran, err := w.Advance(24 * time.Hour)
		if err != nil || len(ran) != 10000 {
			b.Fatalf("ran %d: %v", len(ran), err)
		}
	}
}

// TestExternalFakeClockMovedWhileTheLoopSetsItsTimer moves the embedder's
// clock right after each scheduling, racing the loop between reading the
// clock and setting its timer; every job must still run.
func TestExternalFakeClockMovedWhileTheLoopSetsItsTimer(t *testing.T) {
	done := make(chan struct{}, 1)
	jobs := testJobs()
	jobs.Handle("signal", func(w *World, tx *state.Txn, job *model.Job) error {
		done <- struct{}{}
		return nil
	})
	fc := clockwork.NewFakeClockAt(DefaultStart)
	w := newTestWorld(t, Options{Clock: fc, Jobs: jobs})
	for i := 0; i < 200; i++ {
		require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
			_, err := state.Schedule(tx, "signal", "", 2*time.Second, nil)
			return err
		}))
		fc.Advance(time.Second)
		fc.Advance(time.Second)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("job %d did not run after the clock passed its due time", i)
		}
	}
}

// TestBatchedAdvanceEqualsOneJobAtATime: an advance that runs its jobs in
// batches leaves the state, the jobs' instants and the ran list that one
// transaction per job leaves, with a job failing in the middle of a batch
// (its batch runs again job by job), jobs scheduled by jobs inside the
// window, overdue jobs, more jobs than one batch holds, and a kind that
// must run alone.
func TestBatchedAdvanceEqualsOneJobAtATime(t *testing.T) {
	run := func(batched bool) ([]RanJob, string, int) {
		jobs := testJobs()
		if !batched {
			for _, k := range []string{"mark", "noop", "fail"} {
				jobs.RunAlone(k)
			}
		} else {
			jobs.RunAlone("noop")
		}
		w := newTestWorld(t, Options{Jobs: jobs})
		require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
			for i := 0; i < 2*maxBatch+10; i++ {
				if _, err := state.Schedule(tx, "mark", "", time.Duration(i%7)*time.Second, markArgs{Name: fmt.Sprint("m", i),
					Then: []followUp{{fmt.Sprint("f", i), i % 5}}}); err != nil {
					return err
				}
				switch i {
				case 3, maxBatch + 1:
					if _, err := state.Schedule(tx, "fail", "", 2*time.Second, nil); err != nil {
						return err
					}
				case 40:
					if _, err := state.Schedule(tx, "noop", "", 4*time.Second, nil); err != nil {
						return err
					}
				}
			}
			return nil
		}))
		commits := 0
		w.Store.SetCommitObserver(func(state.Commit) { commits++ })
		ran, err := w.Advance(6 * time.Second)
		require.NoError(t, err)
		w.Store.SetCommitObserver(nil)
		e, err := state.Export(w.Store.Read())
		require.NoError(t, err)
		b, err := json.Marshal(e)
		require.NoError(t, err)
		return ran, string(b), commits
	}
	ranAlone, stateAlone, commitsAlone := run(false)
	ranBatched, stateBatched, commitsBatched := run(true)
	require.Greater(t, len(ranAlone), 2*maxBatch)
	// The jobs of the two failed batches ran one by one again.
	assert.Less(t, commitsBatched*3, commitsAlone, "batches: %d commits, alone: %d", commitsBatched, commitsAlone)
	assert.Equal(t, ranAlone, ranBatched)
	assert.Equal(t, stateAlone, stateBatched)
}

// TestBatchedAdvanceWithCancellationsEqualsOneJobAtATime: a batch reads
// the queue once and again only after a job was scheduled, so jobs that
// cancel jobs later in the same batch (batchable ones, and one that must
// run alone, which would end the batch if it were still queued), and jobs
// that schedule others ahead of what the batch read, must leave what one
// transaction per job leaves.
func TestBatchedAdvanceWithCancellationsEqualsOneJobAtATime(t *testing.T) {
	run := func(batched bool) ([]RanJob, string) {
		jobs := testJobs()
		jobs.RunAlone("noop")
		if !batched {
			for _, k := range []string{"mark", "fail", "cancel"} {
				jobs.RunAlone(k)
			}
		}
		w := newTestWorld(t, Options{Jobs: jobs})
		require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
			sched := func(kind, subject string, sec int, args any) error {
				_, err := state.Schedule(tx, kind, subject, time.Duration(sec)*time.Second, args)
				return err
			}
			for i := 0; i < 2*maxBatch+10; i++ {
				args := markArgs{Name: fmt.Sprint("m", i)}
				if i%3 == 0 {
					args.Then = []followUp{{fmt.Sprint("f", i), i % 5}}
				}
				if err := sched("mark", fmt.Sprint("s", i%9), i%7, args); err != nil {
					return err
				}
				var err error
				switch i {
				case 5:
					err = sched("cancel", "", 1, "s3")
				case 6:
					// Cancelled by the job just before it, which schedules
					// nothing: the batch meets it where it read it.
					if err = sched("cancel", "", 2, "c"); err == nil {
						err = sched("mark", "c", 2, markArgs{Name: "c"})
					}
				case 7:
					err = sched("fail", "", 5, nil)
				case 20:
					// The same with a job that runs alone, which ends a
					// batch only while it is queued.
					if err = sched("cancel", "", 4, "n"); err == nil {
						err = sched("noop", "n", 4, nil)
					}
				case 30:
					err = sched("noop", "", 5, nil)
				case maxBatch + 3:
					err = sched("cancel", "", 3, "s5")
				}
				if err != nil {
					return err
				}
			}
			return nil
		}))
		ran, err := w.Advance(6 * time.Second)
		require.NoError(t, err)
		e, err := state.Export(w.Store.Read())
		require.NoError(t, err)
		b, err := json.Marshal(e)
		require.NoError(t, err)
		return ran, string(b)
	}
	ranAlone, stateAlone := run(false)
	ranBatched, stateBatched := run(true)
	kinds := map[string]int{}
	for _, r := range ranAlone {
		kinds[r.Kind+"/"+r.Subject]++
	}
	assert.Equal(t, 1, kinds["noop/"], "the noop nobody cancels runs")
	assert.Zero(t, kinds["noop/n"], "the cancelled noop never runs")
	assert.Zero(t, kinds["mark/c"], "the cancelled mark never runs")
	assert.Less(t, kinds["mark/s3"], kinds["mark/s4"], "the s3 marks due after their cancellation never run")
	assert.Less(t, kinds["mark/s5"], kinds["mark/s4"], "the s5 marks due after their cancellation never run")
	assert.Equal(t, ranAlone, ranBatched)
	assert.Equal(t, stateAlone, stateBatched)
}
