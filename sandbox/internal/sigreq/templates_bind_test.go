package sigreq

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// tbUse is a resolved template with two signer roles (Client ordered
// before Witness), a CC role and a merge field.
func tbUse() *template.Use {
	return &template.Use{
		Documents:   []model.Document{{Name: "t.pdf"}},
		SignerRoles: []template.Role{{Name: "Client", Order: orderOf(0)}, {Name: "Witness", Order: orderOf(1)}},
		CCRoles:     []string{"Accounting"},
		FormFields: []model.FormField{
			{APIID: "sig", Type: fields.TypeSignature, Role: "Witness"},
			{APIID: "company", Name: "company", Type: fields.TypeTextMerge, Signer: fields.SignerSender},
		},
		MergeFields: []template.MergeField{{Name: "company", Type: "text", APIID: "company"}},
		Title:       "Template title",
	}
}

func orderOf(v int) *int { return &v }

// TestBindTemplateUse: binding is a pure function of the body and the
// resolved templates; roles left open are refused unless the caller leaves
// them open (template drafts), where they keep their slot and order.
func TestBindTemplateUse(t *testing.T) {
	tb := &TemplateBody{
		TemplateIDs:  []string{"tpl"},
		Signers:      []SubSigner{{Role: "Witness", Name: "Wendy", EmailAddress: "wendy@example.com"}},
		CustomFields: []subCustomField{{Name: "company", Value: "ACME"}},
	}
	var spec Spec
	e := spec.BindTemplateUse(&api.Call{}, tbUse(), tb, nil, false)
	require.NotNil(t, e)
	assert.Equal(t, "signers", e.Path)
	assert.Contains(t, e.Msg, `"Client"`)

	spec = Spec{}
	require.Nil(t, spec.BindTemplateUse(&api.Call{}, tbUse(), tb, []model.Document{{Name: "extra.pdf"}}, true))
	require.Len(t, spec.Signers, 2)
	assert.Equal(t, model.Signature{Slot: 0, Role: "Client", Order: orderOf(0)}, spec.Signers[0], "an open role: no name or address yet")
	assert.Equal(t, "wendy@example.com", spec.Signers[1].Email)
	assert.Equal(t, 1, spec.Signers[1].Slot)
	assert.Equal(t, []string{""}, spec.CCEmails, "an open CC role keeps its place")
	assert.Equal(t, "1", spec.FormFields[0].Signer, "the Witness field belongs to slot 1")
	assert.Equal(t, []string{"t.pdf", "extra.pdf"}, []string{spec.Documents[0].Name, spec.Documents[1].Name})
	require.Len(t, spec.CustomFields, 1)
	assert.Equal(t, "ACME", spec.CustomFields[0].Value)
	assert.Equal(t, "Template title", spec.Title)

	tb.CCs = []subCC{{Role: "Nobody", EmailAddress: "x@example.com"}}
	e = (&Spec{}).BindTemplateUse(&api.Call{}, tbUse(), tb, nil, true)
	require.NotNil(t, e)
	assert.Equal(t, "ccs[0][role]", e.Path)
}

// TestCheckTemplateBodySignersOptional: signers are required unless the
// caller allows none; given signers are checked either way.
func TestCheckTemplateBodySignersOptional(t *testing.T) {
	b := &Body{TemplateIDs: []string{"tpl"}}
	_, e := b.CheckTemplateBody(&api.Call{}, false)
	require.NotNil(t, e)
	assert.Equal(t, "signers", e.Path)
	tb, e := b.CheckTemplateBody(&api.Call{}, true)
	require.Nil(t, e)
	assert.Empty(t, tb.Signers)
	assert.Equal(t, []string{"tpl"}, tb.TemplateIDs)

	b.Signers = []SubSigner{{Name: "No Role", EmailAddress: "a@example.com"}}
	_, e = b.CheckTemplateBody(&api.Call{}, true)
	require.NotNil(t, e)
	assert.Equal(t, "signers[0][role]", e.Path)
}
