package sigreq

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// richStoredRequest is a request being processed with every slice set and
// room to spare after its elements, as a stored row can have: a change
// made in place, or an append into that room, would show in the row.
func richStoredRequest() *model.SignatureRequest {
	r := trReq(model.PhaseProcessing, true, aw, aw)
	for i := range r.Signatures {
		r.Signatures[i].Notified = false
	}
	r.Signatures = append(make([]model.Signature, 0, 8), r.Signatures...)
	r.CCEmails = append(make([]string, 0, 4), "cc@example.com")
	r.TemplateIDs = append(make([]string, 0, 4), "tpl")
	r.CustomFields = append(make([]model.CustomField, 0, 4), model.CustomField{Name: "f", Value: "v"})
	r.Attachments = append(make([]model.Attachment, 0, 4), model.Attachment{Name: "a"})
	r.Documents = append(make([]model.Document, 0, 4), model.Document{Name: "d.pdf"})
	r.FormFields = append(make([]model.FormField, 0, 4), model.FormField{APIID: "ff"})
	r.FieldGroups = append(make([]model.FieldGroup, 0, 4), model.FieldGroup{GroupID: "g"})
	r.FieldRules = append(make([]model.FieldRule, 0, 4), model.FieldRule{ID: "rule"})
	r.ResponseData = append(make([]model.ResponseValue, 0, 4), model.ResponseValue{APIID: "rv"})
	r.RemovedFor = append(make([]string, 0, 4), "other")
	r.Audit = append(make([]model.AuditEntry, 0, 4), model.AuditEntry{Action: "created"})
	r.LinkSecrets = append(make([]model.LinkSecret, 0, 4), model.LinkSecret{SignatureID: "s0", Secret: "old"})
	r.Metadata = map[string]any{"k": "v"}
	r.SigningOptions = &model.SigningOptions{Draw: true}
	return r
}

// TestProcessingLeavesTheStoredRowAlone: the end of processing, in each of
// its outcomes, and the changes applyOutcome makes to the outcome's row
// (link secrets of the signing e-mails) leave the stored row as it was,
// deeply: its copy shares the slices it does not change.
func TestProcessingLeavesTheStoredRowAlone(t *testing.T) {
	const now = int64(1_000_000)
	cases := map[string]func(r *model.SignatureRequest){
		"sent":     func(r *model.SignatureRequest) {},
		"held":     func(r *model.SignatureRequest) { r.Hold = true },
		"failed":   func(r *model.SignatureRequest) { r.Documents[0].Error = "unreadable" },
		"embedded": func(r *model.SignatureRequest) { r.Embedded = true },
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
			o.Req.Audit = append(o.Req.Audit, model.AuditEntry{Action: "later"})
			for i := range o.Req.Signatures {
				o.Req.Signatures[i].Status = "changed"
			}

			require.Equal(t, deep, stored, "the stored row changed")
			after, err := json.Marshal(stored)
			require.NoError(t, err)
			require.JSONEq(t, string(text), string(after), "the stored row changed")
			require.Equal(t, "old", stored.LinkSecrets[:cap(stored.LinkSecrets)][0].Secret)
			for _, spare := range stored.LinkSecrets[len(stored.LinkSecrets):cap(stored.LinkSecrets)] {
				require.Equal(t, model.LinkSecret{}, spare, "an append wrote into the stored row's array")
			}
			for _, spare := range stored.Audit[len(stored.Audit):cap(stored.Audit)] {
				require.Equal(t, model.AuditEntry{}, spare, "an append wrote into the stored row's array")
			}
		})
	}
}
