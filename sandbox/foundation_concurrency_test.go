package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// withTouchJob adds a job kind for tests only: it writes a team row, so
// that jobs and requests contend for the same database.
func withTouchJob() Option {
	return withRegistry(func(r *api.Registry) {
		r.RegisterJob("foundationtest.touch", func(s *api.Host, w *world.World, tx *state.Txn, job *model.Job) error {
			return state.Put(tx, state.TableTeams, &model.Team{ID: "touch-" + job.ID(), CreatedAt: tx.Unix()})
		})
	})
}

// TestRequestsDuringAnAdvance serves API and control requests while an
// advance runs thousands of jobs (meaningful under -race): every request
// answers normally and every job runs once, in order.
func TestRequestsDuringAnAdvance(t *testing.T) {
	s := optSandbox(t, withTouchJob())
	const n = 3000
	require.NoError(t, s.host.DefaultWorld().Store.Update(func(tx *state.Txn) error {
		for i := 0; i < n; i++ {
			if _, err := state.Schedule(tx, "foundationtest.touch", "", time.Duration(1+i%1800)*time.Second, nil); err != nil {
				return err
			}
		}
		return nil
	}))
	key := s.DefaultAPIKey()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 100)
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
				var code int
				switch i % 3 {
				case 0:
					code = optDo(t, s, key, http.MethodGet, "/v3/account", "").Code
				case 1:
					code = optDo(t, s, key, http.MethodPut, "/v3/account", `{"locale":"de-DE"}`).Code
				default:
					code = optDo(t, s, key, http.MethodGet, "/_sandbox/clock", "").Code
				}
				if code != http.StatusOK {
					select {
					case errs <- fmt.Sprintf("goroutine %d request %d: %d", g, i, code):
					default:
					}
				}
			}
		}(g)
	}
	rec := optDo(t, s, key, http.MethodPost, "/_sandbox/clock/advance", `{"duration":"1h"}`)
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var out struct {
		Jobs []world.RanJob `json:"jobs"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	require.Len(t, out.Jobs, n)
	for i := 1; i < n; i++ {
		require.LessOrEqual(t, out.Jobs[i-1].At, out.Jobs[i].At)
		require.Empty(t, out.Jobs[i].Error)
	}
	teams, err := state.All[model.Team](s.host.DefaultWorld().Store.Read(), state.TableTeams, state.IndexID)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(teams), n)
}
