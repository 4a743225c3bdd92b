package mailrelay

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// TestQueueIsBounded: e-mails beyond the queue's bound are failed at once
// instead of held in memory, and the states kept stay bounded too.
func TestQueueIsBounded(t *testing.T) {
	defer func(n int) { queueLimit = n }(queueLimit)
	queueLimit = 3
	wk := &worker{status: map[string]*Status{}}
	var taken []*model.Email
	for i := 1; i <= 5; i++ {
		taken = append(taken, &model.Email{ID: fmt.Sprintf("m%d", i), Seq: uint64(i), SentAt: 100})
	}
	require.True(t, wk.queueTaken(taken, 5))
	assert.Len(t, wk.queue, 3)
	for i, want := range []string{StatePending, StatePending, StatePending, StateFailed, StateFailed} {
		st := wk.statusOf(taken[i])
		require.NotNil(t, st)
		assert.Equal(t, want, st.State, taken[i].ID)
	}
	assert.Contains(t, wk.statusOf(taken[4]).Error, "3 e-mails were already waiting")
	assert.False(t, wk.queueTaken(taken[:1], 5), "e-mails taken before are not taken again")
}

// TestStatesAreBounded: beyond statusLimit the oldest settled states are
// forgotten; pending ones are kept.
func TestStatesAreBounded(t *testing.T) {
	wk := &worker{status: map[string]*Status{}}
	wk.remember("pending", &Status{State: StatePending})
	for i := 0; i < statusLimit+10; i++ {
		wk.remember(fmt.Sprintf("d%d", i), &Status{State: StateDelivered})
	}
	assert.Len(t, wk.status, statusLimit)
	assert.Len(t, wk.order, statusLimit)
	assert.NotNil(t, wk.status["pending"], "a pending state is kept")
	assert.Nil(t, wk.status["d0"], "the oldest settled one is forgotten")
	assert.NotNil(t, wk.status[fmt.Sprintf("d%d", statusLimit+9)])
}
