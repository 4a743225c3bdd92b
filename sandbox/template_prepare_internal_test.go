package sandbox

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

var a4Portrait = model.Page{Width: 595, Height: 842}

func docOf(name string, pages ...model.Page) model.Document {
	return model.Document{Name: name, Pages: pages}
}

func TestOverlayKeepsFieldsOnTheSamePage(t *testing.T) {
	s, err := New(WithFakeClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)))
	require.NoError(t, err)
	defer s.Close()
	src := &model.Template{ID: "src", Documents: []model.Document{docOf("a.pdf", a4Portrait, a4Portrait), docOf("b.pdf", a4Portrait)},
		Fields: []model.TemplateField{
			{APIID: "p1", DocumentIndex: 0, Page: 1},
			{APIID: "p2", DocumentIndex: 0, Page: 2},
			{APIID: "b1", DocumentIndex: 1, Page: 1},
			{APIID: "legacy", DocumentIndex: 1},
		}}
	var got *model.Template
	require.NoError(t, s.host.DefaultWorld().Store.Update(func(tx *state.Txn) error {
		got = template.Overlay(tx, src, []model.Document{docOf("n1.pdf", a4Portrait), docOf("n2.pdf", a4Portrait, a4Portrait, a4Portrait)})
		return nil
	}))
	where := map[string][2]int{}
	for _, f := range got.Fields {
		where[f.APIID] = [2]int{f.DocumentIndex, f.Page}
	}
	assert.Equal(t, map[string][2]int{"p1": {0, 1}, "p2": {1, 1}, "b1": {1, 2}, "legacy": {1, 2}}, where)
	assert.Equal(t, "src", got.OverlayOf)
	assert.Equal(t, src.Pages(), got.OverlayPages)
	assert.NotEqual(t, "src", got.ID)
}

func TestTemplateFailureHookTurnsCreationIntoTemplateError(t *testing.T) {
	s, err := New(WithFakeClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)))
	require.NoError(t, err)
	defer s.Close()
	var seen []string
	prevHook := s.host.Reg().TemplateFailure
	s.host.Reg().TemplateFailure = func(w *world.World, tpl *model.Template) (bool, string) {
		seen = append(seen, tpl.ID)
		return tpl.Title == "doomed", ""
	}
	defer func() { s.host.Reg().TemplateFailure = prevHook }()

	w := s.host.DefaultWorld()
	owner := s.host.Fixtures().Accounts[0].ID
	ids := map[string]string{}
	require.NoError(t, w.Store.Update(func(tx *state.Txn) error {
		for _, title := range []string{"doomed", "fine"} {
			tpl := template.NewRow(tx, owner, &template.Content{Title: title, Roles: []model.TemplateRole{{Name: "Signer"}}},
				[]model.Document{docOf("a.pdf", a4Portrait)})
			tpl.QuotaCharged = true
			if err := template.ChargeQuota(tx, owner); err != nil {
				return err
			}
			if err := template.StartPreparation(tx, tpl); err != nil {
				return err
			}
			if err := state.PutTemplate(tx, tpl); err != nil {
				return err
			}
			ids[title] = tpl.ID
		}
		return nil
	}))
	_, err = w.Advance(10 * time.Second)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{ids["doomed"], ids["fine"]}, seen)

	tx := w.Store.Read()
	events, err := state.All[model.Event](tx, state.TableEvents, state.IndexSeq)
	require.NoError(t, err)
	got := map[string]string{}
	for _, e := range events {
		got[e.ObjectID] = e.Type + ": " + e.EventMessage
	}
	assert.Equal(t, "template_error: The template could not be created.", got[ids["doomed"]])
	assert.Equal(t, "template_created: ", got[ids["fine"]])
	doomed, err := state.GetTemplate(tx, ids["doomed"])
	require.NoError(t, err)
	assert.Equal(t, model.TemplateError, doomed.Status)
	acct, err := state.Get[model.Account](tx, state.TableAccounts, owner)
	require.NoError(t, err)
	assert.Equal(t, 99, *acct.Quotas.TemplatesLeft, "the failed template's unit came back")
}
