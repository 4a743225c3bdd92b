package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/fields"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

// TestCombinedTemplateIDsStayUnique: the suffix that makes a later
// template's api_id, group id or rule id unique is added again when the
// suffixed id is taken too, so a request never holds two fields with one
// api_id.
func TestCombinedTemplateIDsStayUnique(t *testing.T) {
	s := newInternalSandbox(t)
	owner := s.host.Fixtures().Accounts[0].ID
	var ids []string
	s.testUpdate(t, func(tx *state.Txn) error {
		for _, names := range [][]string{{"a", "a_2"}, {"a", "a_2"}} {
			tp := &model.Template{ID: tx.NewID(), Seq: tx.Seq(), OwnerID: owner, Status: model.TemplateReady,
				SignerRoles: []model.TemplateRole{{Name: "Signer"}}, Documents: []model.Document{{Name: "d.pdf"}}}
			for _, n := range names {
				tp.Fields = append(tp.Fields, model.TemplateField{APIID: n, Type: fields.TypeCheckbox, Group: "g" + n})
				tp.Groups = append(tp.Groups, model.FieldGroup{GroupID: "g" + n, GroupLabel: n, Requirement: "require_0-1"})
				tp.Rules = append(tp.Rules, model.FieldRule{ID: "r" + n})
			}
			ids = append(ids, tp.ID)
			if err := state.PutTemplate(tx, tp); err != nil {
				return err
			}
		}
		return nil
	})
	use, err := template.Combine(s.host.DefaultWorld().Store.Read(), owner, ids, false)
	require.NoError(t, err)
	var apiIDs, groups, rules []string
	for _, f := range use.FormFields {
		apiIDs, groups = append(apiIDs, f.APIID), append(groups, f.Group)
	}
	for _, r := range use.FieldRules {
		rules = append(rules, r.ID)
	}
	assert.Equal(t, []string{"a", "a_2", "a_2_2", "a_2_2_2"}, apiIDs)
	assert.Equal(t, []string{"ga", "ga_2", "ga_2_2", "ga_2_2_2"}, groups)
	assert.Equal(t, []string{"ra", "ra_2", "ra_2_2", "ra_2_2_2"}, rules)
}
