package callbacks

import (
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/fixtures"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/fixtureload"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// queueFixture is a world whose dispatcher is stopped, so that the test
// drives the delivery state machine by hand. Its host registers nothing but
// the pipeline: the world is seeded from the fixtures, as a sandbox's is.
func queueFixture(t *testing.T) (*api.Host, func(fn func(tx *state.Txn) error)) {
	t.Helper()
	set, err := fixtureload.Load(fixtures.FS)
	require.NoError(t, err)
	s := api.NewHost(api.HostConfig{
		Log: slog.New(slog.DiscardHandler), Fixtures: set, Reg: api.NewRegistry(),
		Budget: state.NewBudget(2 << 30), Client: &http.Client{}, Seed: "callbacks-queue", MaxWorlds: 1,
	})
	w, err := s.NewWorld(api.WorldSpec{ID: "default", Seed: s.Seed(), Mode: world.ClockFake})
	require.NoError(t, err)
	s.SetDefaultWorld(w)
	t.Cleanup(func() { s.DropWorld(w) })
	dispatcherOf(s, w).Close()
	owner := s.Fixtures().Accounts[0].ID
	update := func(fn func(tx *state.Txn) error) { require.NoError(t, w.Store.Update(fn)) }
	update(func(tx *state.Txn) error {
		a, _ := state.Get[model.Account](tx, state.TableAccounts, owner)
		c := state.Clone(a)
		c.CallbackURL = "http://127.0.0.1:9/cb"
		if err := state.Put(tx, state.TableAccounts, c); err != nil {
			return err
		}
		for _, typ := range []string{notify.TypeRequestSent, notify.TypeRequestViewed, notify.TypeRequestSigned} {
			if err := s.Emit(tx, notify.Event{Type: typ, AccountIDs: []string{owner}}); err != nil {
				return err
			}
		}
		return nil
	})
	return s, update
}

func deliveriesInSeq(t *testing.T, s *api.Host) []*model.Delivery {
	t.Helper()
	tx := s.DefaultWorld().Store.Read()
	evs, err := state.All[model.Event](tx, state.TableEvents, state.IndexSeq)
	require.NoError(t, err)
	var out []*model.Delivery
	for _, e := range evs {
		ds, err := state.DeliveriesOf(tx, e.ID)
		require.NoError(t, err)
		out = append(out, ds...)
	}
	return out
}

func TestQueueHeadOfLineAndRetries(t *testing.T) {
	s, update := queueFixture(t)
	ds := deliveriesInSeq(t, s)
	require.Len(t, ds, 3)
	t0 := ds[0].CreatedAt
	assert.Equal(t, t0, ds[0].Due, "the first delivery of an idle queue is due at once")
	assert.Zero(t, ds[1].Due, "later ones wait")
	assert.Zero(t, ds[2].Due)

	update(func(tx *state.Txn) error {
		_, err := recordAttempt(tx, ds[0], attemptResult{status: 500, err: "x"})
		return err
	})
	ds = deliveriesInSeq(t, s)
	assert.Equal(t, t0+int64(time.Minute), ds[0].Due)
	assert.Equal(t, 1, ds[0].RoundAttempts)
	require.Len(t, ds[0].Attempts, 1)
	assert.Zero(t, ds[1].Due)

	claimed := ds[0]
	update(func(tx *state.Txn) error {
		_, err := recordAttempt(tx, claimed, attemptResult{status: 200, delivered: true})
		return err
	})
	ds = deliveriesInSeq(t, s)
	assert.Equal(t, model.DeliveryDelivered, ds[0].State)
	assert.Zero(t, ds[0].Due)
	assert.Equal(t, claimed.Due, ds[1].Due, "the next one is due when the previous attempt was")
	assert.Zero(t, ds[2].Due)

	t.Run("a result for an attempt that is not current changes nothing", func(t *testing.T) {
		update(func(tx *state.Txn) error {
			_, err := recordAttempt(tx, claimed, attemptResult{status: 500})
			return err
		})
		after := deliveriesInSeq(t, s)
		assert.Equal(t, ds[0], after[0])
	})
}

func TestRedeliverMovesToTheBackOfItsQueue(t *testing.T) {
	s, update := queueFixture(t)
	ds := deliveriesInSeq(t, s)
	head := ds[0]
	update(func(tx *state.Txn) error {
		_, err := redeliver(tx, head)
		return err
	})
	after := deliveriesInSeq(t, s)
	assert.Equal(t, 1, after[0].Round)
	assert.Zero(t, after[0].Due, "the redelivered head now waits behind the others")
	assert.NotZero(t, after[1].Due, "the next delivery took its place")
	assert.Greater(t, after[0].Seq, after[2].Seq)

	t.Run("an attempt in flight across a redelivery is logged only", func(t *testing.T) {
		update(func(tx *state.Txn) error {
			_, err := recordAttempt(tx, head, attemptResult{status: 200, delivered: true})
			return err
		})
		got := deliveriesInSeq(t, s)[0]
		require.Len(t, got.Attempts, 1)
		assert.Equal(t, 0, got.Attempts[0].Round)
		assert.Equal(t, model.DeliveryPending, got.State, "the new round still has to be delivered")
	})
}

func TestDeliveryGivenUpHandsOverTheQueue(t *testing.T) {
	s, update := queueFixture(t)
	var gaveUp []int
	for i := 0; ; i++ {
		cur := deliveriesInSeq(t, s)[0]
		if !cur.Open() {
			assert.Equal(t, model.DeliveryFailed, cur.State)
			assert.Equal(t, 13, i, "13 attempts, then given up")
			break
		}
		update(func(tx *state.Txn) error {
			g, err := recordAttempt(tx, cur, attemptResult{status: 503})
			if g {
				gaveUp = append(gaveUp, i)
			}
			return err
		})
	}
	assert.Equal(t, []int{12}, gaveUp, "recordAttempt says so for the last attempt only")
	ds := deliveriesInSeq(t, s)
	assert.Len(t, ds[0].Attempts, 13)
	last := ds[0].Attempts[12].At
	assert.Equal(t, ds[0].CreatedAt/1e9+4095*60, last)
	assert.Equal(t, last*1e9, ds[1].Due, "the next delivery starts when the last attempt was due")
}
