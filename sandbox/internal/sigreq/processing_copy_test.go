package sigreq

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// richStoredRequest is a request being processed with every slice set and
// room to spare after its elements, as a stored row can have: a change
// made in place, or an append into that room, would show in the row.
func richStoredRequest() *state.SignatureRequest {
	r := trReq(state.PhaseProcessing, true, aw, aw)
	for i := range r.Signatures {
		r.Signatures[i].Notified = false
	}
	r.Signatures = append(make([]state.Signature, 0, 8), r.Signatures...)
	r.CCEmails = append(make([]string, 0, 4), "cc@example.com")
	r.TemplateIDs = append(make([]string, 0, 4), "tpl")
	r.CustomFields = append(make([]state.CustomField, 0, 4), state.CustomField{Name: "f", Value: "v"})
	r.Attachments = append(make([]state.Attachment, 0, 4), state.Attachment{Name: "a"})
	r.Documents = append(make([]state.Document, 0, 4), state.Document{Name: "d.pdf"})
	r.FormFields = append(make([]state.FormField, 0, 4), state.FormField{APIID: "ff"})
	r.FieldGroups = append(make([]state.FieldGroup, 0, 4), state.FieldGroup{GroupID: "g"})
	r.FieldRules = append(make([]state.FieldRule, 0, 4), state.FieldRule{ID: "rule"})
	r.ResponseData = append(make([]state.ResponseValue, 0, 4), state.ResponseValue{APIID: "rv"})
	r.RemovedFor = append(make([]string, 0, 4), "other")
	r.Audit = append(make([]state.AuditEntry, 0, 4), state.AuditEntry{Action: "created"})
	r.LinkSecrets = append(make([]state.LinkSecret, 0, 4), state.LinkSecret{SignatureID: "s0", Secret: "old"})
	r.Metadata = map[string]any{"k": "v"}
	r.SigningOptions = &state.SigningOptions{Draw: true}
	return r
}

// TestProcessingLeavesTheStoredRowAlone: the end of processing, in each of
// its outcomes, and the changes applyOutcome makes to the outcome's row
// (link secrets of the signing e-mails) leave the stored row as it was,
// deeply: its copy shares the slices it does not change.
func TestProcessingLeavesTheStoredRowAlone(t *testing.T) {
	const now = int64(1_000_000)
	cases := map[string]func(r *state.SignatureRequest){
		"sent":     func(r *state.SignatureRequest) {},
		"held":     func(r *state.SignatureRequest) { r.Hold = true },
		"failed":   func(r *state.SignatureRequest) { r.Documents[0].Error = "unreadable" },
		"embedded": func(r *state.SignatureRequest) { r.Embedded = true },
	}
	for name, prepare := range cases {
		t.Run(name, func(t *testing.T) {
			stored := richStoredRequest()
			prepare(stored)
			deep := stored.Copy()
			text, err := json.Marshal(stored)
			require.NoError(t, err)

			o := process(stored, "", now)
			require.NotNil(t, o)
			for _, m := range o.Mails {
				if m.SignatureID != "" {
					require.True(t, state.AddLinkSecret(o.Req, m.SignatureID, "secret-"+m.SignatureID))
				}
			}
			o.Req.Audit = append(o.Req.Audit, state.AuditEntry{Action: "later"})
			for i := range o.Req.Signatures {
				o.Req.Signatures[i].Status = "changed"
			}

			require.Equal(t, deep, stored, "the stored row changed")
			after, err := json.Marshal(stored)
			require.NoError(t, err)
			require.JSONEq(t, string(text), string(after), "the stored row changed")
			require.Equal(t, "old", stored.LinkSecrets[:cap(stored.LinkSecrets)][0].Secret)
			for _, spare := range stored.LinkSecrets[len(stored.LinkSecrets):cap(stored.LinkSecrets)] {
				require.Equal(t, state.LinkSecret{}, spare, "an append wrote into the stored row's array")
			}
			for _, spare := range stored.Audit[len(stored.Audit):cap(stored.Audit)] {
				require.Equal(t, state.AuditEntry{}, spare, "an append wrote into the stored row's array")
			}
		})
	}
}
