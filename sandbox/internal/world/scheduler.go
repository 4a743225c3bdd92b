package world

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// JobFunc runs one job inside the write transaction that also removes it
// from the queue: a job's effects and its removal commit together.
type JobFunc func(w *World, tx *state.Txn, job *model.Job) error

// JobRegistry maps job kinds to their functions. One registry serves every
// world of a sandbox.
type JobRegistry struct {
	mu    sync.RWMutex
	funcs map[string]JobFunc
	// alone holds the kinds that must run in a transaction of their own
	// (see RunAlone).
	alone map[string]bool
}

// NewJobRegistry returns an empty registry.
func NewJobRegistry() *JobRegistry {
	return &JobRegistry{funcs: map[string]JobFunc{}, alone: map[string]bool{}}
}

// RunAlone marks a job kind that must not share its transaction with other
// jobs: one that reads the committed state besides its transaction, which
// in a batch would miss what the jobs before it wrote.
func (r *JobRegistry) RunAlone(kind string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.alone[kind] = true
}

// batchable reports whether a job of kind may share a transaction.
func (r *JobRegistry) batchable(kind string) bool {
	_, ok := r.lookup(kind)
	return ok
}

// lookup answers the function of kind and whether its jobs may share a
// transaction, in one read of the registry: the scheduler asks both of
// every job it runs.
func (r *JobRegistry) lookup(kind string) (fn JobFunc, batchable bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	fn = r.funcs[kind]
	return fn, fn != nil && !r.alone[kind]
}

// Handle registers the function of a job kind.
func (r *JobRegistry) Handle(kind string, fn JobFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.funcs[kind]; dup {
		panic("world: job kind registered twice: " + kind)
	}
	r.funcs[kind] = fn
}

// Kinds lists the registered job kinds, sorted.
func (r *JobRegistry) Kinds() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.funcs))
}

// Func returns the function of a job kind (nil for a kind nobody
// registered), for callers that run a job by hand.
func (r *JobRegistry) Func(kind string) JobFunc { return r.get(kind) }

func (r *JobRegistry) get(kind string) JobFunc {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.funcs[kind]
}

// RanJob reports one job run by the scheduler.
type RanJob struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Subject string `json:"subject,omitempty"`
	// At is the world time the job ran at (its due time on a fake clock).
	At    int64  `json:"at"`
	Error string `json:"error,omitempty"`
}

// Advance moves a fake clock forward by d, running every job that falls due
// on the way in (due, seq) order with the clock set to each job's due time,
// and returns the jobs that ran. Jobs scheduled by those jobs run too when
// they fall within the window.
func (w *World) Advance(d time.Duration) ([]RanJob, error) {
	if d < 0 {
		return nil, fmt.Errorf("cannot move the clock backwards (%s)", d)
	}
	w.clockMu.RLock()
	fake := w.fake
	w.clockMu.RUnlock()
	if fake == nil {
		return nil, ErrNotFake
	}
	w.advanceMu.Lock()
	defer w.advanceMu.Unlock()
	target := fake.Now().Add(d)
	if err := CheckInstant(target); err != nil {
		return nil, fmt.Errorf("cannot advance: %w", err)
	}
	ran := w.runDueLocked(target, fake.Now, func(due time.Time) {
		if now := fake.Now(); due.After(now) {
			fake.Advance(due.Sub(now))
			w.movePinned(due.UTC())
		}
	})
	if now := fake.Now(); target.After(now) {
		fake.Advance(target.Sub(now))
	}
	w.movePinned(fake.Now().UTC())
	w.clockMoved()
	return ran, nil
}

// RunDue runs every job due at the current world time (used by real-clock
// worlds and by "advance 0"). Inside a pinned call, they run as pinned
// time runs them (the call holds the gate).
func (w *World) RunDue() []RanJob {
	if at, ok := w.pinnedCallInstant(); ok {
		return w.runDuePinned(at)
	}
	w.advanceMu.Lock()
	defer w.advanceMu.Unlock()
	return w.runDueLocked(w.Now(), nil, nil)
}

// maxBatch bounds the jobs one transaction runs, so that a long advance
// does not hold the write lock for long at a time: about 60 ms for a
// batch of request processing. Each transaction copies the index nodes it
// writes below once, so larger batches copy less per job: 1,024 took 9%
// fewer allocations and about 12% less CPU per job than 256.
const maxBatch = 1024

// runDueLocked runs jobs due at or before until. moveTo, when set, moves a
// fake clock (read by now) to a job's due time before it runs; then jobs
// run in batches (runBatch): up to maxBatch in one transaction, each at the
// instant it would have had alone, the clock moved to the last one's after
// the commit. A batch that fails is not made: its jobs run again one by
// one, as without batches, so that the failing one is removed on its own
// and the others' effects are what they would have been.
func (w *World) runDueLocked(until time.Time, now func() time.Time, moveTo func(time.Time)) []RanJob {
	var ran []RanJob
	solo := 0 // jobs to run one by one after a failed batch
	for {
		job := state.NextJob(w.Store.Read())
		if job == nil || job.Due > until.UnixNano() {
			return ran
		}
		if moveTo != nil && solo == 0 && w.jobs.batchable(job.Kind) {
			more, last, tried, err := w.runBatch(until, now(), ran)
			if err == nil {
				moveTo(last)
				ran = more
				continue
			}
			solo = tried
		}
		if moveTo != nil {
			moveTo(job.DueTime())
		}
		ran = append(ran, w.runJob(job))
		if solo > 0 {
			solo--
		}
	}
}

// runBatch runs due jobs in queue order in one transaction, from the first
// until one that is not due by until, not batchable, or the maxBatch-th.
// Each runs at the instant a lone run would give it: its due time, or the
// instant before it when that is later (start for the first). It answers
// ran with the jobs that ran appended (ran itself when it fails: a batch
// that fails ran nothing), the last instant, and how many jobs it tried
// (when it fails: the failing one included).
func (w *World) runBatch(until, start time.Time, ran []RanJob) (out []RanJob, last time.Time, tried int, err error) {
	end := until.UnixNano()
	err = w.Store.Update(func(tx *state.Txn) error {
		out, tried, last = ran, 0, start
		queue := state.NewJobCursor(tx)
		for tried < maxBatch {
			job := queue.Peek()
			// A job cancelled by one before it and due after the window
			// ends the batch as the first queued one would: it is not
			// due either.
			if job == nil || job.Due > end {
				break
			}
			fn, batchable := w.jobs.lookup(job.Kind)
			if !batchable {
				if !queue.Queued(job) {
					queue.Skip()
					continue
				}
				break
			}
			tried++
			taken, err := queue.Take(job)
			if err != nil {
				return err
			}
			if !taken {
				tried-- // cancelled by a job before it: never tried
				continue
			}
			if due := job.DueTime(); due.After(last) {
				last = due
			}
			tx.SetNow(last)
			if err := fn(w, tx, job); err != nil {
				return err
			}
			out = append(out, RanJob{ID: job.ID(), Kind: job.Kind, Subject: job.Subject, At: last.Unix()})
		}
		return nil
	})
	if err != nil {
		return ran, last, tried, err
	}
	return out, last, tried, nil
}

// runJob executes one job. A job that fails is still removed (in a second
// transaction) and its error logged, so that a broken job can never wedge the
// queue.
func (w *World) runJob(job *model.Job) RanJob {
	r := RanJob{ID: job.ID(), Kind: job.Kind, Subject: job.Subject, At: w.Now().Unix()}
	fn := w.jobs.get(job.Kind)
	err := w.Store.Update(func(tx *state.Txn) error {
		if err := tx.Delete(state.TableJobs, job); err != nil {
			return err
		}
		if fn == nil {
			return fmt.Errorf("no function for job kind %q", job.Kind)
		}
		return fn(w, tx, job)
	})
	if err != nil {
		r.Error = err.Error()
		w.log.Warn("job failed", "job", job.ID(), "kind", job.Kind, "subject", job.Subject, "err", err)
		_ = w.Store.Update(func(tx *state.Txn) error {
			if cur := state.QueuedJob(tx, job.Due, job.Seq); cur != nil {
				return tx.Delete(state.TableJobs, cur)
			}
			return nil
		})
	}
	return r
}

// CatchUp runs the jobs a world whose time moves by itself has due but whose
// timer has not fired yet, so that a call sees every change its instant
// implies (a signer can view a request once its files' processing time has
// passed) rather than whatever the background loop has reached. Worlds whose
// clock is advanced explicitly are left as they are.
func (w *World) CatchUp() {
	if !w.selfRunning() {
		return
	}
	if job := state.NextJob(w.Store.Read()); job != nil && job.Due <= w.Now().UnixNano() {
		w.RunDue()
	}
}

// Wake tells the background loop to look at the queue again.
func (w *World) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// loop runs due jobs of worlds whose time moves by itself: real clocks, and
// fake clocks that the embedding program moves (WithClock). Fake clocks the
// world owns only run jobs when advanced, which is what makes tests
// deterministic.
func (w *World) loop() {
	defer close(w.loopDone)
	for {
		var timer clockwork.Timer
		var fire <-chan time.Time
		if w.selfRunning() {
			if job := state.NextJob(w.Store.Read()); job != nil {
				// The clock's time, not a pinned call's instant: the timer
				// runs on the clock.
				now := w.rawNow()
				wait := job.DueTime().Sub(now)
				if wait <= 0 {
					w.runDueInBackground()
					continue
				}
				// A timer (not After) so that a wake-up releases it: with a
				// fake clock an abandoned After stays registered until time
				// reaches it.
				timer = w.Clock().NewTimer(wait)
				if w.fakeMoved(now) {
					// The embedder moved its fake clock between the reading
					// and the timer, which now expires late: compute again.
					stopTimer(timer)
					continue
				}
				fire = timer.Chan()
			}
		}
		select {
		case <-w.stop:
			stopTimer(timer)
			return
		case <-w.wake:
			stopTimer(timer)
		case <-fire:
			w.runDueInBackground()
		}
	}
}

func stopTimer(t clockwork.Timer) {
	if t != nil {
		t.Stop()
	}
}

// fakeMoved reports whether a fake clock no longer reads then.
func (w *World) fakeMoved(then time.Time) bool {
	w.clockMu.RLock()
	fake := w.fake
	w.clockMu.RUnlock()
	return fake != nil && !fake.Now().UTC().Equal(then)
}

// selfRunning reports whether due jobs run without an advance.
func (w *World) selfRunning() bool {
	w.clockMu.RLock()
	defer w.clockMu.RUnlock()
	return (w.mode == ClockReal && !w.replay) || w.external
}
