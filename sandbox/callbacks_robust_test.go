package sandbox_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// cbShortTimeout makes attempts give up quickly.
func cbShortTimeout(t *testing.T, srv *sandboxtest.Server, d time.Duration) {
	t.Helper()
	srv.Control(http.MethodPatch, "/config", map[string]any{"callback_timeout": d.String()}, nil)
}

// TestMisbehavingReceiversAreSurvived: hanging, slow, redirecting,
// huge-body, closing and wrong-body receivers each get a logged failed
// attempt (or a delivery when merely slow), and the delivery goes through
// once the receiver behaves.
func TestMisbehavingReceiversAreSurvived(t *testing.T) {
	good := apitest.NewReceiver(t)
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat("x", 32<<10))
		for i := 0; i < 32<<10; i++ { // up to 1 GiB unless the client hangs up
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(huge.Close)
	redirect := httptest.NewServer(http.RedirectHandler(good.URL, http.StatusFound))
	t.Cleanup(redirect.Close)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		time.Sleep(50 * time.Millisecond)
		_, _ = io.WriteString(w, sandboxtest.Acknowledgement)
	}))
	t.Cleanup(slow.Close)

	cases := []struct {
		name    string
		url     func(rcv *sandboxtest.Receiver) string
		prepare func(rcv *sandboxtest.Receiver)
		status  int
		errPart string
		ok      bool
		// timeout is the attempt timeout: 10 s unless set, so that on a
		// loaded machine a receiver that answers at once is never cut off
		// as if it hung; only the hanging receiver needs a short one.
		timeout time.Duration
	}{
		{name: "hangs", prepare: func(r *sandboxtest.Receiver) { r.Hang() }, errPart: "no answer within 200ms", timeout: 200 * time.Millisecond},
		{name: "closes the connection", prepare: func(r *sandboxtest.Receiver) { r.CloseConnections() }, errPart: "EOF"},
		{name: "wrong body", prepare: func(r *sandboxtest.Receiver) { r.Answer(http.StatusOK, "thanks") }, status: 200, errPart: "does not contain"},
		{name: "created", prepare: func(r *sandboxtest.Receiver) { r.Answer(http.StatusCreated, sandboxtest.Acknowledgement) }, status: 201, errPart: "answered 201"},
		{name: "redirects", url: func(*sandboxtest.Receiver) string { return redirect.URL }, status: http.StatusFound, errPart: "answered 302"},
		{name: "huge body", url: func(*sandboxtest.Receiver) string { return huge.URL }, status: 200, errPart: "does not contain"},
		{name: "slow but answers", url: func(*sandboxtest.Receiver) string { return slow.URL }, status: 200, ok: true},
		{name: "refuses connections", url: func(*sandboxtest.Receiver) string { return closedURL(t) }, errPart: "refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := apitest.NewServer(t)
			timeout := 10 * time.Second
			if tc.timeout != 0 {
				timeout = tc.timeout
			}
			cbShortTimeout(t, srv, timeout)
			rcv := apitest.NewReceiver(t)
			url := rcv.URL
			if tc.url != nil {
				url = tc.url(rcv)
			}
			if tc.prepare != nil {
				tc.prepare(rcv)
			}
			apitest.SetCallbackURL(t, srv, srv.APIKey, url)
			srv.WaitCallbacks()

			d := srv.Callbacks()[0].Deliveries[0]
			require.Len(t, d.Attempts, 1)
			a := d.Attempts[0]
			assert.Equal(t, tc.ok, a.Delivered)
			assert.Equal(t, tc.status, a.Status)
			if tc.errPart != "" {
				assert.Contains(t, a.Error, tc.errPart)
			}
			assert.LessOrEqual(t, len(a.Body), 256, "the log keeps an excerpt only")
			if tc.ok {
				return
			}
			assert.Equal(t, "pending", d.State)
			rcv.Ack()
			if tc.url != nil {
				apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
			}
			srv.AdvanceAndWait(time.Minute)
			assert.NotEmpty(t, rcv.Events("callback_test"), "the receiver gets its events once it behaves")
		})
	}
}

// closedURL is the URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	s := httptest.NewServer(http.NotFoundHandler())
	u := s.URL
	s.Close()
	return u
}

// TestDeliveryConcurrencyIsBounded: many targets and events against hanging
// receivers keep at most a few attempts (and goroutines) in flight, and API
// requests stay fast meanwhile.
func TestDeliveryConcurrencyIsBounded(t *testing.T) {
	srv := apitest.NewServer(t)
	cbShortTimeout(t, srv, 10*time.Second)
	var cur, peak, total atomic.Int64
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := cur.Add(1)
		defer cur.Add(-1)
		total.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		select {
		case <-release:
			w.WriteHeader(http.StatusServiceUnavailable)
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})

	ids := []string{apitest.OwnerID, apitest.TeammateID, apitest.OutsiderID}
	for i := 0; i < 9; i++ {
		r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": fmt.Sprintf("load%d@example.com", i)})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var a struct {
			Account struct {
				AccountID string `json:"account_id"`
			} `json:"account"`
		}
		require.NoError(t, r.JSON(&a))
		ids = append(ids, a.Account.AccountID)
	}
	for i, id := range ids {
		require.NoError(t, sandbox.CallbacksSetAccountURL(srv.Sandbox, "", id, fmt.Sprintf("%s/a%d", hang.URL, i)))
	}
	before := runtime.NumGoroutine()
	var evs []sandbox.CallbacksTestEvent
	for i := 0; i < 200; i++ {
		evs = append(evs, sandbox.CallbacksTestEvent{Type: "signature_request_viewed", AccountIDs: ids})
	}
	cbEmit(t, srv, evs...)

	var wg sync.WaitGroup
	var slowest atomic.Int64
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				start := time.Now()
				resp, err := srv.Client.Get(srv.URL + "/v3/account")
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				if d := int64(time.Since(start)); d > slowest.Load() {
					slowest.Store(d)
				}
			}
		}()
	}
	wg.Wait()
	require.Eventually(t, func() bool { return cur.Load() == 4 }, 5*time.Second, 5*time.Millisecond,
		"four attempts hang in the receiver")
	during := runtime.NumGoroutine()
	assert.Less(t, time.Duration(slowest.Load()), 3*time.Second,
		"API requests do not wait for deliveries (the receiver hangs for up to 10s)")
	t.Logf("goroutines: %d before, %d with 2400 deliveries queued and 4 attempts hanging; slowest of 80 API calls meanwhile: %s",
		before, during, time.Duration(slowest.Load()))
	close(release)
	st := srv.WaitCallbacks()

	assert.Equal(t, int64(4), peak.Load(), "at most 4 attempts in flight per world")
	assert.Equal(t, int64(len(ids)), total.Load(), "each target got its first attempt; later events wait their turn")
	assert.Less(t, during-before, 60, "goroutines stay bounded with 2400 deliveries queued")
	assert.Equal(t, len(ids)*200, st.Pending, "every delivery is accounted for")
}

// TestDeliveryTimingNeverShiftsIDs: the same calls give the same IDs and the
// same delivery log whether the receiver acknowledges or fails.
func TestDeliveryTimingNeverShiftsIDs(t *testing.T) {
	run := func(fail bool) (ids []string, log []sandboxtest.Callback) {
		srv := apitest.NewServer(t)
		rcv := apitest.NewReceiver(t)
		if fail {
			rcv.Fail()
		}
		apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
		for i := 0; i < 3; i++ {
			cbEmit(t, srv, cbRequestEvent("signature_request_sent"))
			srv.Advance(2 * time.Minute)
			r := srv.Do(http.MethodPost, "/v3/account/create", map[string]any{"email_address": fmt.Sprintf("d%d@example.com", i)})
			require.Equal(t, http.StatusOK, r.Status)
			ids = append(ids, string(r.Map()["account"].(map[string]any)["account_id"].(string)))
			srv.WaitCallbacks()
		}
		return ids, srv.Callbacks()
	}
	idsA, logA := run(false)
	idsB, logB := run(true)
	assert.Equal(t, idsA, idsB)
	require.Equal(t, len(logA), len(logB))
	for i := range logA {
		assert.Equal(t, logA[i].ID, logB[i].ID)
		assert.Equal(t, logA[i].Deliveries[0].ID, logB[i].Deliveries[0].ID)
		assert.Equal(t, string(logA[i].Deliveries[0].Payload), string(logB[i].Deliveries[0].Payload))
	}
}

// TestPendingDeliveriesSurviveExportImport: a world exported with pending
// deliveries and imported again resumes them; a reset drops them.
func TestPendingDeliveriesSurviveExportImport(t *testing.T) {
	srv := apitest.NewServer(t)
	rcv := apitest.NewReceiver(t)
	rcv.Fail()
	apitest.SetCallbackURL(t, srv, srv.APIKey, rcv.URL)
	cbEmit(t, srv, cbRequestEvent("signature_request_sent"))
	srv.WaitCallbacks()
	r := srv.Do(http.MethodGet, sandbox.ControlPrefix+"/state", nil)
	require.Equal(t, http.StatusOK, r.Status)
	exported := r.Body

	srv.Control(http.MethodPost, "/reset", nil, nil)
	assert.Empty(t, srv.Callbacks())
	srv.AdvanceAndWait(time.Hour)
	assert.Empty(t, rcv.Events())

	var raw json.RawMessage = exported
	srv.Control(http.MethodPut, "/state", raw, nil)
	log := srv.Callbacks()
	require.Len(t, log, 2)
	assert.Equal(t, "pending", log[0].State)
	rcv.Ack()
	srv.AdvanceAndWait(time.Minute)
	assert.Equal(t, []string{"callback_test", "signature_request_sent"}, rcv.EventTypes())
}

// TestCloseStopsDeliveryWork: closing a sandbox with attempts hanging
// returns promptly and leaves no delivery goroutines behind.
func TestCloseStopsDeliveryWork(t *testing.T) {
	before := runtime.NumGoroutine()
	sb, err := sandbox.New(sandbox.WithFakeClock(sandboxtest.Start))
	require.NoError(t, err)
	hs := httptest.NewServer(sb)
	rcv := sandboxtest.NewReceiver(t)
	rcv.Hang()
	req, _ := http.NewRequest(http.MethodPut, hs.URL+"/v3/account", strings.NewReader(`{"callback_url":"`+rcv.URL+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(sb.DefaultAPIKey(), "")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Eventually(t, func() bool { return len(rcv.Deliveries()) == 1 }, 5*time.Second, 5*time.Millisecond)

	start := time.Now()
	hs.Close()
	sb.Close()
	// The hanging attempt would end only at the 10 s callback timeout; the
	// bound sits well below it and well above a slow machine's Close.
	assert.Less(t, time.Since(start), 8*time.Second, "Close does not wait for the callback timeout")
	rcv.Close()
	http.DefaultClient.CloseIdleConnections()
	assert.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 }, 5*time.Second, 10*time.Millisecond,
		"goroutines left: %d (before %d)", runtime.NumGoroutine(), before)
}
