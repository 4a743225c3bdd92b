package state

import (
	"fmt"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLastEmailAbout pins the lookup of a signer's e-mails: the newest
// matching e-mail about one signature of a request, others' e-mails,
// another request's and e-mails about no signature never seen, and a
// bounce (an update in place) kept in order.
func TestLastEmailAbout(t *testing.T) {
	st := newTestStore(t)
	const a, b = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	rows := []model.Email{
		{ID: "1", Seq: 1, Kind: "signature_request", SignatureID: a, SignatureRequestID: "r"},
		{ID: "2", Seq: 2, Kind: "signature_request", SignatureID: b, SignatureRequestID: "r"},
		{ID: "3", Seq: 3, Kind: "team_invite"},
		{ID: "4", Seq: 4, Kind: "reminder", SignatureID: a, SignatureRequestID: "r"},
		{ID: "5", Seq: 5, Kind: "signature_request", SignatureID: a + "x", SignatureRequestID: "r"},
		{ID: "6", Seq: 6, Kind: "reminder", SignatureID: a, SignatureRequestID: "other"},
	}
	require.NoError(t, st.Update(func(tx *Txn) error {
		for i := range rows {
			if err := Put(tx, TableEmails, &rows[i]); err != nil {
				return err
			}
		}
		return nil
	}))
	anyEmail := func(*model.Email) bool { return true }
	kind := func(k string) func(*model.Email) bool { return func(e *model.Email) bool { return e.Kind == k } }
	tx := st.Read()

	e, err := LastEmailAbout(tx, "r", a, anyEmail)
	require.NoError(t, err)
	require.Equal(t, "4", e.ID, "the newest e-mail about the signature")
	e, err = LastEmailAbout(tx, "r", a, kind("signature_request"))
	require.NoError(t, err)
	require.Equal(t, "1", e.ID, "the newest of the kind asked for")
	e, err = LastEmailAbout(tx, "r", b, kind("reminder"))
	require.NoError(t, err)
	require.Nil(t, e)
	e, err = LastEmailAbout(tx, "r", "", anyEmail)
	require.NoError(t, err)
	require.Nil(t, e, "e-mails about no signature are not looked for")
	e, err = LastEmailAbout(tx, "other", a, anyEmail)
	require.NoError(t, err)
	require.Equal(t, "6", e.ID, "the signature's e-mail about the request asked for")

	require.NoError(t, st.Update(func(tx *Txn) error {
		c := rows[3]
		c.Bounced = true
		return Put(tx, TableEmails, &c)
	}))
	e, err = LastEmailAbout(st.Read(), "r", a, anyEmail)
	require.NoError(t, err)
	require.Equal(t, "4", e.ID)
	require.True(t, e.Bounced)
}

// TestClearEmails: emptying the outbox drops every e-mail, its indexes
// and its count, and the outbox fills and trims as a new one afterwards.
func TestClearEmails(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		cfg := DefaultConfig()
		cfg.LogEntries = 3
		return PutConfig(tx, cfg)
	}))
	add := func(seq uint64, req string) {
		require.NoError(t, st.Update(func(tx *Txn) error {
			return AddEmail(tx, &model.Email{ID: fmt.Sprintf("m%d", seq), Seq: seq, Kind: "reminder", SignatureRequestID: req, SignatureID: "s"})
		}))
	}
	for i := uint64(1); i <= 5; i++ {
		add(i, "r")
	}
	count := func() int {
		n, err := CountRows(st.Read(), TableEmails)
		require.NoError(t, err)
		return n
	}
	require.Equal(t, 3, count(), "trimmed to the limit")
	var n int
	require.NoError(t, st.Update(func(tx *Txn) (err error) { n, err = ClearEmails(tx); return err }))
	assert.Equal(t, 3, n)
	assert.Equal(t, 0, count())
	tx := st.Read()
	assert.Equal(t, int64(0), readUsage(tx.mem).Emails)
	page, err := PageEmails(tx, "", PageQuery{Limit: 10}, nil)
	require.NoError(t, err)
	assert.Empty(t, page.Rows)
	page, err = PageEmails(tx, "r", PageQuery{Limit: 10}, nil)
	require.NoError(t, err)
	assert.Empty(t, page.Rows, "the request's index is empty too")
	e, err := LastEmailAbout(tx, "r", "s", func(*model.Email) bool { return true })
	require.NoError(t, err)
	assert.Nil(t, e)

	for i := uint64(6); i <= 10; i++ {
		add(i, "r2")
	}
	assert.Equal(t, 3, count(), "the limit holds from an empty outbox")
	page, err = PageEmails(st.Read(), "", PageQuery{Limit: 10}, nil)
	require.NoError(t, err)
	require.Len(t, page.Rows, 3)
	assert.Equal(t, uint64(8), page.Rows[0].Seq, "the oldest dropped")
}

// TestSetEmailRead marks an e-mail read and unread, in place.
func TestSetEmailRead(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		return AddEmail(tx, &model.Email{ID: "m1", Seq: 1, Kind: "completed", SignatureRequestID: "r", Subject: "s"})
	}))
	for _, read := range []bool{true, true, false} {
		var got *model.Email
		require.NoError(t, st.Update(func(tx *Txn) (err error) { got, err = SetEmailRead(tx, "m1", read); return err }))
		assert.Equal(t, read, got.Read)
		stored, err := Get[model.Email](st.Read(), TableEmails, "m1")
		require.NoError(t, err)
		assert.Equal(t, read, stored.Read)
		assert.Equal(t, "s", stored.Subject)
	}
	err := st.Update(func(tx *Txn) error { _, err := SetEmailRead(tx, "nope", true); return err })
	assert.ErrorIs(t, err, ErrNotFound)
}

// TestBrandOf: an app's branding as e-mails show it: its effective
// colours (customized, inherited, default), for an app that customized
// its white labeling or its logo; none for others.
func TestBrandOf(t *testing.T) {
	st := newTestStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		for _, app := range []*model.APIApp{
			{ClientID: "plain", OwnerAccountID: "o", Name: "Plain"},
			{ClientID: "wl", OwnerAccountID: "o", Name: "Branded", WhiteLabelingSet: true, WhiteLabelingOptions: map[string]string{"primary_button_color": "#AA0000", "header_background_color": "#003300"}},
			{ClientID: "logo", OwnerAccountID: "o", Name: "Logo", CustomLogoBlobID: "b"},
		} {
			if err := Put(tx, TableAPIApps, app); err != nil {
				return err
			}
		}
		return nil
	}))
	tx := st.Read()
	assert.Nil(t, BrandOf(tx, "", ""))
	assert.Nil(t, BrandOf(tx, "nope", "http://x/logo"))
	assert.Nil(t, BrandOf(tx, "plain", "http://x/logo"))
	b := BrandOf(tx, "wl", "http://x/logo")
	require.NotNil(t, b)
	assert.Equal(t, model.EmailBrand{ClientID: "wl", AppName: "Branded", HeaderBackgroundColor: "#003300", PageBackgroundColor: "#f7f8f9",
		TextColor2: "#ffffff", LinkColor: "#0061FE", PrimaryButtonColor: "#AA0000", PrimaryButtonTextColor: "#ffffff"}, *b)
	b = BrandOf(tx, "logo", "http://x/logo")
	require.NotNil(t, b)
	assert.Equal(t, "Logo", b.AppName)
	assert.Equal(t, "http://x/logo", b.LogoURL, "an app with a logo")
	assert.Equal(t, WhiteLabelDefaults["primary_button_color"], b.PrimaryButtonColor)
}
