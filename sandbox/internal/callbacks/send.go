package callbacks

// One delivery attempt over HTTP: the multipart POST, the per-attempt
// timeout, a capped read of the answer, and the rule that decides whether
// it counts. The client's transport follows the destination rules
// (package outbound): a callback URL that leads to an address the server
// may not reach fails the attempt before anything is sent, and the log
// says "destination not allowed" without the address.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/events"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/outbound"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

const (
	// defaultCallbackTimeout bounds an attempt when the world config says 0.
	defaultCallbackTimeout = 10 * time.Second
	// maxAnswerBytes is how much of an answer is read looking for the
	// acknowledgement; the rest is not read (the connection is dropped).
	maxAnswerBytes = 64 << 10
	// answerExcerptBytes is how much of an answer the delivery log keeps.
	answerExcerptBytes = 256
)

// attemptResult is what one attempt came to.
type attemptResult struct {
	status    int
	body      string
	err       string
	delivered bool
	// duration is how long the attempt took on the world clock.
	duration time.Duration
	// refused, for the operator's log only, says which address the
	// destination rules refused ("" when none was).
	refused string
}

// callbackSender posts deliveries with the sandbox's HTTP client, never
// following redirects (a redirect is not an acknowledgement).
type callbackSender struct {
	client *http.Client
}

func newCallbackSender(c *http.Client) *callbackSender {
	if c == nil {
		c = &http.Client{}
	}
	cl := *c
	cl.CheckRedirect = api.NoRedirects
	return &callbackSender{client: &cl}
}

// send makes one attempt of del.
func (cs *callbackSender) send(parent context.Context, s *api.Host, w *world.World, del *model.Delivery) attemptResult {
	fault, reason := api.FaultNone, ""
	if s.Reg().CallbackFault != nil {
		fault, reason = s.Reg().CallbackFault(s, w, api.CallbackAttempt{
			DeliveryID: del.ID, EventID: del.EventID, EventType: del.EventType, Kind: del.Kind,
			AccountID: del.AccountID, ClientID: del.ClientID, URL: del.URL, Attempt: del.RoundAttempts,
			DueAt: time.Unix(0, del.Due).UTC(),
		})
		if reason == "" {
			reason = "a scenario rule made this attempt fail"
		}
	}
	if fault == api.FaultUnreachable {
		return attemptResult{err: reason}
	}
	timeout := w.Config().CallbackTimeout.D()
	if timeout <= 0 {
		timeout = defaultCallbackTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	ct, body, err := events.Multipart([]byte(del.Payload), events.Boundary(del.ID))
	if err != nil {
		return attemptResult{err: "building the request: " + err.Error()}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, del.URL, bytes.NewReader(body))
	if err != nil {
		return attemptResult{err: "building the request: " + err.Error()}
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("User-Agent", "signsandbox/"+api.Version+" (event callback)")
	resp, err := cs.client.Do(req)
	if err != nil {
		res := attemptResult{err: describeSendError(err, ctx, timeout)}
		var refused *outbound.RefusedError
		if errors.As(err, &refused) {
			res.refused = refused.Detail()
		}
		return res
	}
	defer resp.Body.Close()
	answer, rerr := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	res := attemptResult{status: resp.StatusCode, body: excerpt(answer)}
	switch {
	case resp.StatusCode != http.StatusOK:
		res.err = fmt.Sprintf("answered %d; a delivery counts only when the answer is 200 with %q", resp.StatusCode, events.Acknowledgement)
	case bytes.Contains(answer, []byte(events.Acknowledgement)):
		res.delivered = true
	case rerr != nil:
		res.err = "reading the answer: " + describeSendError(rerr, ctx, timeout)
	default:
		res.err = fmt.Sprintf("the answer does not contain %q", events.Acknowledgement)
	}
	if res.delivered && fault == api.FaultRejectAnswer {
		res.delivered, res.err = false, reason
	}
	return res
}

// describeSendError says why no usable answer came, without the URL that
// the log shows anyway and without the addresses the caller did not give
// (outbound.Describe).
func describeSendError(err error, ctx context.Context, timeout time.Duration) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("no answer within %s (the world's callback_timeout)", timeout)
	}
	return outbound.Describe(err)
}

// excerpt keeps the start of an answer as valid UTF-8.
func excerpt(b []byte) string {
	if len(b) > answerExcerptBytes {
		b = b[:answerExcerptBytes]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
