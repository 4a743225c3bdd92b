package unclaimed

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// TestDraftOpen is the table of a draft's states: unclaimed until it
// expires, claimed (usable only by the send that follows the claim), sent.
func TestDraftOpen(t *testing.T) {
	const now = 1000
	for _, tc := range []struct {
		status   string
		expires  int64
		claimed  bool
		wantName apierr.Name // "" when open
		wantMsg  string
	}{
		{state.DraftUnclaimed, now + 1, false, "", ""},
		{state.DraftUnclaimed, now + 1, true, "", ""},
		{state.DraftUnclaimed, now, false, apierr.Deleted, msgDraftExpired},
		{state.DraftUnclaimed, now - 1, true, apierr.Deleted, msgDraftExpired},
		{state.DraftClaimed, now - 1, true, "", ""},
		{state.DraftClaimed, now + 1, false, apierr.Conflict, msgDraftUsed},
		{state.DraftSent, now + 1, true, apierr.Conflict, msgDraftSent},
		{state.DraftSent, now + 1, false, apierr.Conflict, msgDraftSent},
	} {
		err := draftOpen(&model.UnclaimedDraft{Status: tc.status, ExpiresAt: tc.expires}, now, tc.claimed)
		if tc.wantName == "" {
			assert.Nil(t, err, "%+v", tc)
			continue
		}
		if assert.NotNil(t, err, "%+v", tc) {
			assert.Equal(t, tc.wantName, err.Name, "%+v", tc)
			assert.Equal(t, tc.wantMsg, err.Msg, "%+v", tc)
		}
	}
}

// TestDraftResponseShape: the official UnclaimedDraftResponse, with
// requesting_redirect_url only where it applies and null redirect URLs.
func TestDraftResponseShape(t *testing.T) {
	redirect := "https://example.com/done"
	spec := conformance.LoadIfPresent()
	for _, tc := range []struct {
		r    unclaimedDraftResponse
		want string
	}{
		{unclaimedDraftResponse{SignatureRequestID: "d1", ClaimURL: "https://x/claim", ExpiresAt: 5, TestMode: true},
			`{"signature_request_id":"d1","claim_url":"https://x/claim","signing_redirect_url":null,"expires_at":5,"test_mode":true}`},
		{unclaimedDraftResponse{SignatureRequestID: "d1", ClaimURL: "https://x/claim", SigningRedirectURL: &redirect, ShowRequesting: true, ExpiresAt: 5},
			`{"signature_request_id":"d1","claim_url":"https://x/claim","signing_redirect_url":"https://example.com/done","requesting_redirect_url":null,"expires_at":5,"test_mode":false}`},
	} {
		b, err := json.Marshal(tc.r)
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(b), "field order as the official examples")
		if spec != nil {
			assert.NoError(t, spec.ValidateSchema("UnclaimedDraftResponse", b))
		}
	}
}
