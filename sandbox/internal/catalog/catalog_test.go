package catalog

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// teamView is what the test kind shows of a team.
type teamView struct{ ID, Name string }

func testCatalog(t *testing.T) (*Catalog, *state.Txn) {
	t.Helper()
	db, err := state.NewDB()
	require.NoError(t, err)
	st := state.NewStore(db, func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) })
	require.NoError(t, st.Update(func(tx *state.Txn) error {
		for _, id := range []string{"t1", "t2", "t3", "t4", "t5"} {
			name := "other"
			if id == "t2" || id == "t4" || id == "t5" {
				name = "mine"
			}
			if err := state.Put(tx, state.TableTeams, &model.Team{ID: id, Name: name}); err != nil {
				return err
			}
		}
		return nil
	}))
	c := New()
	c.Add(Of("team", state.TableTeams,
		func(t *model.Team) string { return t.ID },
		func(_ *state.Txn, t *model.Team) (any, error) { return teamView{ID: t.ID, Name: t.Name}, nil },
		func(_ *state.Txn, t *model.Team, accountID string) bool { return t.Name == accountID }))
	c.Add(Of("bare", state.TableTeams,
		func(t *model.Team) string { return t.ID },
		func(_ *state.Txn, t *model.Team) (any, error) { return t.ID, nil },
		nil))
	return c, st.Read()
}

func TestGetShowsOneObject(t *testing.T) {
	c, tx := testCatalog(t)
	assert.Equal(t, []string{"bare", "team"}, c.Kinds())

	v, err := c.Get(tx, "team", "t3")
	require.NoError(t, err)
	assert.Equal(t, teamView{ID: "t3", Name: "other"}, v)

	_, err = c.Get(tx, "team", "nope")
	assert.ErrorIs(t, err, state.ErrNotFound)
	_, err = c.Get(tx, "fax", "t3")
	assert.ErrorIs(t, err, ErrUnknownKind)
}

func TestListPagesInIDOrder(t *testing.T) {
	c, tx := testCatalog(t)
	var ids []string
	cursor, pages := "", 0
	for {
		p, err := c.List(tx, "team", Filter{Limit: 2}, cursor)
		require.NoError(t, err)
		pages++
		for _, v := range p.Items {
			ids = append(ids, v.(teamView).ID)
		}
		if p.Next == "" {
			break
		}
		cursor = p.Next
	}
	assert.Equal(t, []string{"t1", "t2", "t3", "t4", "t5"}, ids)
	assert.Equal(t, 3, pages)

	p, err := c.List(tx, "team", Filter{AccountID: "mine", Limit: 2}, "")
	require.NoError(t, err)
	assert.Equal(t, []any{teamView{"t2", "mine"}, teamView{"t4", "mine"}}, p.Items)
	assert.Equal(t, "t4", p.Next)
	p, err = c.List(tx, "team", Filter{AccountID: "mine", Limit: 2}, p.Next)
	require.NoError(t, err)
	assert.Equal(t, []any{teamView{"t5", "mine"}}, p.Items)
	assert.Empty(t, p.Next)

	p, err = c.List(tx, "bare", Filter{AccountID: "mine"}, "")
	require.NoError(t, err)
	assert.Empty(t, p.Items, "a kind without involves lists nothing for an account")
	p, err = c.List(tx, "bare", Filter{Limit: MaxLimit + 1}, "")
	require.NoError(t, err)
	assert.Len(t, p.Items, 5)

	_, err = c.List(tx, "fax", Filter{}, "")
	assert.ErrorIs(t, err, ErrUnknownKind)
}

func TestAddTwicePanics(t *testing.T) {
	c, _ := testCatalog(t)
	assert.Panics(t, func() { c.Add(Kind{Name: "team"}) })
}

// TestGetForShowsAnObjectToEachViewer: a kind made with OfViewer renders
// an object for the account asking (an event's receivers), and for its
// owner when Get, List or GetFor with no viewer ask.
func TestGetForShowsAnObjectToEachViewer(t *testing.T) {
	c, tx := testCatalog(t)
	c.Add(OfViewer("seen", state.TableTeams,
		func(t *model.Team) string { return t.ID },
		func(_ *state.Txn, t *model.Team, viewer string) (any, error) {
			if viewer == "" {
				viewer = "owner of " + t.ID
			}
			return viewer, nil
		}, nil))
	assert.True(t, c.Has("seen"))
	assert.False(t, c.Has("fax"))

	v, err := c.GetFor(tx, "seen", "t1", "acct-2")
	require.NoError(t, err)
	assert.Equal(t, "acct-2", v)
	v, err = c.Get(tx, "seen", "t1")
	require.NoError(t, err)
	assert.Equal(t, "owner of t1", v)
	p, err := c.List(tx, "seen", Filter{Limit: 1}, "")
	require.NoError(t, err)
	assert.Equal(t, []any{"owner of t1"}, p.Items)

	v, err = c.GetFor(tx, "team", "t3", "acct-2")
	require.NoError(t, err)
	assert.Equal(t, teamView{ID: "t3", Name: "other"}, v, "a kind made with Of shows everyone the same")
	_, err = c.GetFor(tx, "seen", "nope", "acct-2")
	assert.ErrorIs(t, err, state.ErrNotFound)
}
