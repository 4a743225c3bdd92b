package state

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/require"
)

// TestReadsInAWriteSeeItsOwnChanges: a write that puts, replaces and
// deletes rows (through Put, through its memdb methods directly, one by
// one and in bulk) reads every row by id exactly as memdb's own
// transaction would answer, whether the write changed it or not, and so
// do reads by the tables' other indexes. The reads by id are answered by
// the write itself (firstOwn) and a subject's jobs by its compact index,
// not by memdb; after a change that failed part way they are memdb's
// again.
func TestReadsInAWriteSeeItsOwnChanges(t *testing.T) {
	st := newTestStore(t)
	invite := func(n int, team string) *model.TeamInvite {
		return &model.TeamInvite{ID: fmt.Sprintf("i%02d", n), TeamID: team, EmailKey: fmt.Sprintf("e%d@x", n%5)}
	}
	job := func(due int64, seq uint64, subject string) *model.Job {
		return &model.Job{Due: due, Seq: seq, Kind: "test", Subject: subject}
	}
	const invites, dues, seqs = 20, 2, 12
	teams, subjects := []string{"ta", "tb", "tc"}, []string{"sa", "sb", "s", ""}
	require.NoError(t, st.Update(func(tx *Txn) error {
		for n := 0; n < invites; n += 2 {
			if err := Put(tx, TableTeamInvites, invite(n, teams[n%3])); err != nil {
				return err
			}
		}
		for seq := uint64(1); seq <= seqs; seq += 2 {
			if err := Put(tx, TableJobs, job(int64(seq%dues), seq, subjects[seq%uint64(len(subjects))])); err != nil {
				return err
			}
		}
		return nil
	}))

	// same checks every read the write can make of the two tables against
	// memdb's answer; own demands that the reads by id were the write's.
	// The write remembers the rows it read by id: onlyJobsOf leaves those
	// reads out, so that the subject's jobs are read from rows it did not.
	onlyJobsOf := false
	same := func(tx *Txn, step string, own bool) {
		t.Helper()
		for n := 0; n < invites && !onlyJobsOf; n++ {
			id := fmt.Sprintf("i%02d", n)
			want, err := tx.mem.First(TableTeamInvites, IndexID, id)
			require.NoError(t, err)
			if own {
				got, ok := tx.firstOwn(TableTeamInvites, IndexID, []any{id})
				require.True(t, ok, "%s: invite %s read by the write", step, id)
				require.True(t, want == got, "%s: invite %s: got %v, memdb %v", step, id, got, want)
			}
			got, err := tx.First(TableTeamInvites, IndexID, id)
			require.NoError(t, err)
			require.True(t, want == got, "%s: invite %s: got %v, memdb %v", step, id, got, want)
			row, err := Get[model.TeamInvite](tx, TableTeamInvites, id)
			if want == nil {
				require.ErrorIs(t, err, ErrNotFound, "%s: invite %s", step, id)
			} else {
				require.NoError(t, err)
				require.True(t, want == any(row), "%s: invite %s by Get", step, id)
			}
		}
		for _, team := range teams {
			want, err := tx.mem.First(TableTeamInvites, IndexTeam, team)
			require.NoError(t, err)
			got, err := tx.First(TableTeamInvites, IndexTeam, team)
			require.NoError(t, err)
			require.True(t, want == got, "%s: first invite of team %s", step, team)
		}
		for due := int64(0); due < dues && !onlyJobsOf; due++ {
			for seq := uint64(1); seq <= seqs; seq++ {
				want, err := tx.mem.First(TableJobs, IndexID, due, seq)
				require.NoError(t, err)
				if own {
					got, ok := tx.firstOwn(TableJobs, IndexID, []any{due, seq})
					require.True(t, ok, "%s: job (%d, %d) read by the write", step, due, seq)
					require.True(t, want == got, "%s: job (%d, %d): got %v, memdb %v", step, due, seq, got, want)
				}
				got, err := tx.First(TableJobs, IndexID, due, seq)
				require.NoError(t, err)
				require.True(t, want == got, "%s: job (%d, %d): got %v, memdb %v", step, due, seq, got, want)
				require.True(t, want == any(QueuedJob(tx, due, seq)) || (want == nil && QueuedJob(tx, due, seq) == nil), "%s: queued job (%d, %d)", step, due, seq)
			}
		}
		_, err := tx.First(TableJobs, IndexID, "not a key")
		require.Error(t, err, "%s: memdb refuses a job lookup by one string", step)
		for _, subject := range subjects {
			// memdb's own walk of the queue, the subject's jobs picked
			// out in scheduling order (jobs of no subject are nobody's).
			var want []*model.Job
			it, err := tx.mem.Get(TableJobs, IndexID)
			require.NoError(t, err)
			for raw := it.Next(); raw != nil; raw = it.Next() {
				if j := raw.(*model.Job); subject != "" && j.Subject == subject {
					want = append(want, j)
				}
			}
			slices.SortFunc(want, func(a, b *model.Job) int { return cmp.Compare(a.Seq, b.Seq) })
			if own && subject != "" {
				// The write reads them from its compact index (its own
				// copies of the buckets it changed), not memdb's.
				var got []*model.Job
				require.NoError(t, tx.compactRows(compactIndexNamed(TableJobs, IndexSubject), subject, 0, false, func(raw any) bool {
					got = append(got, raw.(*model.Job))
					return true
				}))
				require.Equal(t, want, got, "%s: jobs of %s in index order", step, subject)
			}
			got, err := JobsOf(tx, subject)
			require.NoError(t, err)
			require.Equal(t, want, got, "%s: jobs of %s", step, subject)
		}
	}

	rng := rand.New(rand.NewPCG(11, 11))
	steps := []struct {
		name string
		do   func(tx *Txn) error
	}{
		{"put invite", func(tx *Txn) error {
			n := rng.IntN(invites)
			return Put(tx, TableTeamInvites, invite(n, teams[rng.IntN(len(teams))]))
		}},
		{"insert invite", func(tx *Txn) error {
			n := rng.IntN(invites)
			return tx.Insert(TableTeamInvites, invite(n, teams[rng.IntN(len(teams))]))
		}},
		{"delete invite", func(tx *Txn) error {
			raw, err := tx.mem.First(TableTeamInvites, IndexID, fmt.Sprintf("i%02d", rng.IntN(invites)))
			if err != nil || raw == nil {
				return err
			}
			// A row that only names the stored one, as a delete may pass.
			return tx.Delete(TableTeamInvites, &model.TeamInvite{ID: raw.(*model.TeamInvite).ID, TeamID: "tz", EmailKey: "z"})
		}},
		{"delete a team's invites", func(tx *Txn) error {
			_, err := tx.DeleteAll(TableTeamInvites, IndexTeam, teams[rng.IntN(len(teams))])
			return err
		}},
		{"delete invites by prefix", func(tx *Txn) error {
			_, err := tx.DeletePrefix(TableTeamInvites, IndexID+"_prefix", fmt.Sprintf("i%d", rng.IntN(2)))
			return err
		}},
		{"put job", func(tx *Txn) error {
			return Put(tx, TableJobs, job(rng.Int64N(dues), 1+rng.Uint64N(seqs), subjects[rng.IntN(len(subjects))]))
		}},
		{"delete job", func(tx *Txn) error {
			j := QueuedJob(tx, rng.Int64N(dues), 1+rng.Uint64N(seqs))
			if j == nil {
				return nil
			}
			return tx.Delete(TableJobs, j)
		}},
		{"put a stored job again", func(tx *Txn) error {
			j := QueuedJob(tx, rng.Int64N(dues), 1+rng.Uint64N(seqs))
			if j == nil {
				return nil
			}
			return Put(tx, TableJobs, j)
		}},
		{"cancel a subject's jobs", func(tx *Txn) error {
			return CancelJobs(tx, subjects[rng.IntN(len(subjects))])
		}},
	}
	weights := []int{6, 3, 3, 1, 1, 6, 3, 2, 1}
	pick := func() int {
		total := 0
		for _, w := range weights {
			total += w
		}
		r := rng.IntN(total)
		for i, w := range weights {
			if r < w {
				return i
			}
			r -= w
		}
		return 0
	}
	for round := 0; round < 4; round++ {
		require.NoError(t, st.Update(func(tx *Txn) error {
			onlyJobsOf = round%2 == 1
			same(tx, "start", true)
			for i := 0; i < 150; i++ {
				s := steps[pick()]
				require.NoError(t, s.do(tx), "round %d step %d: %s", round, i, s.name)
				same(tx, fmt.Sprintf("round %d step %d: %s", round, i, s.name), true)
			}
			onlyJobsOf = false
			same(tx, "end", true)
			return nil
		}))
		same(st.Read(), "after commit", false)
	}

	require.NoError(t, st.Update(func(tx *Txn) error {
		require.NoError(t, Put(tx, TableTeamInvites, invite(1, "ta")))
		same(tx, "before the failed insert", true)
		// A delete of a row that is not there changes nothing: the
		// scheduler's Take of a job cancelled earlier in its batch.
		require.ErrorIs(t, tx.Delete(TableTeamInvites, &model.TeamInvite{ID: "i99"}), memdb.ErrNotFound)
		same(tx, "after deleting a row that is not there", true)
		// No team: memdb refuses the row at the team index, after it may
		// have stored it in others (it walks them in map order).
		require.Error(t, Put(tx, TableTeamInvites, &model.TeamInvite{ID: "i03", EmailKey: "e3@x"}))
		same(tx, "after the failed insert", false)
		_, ok := tx.firstOwn(TableTeamInvites, IndexID, []any{"i01"})
		require.False(t, ok, "after a failed change reads are memdb's")
		require.NoError(t, Put(tx, TableTeamInvites, invite(5, "tb")))
		same(tx, "after the failed insert and a put", false)
		return nil
	}))
}
