package scenario_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
)

// The control plane answers the callback log and the outbox in pages; a
// scenario's events and emails steps still check the whole log, because
// the runner follows next_cursor. With one entry per page, three e-mails
// and a request's events take several pages.
func TestLogStepsReadEveryPage(t *testing.T) {
	defer scenario.SetPageLimit(1)()
	doc := []byte(`name: paged-logs
steps:
  - name: send
    call: signatureRequestSend
    body:
      title: Three signers
      test_mode: true
      signers:
        - {name: Ann, email_address: ann@example.com}
        - {name: Ben, email_address: ben@example.com}
        - {name: Cat, email_address: cat@example.com}
    files:
      - {name: a.txt, text: "Three people sign."}
  - advance: 10s
  - emails:
      filter: {kind: signature_request}
      count: 3
      sequence:
        - {to: ann@example.com}
        - {to: ben@example.com}
        - {to: cat@example.com}
  - events:
      filter: {object_id: "${steps.send.body.signature_request.signature_request_id}"}
      types: [signature_request_sent]
`)
	var out strings.Builder
	res := sandbox.RunScenarios(context.Background(), []sandbox.ScenarioFile{{Name: "paged-logs.yaml", Data: doc}}, sandbox.RunOptions{Out: &out})
	require.Len(t, res, 1)
	assert.True(t, res[0].OK(), "run output:\n%s", out.String())
}
