package sigreq

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// TestFailureTransitions pins every failure status to its event, and where
// a failure can still happen.
func TestFailureTransitions(t *testing.T) {
	const now = int64(1_000_000)
	events := map[string]string{
		model.SigErrorFile: notify.TypeFileError, model.SigErrorUnknown: notify.TypeUnknownError, model.SigErrorInvalidEmail: notify.TypeRequestInvalid,
		model.SigErrorComponentPosition: notify.TypeRequestInvalid, state.SigErrorTextTag: notify.TypeRequestInvalid,
	}
	require.ElementsMatch(t, failureStatusCodes, func() []string {
		var out []string
		for k := range events {
			out = append(out, k)
		}
		return out
	}())
	for _, code := range failureStatusCodes {
		t.Run(code, func(t *testing.T) {
			for _, phase := range []string{model.PhaseProcessing, model.PhaseSent} {
				o := fail(trReq(phase, false, aw, aw), api.ProcessFailure{StatusCode: code}, now)
				require.NotNil(t, o, phase)
				assert.Equal(t, model.PhaseError, o.Req.Phase)
				assert.Equal(t, []string{code, code}, []string{o.Req.Signatures[0].Status, o.Req.Signatures[1].Status})
				require.Len(t, o.Events, 1)
				assert.Equal(t, events[code], o.Events[0].Type)
				assert.Equal(t, failureMessages[code], o.Events[0].Message)
				assert.Empty(t, o.Mails)
			}
		})
	}
	one := fail(trReq(model.PhaseProcessing, false, aw, aw), api.ProcessFailure{StatusCode: model.SigErrorInvalidEmail, Message: "m", SignatureIDs: []string{"s1"}}, now)
	assert.Equal(t, []string{aw, model.SigErrorInvalidEmail}, []string{one.Req.Signatures[0].Status, one.Req.Signatures[1].Status})
	assert.Equal(t, "m", one.Req.Signatures[1].Error)

	for name, r := range map[string]*model.SignatureRequest{
		"signed":         trReq(model.PhaseSent, false, sd, aw),
		"declined":       trReq(model.PhaseDeclined, false, dc, aw),
		"complete":       trReq(model.PhaseComplete, false, sd),
		"in error":       trReq(model.PhaseError, false, model.SigErrorFile),
		"canceled":       trReq(model.PhaseCanceled, false, aw),
		"cancel pending": with(trReq(model.PhaseSent, false, aw), func(r *model.SignatureRequest) { r.CancelPending = true }),
		"expired":        trReq(model.PhaseExpired, false, model.SigExpired),
	} {
		assert.Nil(t, fail(r, api.ProcessFailure{StatusCode: model.SigErrorUnknown}, now), name)
		assert.NotNil(t, failBlocked(r), name)
	}
	assert.Nil(t, fail(trReq(model.PhaseProcessing, false, aw), api.ProcessFailure{StatusCode: "declined"}, now), "not a failure status")
}

// TestPlacement: a field is inside, over an edge, or off its page; pages
// and sizes that are not known decide nothing.
func TestPlacement(t *testing.T) {
	letter := []model.Document{{Pages: []model.Page{{Width: 612, Height: 792}, {Width: 792, Height: 612}}}}
	two := 2
	field := func(x, y, w, h int, page *int) model.FormField {
		return model.FormField{APIID: "f", X: x, Y: y, Width: w, Height: h, Page: page}
	}
	for name, c := range map[string]struct {
		f    model.FormField
		docs []model.Document
		want fields.Place
	}{
		"inside":              {field(0, 0, 612, 792, nil), letter, fields.PlaceInside},
		"over the right edge": {field(600, 10, 20, 10, nil), letter, fields.PlacePartly},
		"over the bottom":     {field(10, 780, 20, 20, nil), letter, fields.PlacePartly},
		"right of the page":   {field(612, 10, 20, 10, nil), letter, fields.PlaceOutside},
		"below the page":      {field(10, 792, 20, 10, nil), letter, fields.PlaceOutside},
		"landscape page 2":    {field(700, 10, 20, 10, &two), letter, fields.PlaceInside},
		"below landscape":     {field(10, 700, 20, 10, &two), letter, fields.PlaceOutside},
		"page not known":      {field(10, 10, 20, 10, func() *int { n := 3; return &n }()), letter, fields.PlaceUnknown},
		"document not known":  {model.FormField{DocumentIndex: 1, Width: 1, Height: 1}, letter, fields.PlaceUnknown},
		"no sizes":            {field(9999, 10, 20, 10, nil), []model.Document{{}}, fields.PlaceUnknown},
	} {
		got, _ := fields.Placement(c.f, c.docs)
		assert.Equal(t, c.want, got, name)
	}

	req := trReq(model.PhaseProcessing, false, aw)
	req.Documents = letter
	req.FormFields = []model.FormField{field(10, 10, 20, 20, nil), field(600, 10, 20, 10, nil)}
	assert.Nil(t, failPlacement(req, 1), "a field over an edge is only a warning")
	req.FormFields = append(req.FormFields, field(10, 900, 20, 20, nil))
	o := failPlacement(req, 1)
	require.NotNil(t, o)
	assert.Equal(t, model.SigErrorComponentPosition, o.Req.Signatures[0].Status)
	assert.Equal(t, []string{notify.TypeRequestInvalid}, []string{o.Events[0].Type})
	req.Documents = []model.Document{{Pages: letter[0].Pages, Error: "unreadable"}}
	assert.Nil(t, failPlacement(req, 1), "error_file comes first")
}

// TestEIDAndRemovalTransitions pins the eID signer move and the removed
// signers of an edit.
func TestEIDAndRemovalTransitions(t *testing.T) {
	eid := with(trReq(model.PhaseSent, true, aw, aw), func(r *model.SignatureRequest) { r.IsEID = true })
	o, e := leaveEIDIncomplete(eid, "s0", "", 5)
	require.Nil(t, e)
	assert.Equal(t, aw, o.Req.Signatures[0].Status)
	assert.Equal(t, []sigEvent{{Type: notify.TypeRequestIncompleteQES, SignatureID: "s0", Message: msgEIDIncomplete}}, o.Events)
	_, e = leaveEIDIncomplete(eid, "s1", "", 5)
	assert.Equal(t, apierr.Conflict, e.Name, "not this signer's turn")
	_, e = leaveEIDIncomplete(trReq(model.PhaseSent, false, aw), "s0", "", 5)
	assert.Equal(t, apierr.Forbidden, e.Name)
	_, e = leaveEIDIncomplete(trReq(model.PhaseCanceled, false, aw), "s0", "", 5)
	assert.Equal(t, apierr.Deleted, e.Name)
	_, e = leaveEIDIncomplete(eid, "nope", "", 5)
	assert.Equal(t, apierr.NotFound, e.Name)

	old := trReq(model.PhaseSent, false, aw, aw, aw)
	edited := trReq(model.PhaseProcessing, false, aw)
	edited.Signatures[0].Email = "S1@EXAMPLE.COM"
	var gone []string
	for _, sg := range removedSigners(old, edited) {
		gone = append(gone, sg.ID)
	}
	assert.Equal(t, []string{"s0", "s2"}, gone)
	assert.Empty(t, removedSigners(old, old))
}
