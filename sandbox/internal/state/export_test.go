package state

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var exportTestNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// seededStore is a store with a meta row, a config, accounts, keys, a token
// and a pending job: a little of every kind of value export must carry.
func seededStore(t testing.TB) *Store {
	t.Helper()
	db, err := NewDB()
	require.NoError(t, err)
	st := NewStore(db, func() time.Time { return exportTestNow })
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := InitMeta(tx, "export-seed"); err != nil {
			return err
		}
		if err := PutConfig(tx, DefaultConfig()); err != nil {
			return err
		}
		left := 7
		for i, email := range []string{"a@x.example", "B@x.example"} {
			a := &model.Account{ID: tx.NewID(), Email: email, EmailKey: EmailKey(email), Locale: "en-US", CreatedAt: tx.Unix(),
				Quotas: model.Quotas{APISignatureRequestsLeft: &left}, Seq: tx.Seq()}
			if err := Put(tx, TableAccounts, a); err != nil {
				return err
			}
			if err := Put(tx, TableAPIKeys, &model.APIKey{Key: tx.NewSecret(), AccountID: a.ID, Primary: i == 0, Seq: tx.Seq()}); err != nil {
				return err
			}
		}
		if err := Put(tx, TableOAuthToken, &model.OAuthToken{AccessToken: "at", RefreshToken: "rt", Scopes: []string{"x"}, ExpiresAt: 1}); err != nil {
			return err
		}
		_, err := Schedule(tx, "kind", "subject", time.Hour, map[string]any{"n": 12345678901234567})
		return err
	}))
	return st
}

func exportJSON(t *testing.T, st *Store) []byte {
	t.Helper()
	tables, err := Export(st.Read())
	require.NoError(t, err)
	b, err := json.Marshal(tables)
	require.NoError(t, err)
	return b
}

// reimported is st exported and imported again.
func reimported(t *testing.T, st *Store) *Store {
	t.Helper()
	var tables Tables
	require.NoError(t, json.Unmarshal(exportJSON(t, st), &tables))
	db, err := Import(tables)
	require.NoError(t, err)
	return NewStore(db, func() time.Time { return exportTestNow })
}

func TestExportImportRoundTripIsExact(t *testing.T) {
	st := seededStore(t)
	first := exportJSON(t, st)
	var tables Tables
	require.NoError(t, json.Unmarshal(first, &tables))
	db, err := Import(tables)
	require.NoError(t, err)
	st2 := NewStore(db, func() time.Time { return exportTestNow })
	assert.Equal(t, string(first), string(exportJSON(t, st2)))
	assert.Contains(t, string(first), "12345678901234567", "numbers in job args stay exact")

	// The ID sequence travels with the state: both continue identically.
	var id1, id2 string
	require.NoError(t, st.Update(func(tx *Txn) error { id1 = tx.NewID(); return nil }))
	require.NoError(t, st2.Update(func(tx *Txn) error { id2 = tx.NewID(); return nil }))
	assert.Equal(t, id1, id2)
	assert.Len(t, id1, 40)

	// Every registered table is exported, empty ones as [].
	for _, name := range TableNames() {
		_, ok := tables[name]
		assert.True(t, ok, "table %s missing from the export", name)
	}
}

func TestImportRefusesBadStates(t *testing.T) {
	good := exportJSON(t, seededStore(t))
	mutate := func(fn func(tables map[string][]json.RawMessage)) Tables {
		var tables Tables
		require.NoError(t, json.Unmarshal(good, &tables))
		fn(tables)
		return tables
	}
	cases := []struct {
		name   string
		tables Tables
		msg    string
	}{
		{"unknown table", mutate(func(m map[string][]json.RawMessage) { m["nope"] = nil }), `unknown table "nope"`},
		{"unknown field", mutate(func(m map[string][]json.RawMessage) {
			m[TableAccounts][0] = json.RawMessage(`{"account_id":"x","email_key":"x","surprise":1}`)
		}), `unknown field "surprise"`},
		{"wrong type", mutate(func(m map[string][]json.RawMessage) {
			m[TableAccounts][0] = json.RawMessage(`{"account_id":5}`)
		}), `table "accounts" row 0`},
		{"not an object", mutate(func(m map[string][]json.RawMessage) {
			m[TableAPIKeys][1] = json.RawMessage(`[1]`)
		}), `table "api_keys" row 1`},
		{"null row", mutate(func(m map[string][]json.RawMessage) {
			m[TableAPIKeys][0] = json.RawMessage(`null`)
		}), `table "api_keys" row 0`},
		{"duplicate id", mutate(func(m map[string][]json.RawMessage) {
			m[TableAPIKeys][1] = m[TableAPIKeys][0]
		}), "share an id"},
		{"duplicate unique key", mutate(func(m map[string][]json.RawMessage) {
			var a model.Account
			require.NoError(t, json.Unmarshal(m[TableAccounts][0], &a))
			a.ID = "another-id"
			b, _ := json.Marshal(a)
			m[TableAccounts] = append(m[TableAccounts], b)
		}), `unique "email" key`},
		{"missing meta", mutate(func(m map[string][]json.RawMessage) { delete(m, tableMeta) }), `missing row "meta"`},
		{"missing id", mutate(func(m map[string][]json.RawMessage) {
			m[TableJobs][0] = json.RawMessage(`{"due":1,"seq":1,"kind":"k"}`)
		}), `table "jobs" row 0`},
		{"delivery payload not JSON", mutate(func(m map[string][]json.RawMessage) {
			m[TableDeliveries] = append(m[TableDeliveries], json.RawMessage(`{"id":"d1","payload":"{not json"}`))
		}), `table "deliveries" row 0: payload is not valid JSON`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Import(tc.tables)
			require.Error(t, err)
			assert.Nil(t, db)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestStoreUpdateCommitsAllOrNothing(t *testing.T) {
	st := seededStore(t)
	before := exportJSON(t, st)
	var ran bool
	boom := errors.New("boom")
	err := st.Update(func(tx *Txn) error {
		_ = tx.NewID()
		tx.AfterCommit(func() { ran = true })
		if err := Put(tx, TableTeams, &model.Team{ID: "t"}); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.False(t, ran, "after-commit work does not run on abort")
	assert.Equal(t, string(before), string(exportJSON(t, st)), "an aborted write changes nothing, not even the ID counter")

	var topics []string
	st.SetNotifier(func(topic string) { topics = append(topics, topic) })
	require.NoError(t, st.Update(func(tx *Txn) error {
		tx.Notify(TopicJobs)
		tx.Notify(TopicJobs)
		tx.Notify(TopicEvents)
		tx.AfterCommit(func() { ran = true })
		assert.Equal(t, exportTestNow.Unix(), tx.Unix())
		return nil
	}))
	assert.True(t, ran)
	assert.Equal(t, []string{TopicJobs, TopicEvents}, topics, "a topic is announced once per commit")
}

func TestIDsFollowTheSeed(t *testing.T) {
	ids := func(seed string) []string {
		db, err := NewDB()
		require.NoError(t, err)
		st := NewStore(db, func() time.Time { return exportTestNow })
		var out []string
		require.NoError(t, st.Update(func(tx *Txn) error {
			if err := InitMeta(tx, seed); err != nil {
				return err
			}
			out = append(out, tx.NewID(), tx.NewSecret(), tx.NewUUID())
			return nil
		}))
		return out
	}
	a, b, c := ids("one"), ids("one"), ids("two")
	assert.Equal(t, a, b)
	assert.NotEqual(t, a[0], c[0])
	assert.Regexp(t, `^[0-9a-f]{40}$`, a[0])
	assert.Regexp(t, `^[0-9a-f]{64}$`, a[1])
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, a[2])
}

func TestDurationJSON(t *testing.T) {
	var c struct {
		D model.Duration `json:"d"`
	}
	for in, want := range map[string]time.Duration{`"1h30m"`: 90 * time.Minute, `90`: 90 * time.Second, `1.5`: 1500 * time.Millisecond} {
		require.NoError(t, json.Unmarshal([]byte(`{"d":`+in+`}`), &c), in)
		assert.Equal(t, want, c.D.D(), in)
	}
	require.Error(t, json.Unmarshal([]byte(`{"d":"soon"}`), &c))
	require.Error(t, json.Unmarshal([]byte(`{"d":true}`), &c))
	b, err := json.Marshal(model.Duration(90 * time.Minute))
	require.NoError(t, err)
	assert.Equal(t, `"1h30m0s"`, string(b))
}

func TestConfigDefaultsWhenAbsent(t *testing.T) {
	db, err := NewDB()
	require.NoError(t, err)
	st := NewStore(db, func() time.Time { return exportTestNow })
	assert.Equal(t, DefaultConfig(), GetConfig(st.Read()))
	c := DefaultConfig()
	c.ID = "ignored"
	c.RateLimit.Enforce = true
	require.NoError(t, st.Update(func(tx *Txn) error { return PutConfig(tx, c) }))
	got := GetConfig(st.Read())
	assert.True(t, got.RateLimit.Enforce)
	assert.Equal(t, configRowID, got.ID)
	assert.True(t, strings.HasPrefix(got.OAuthTokenTTL.D().String(), "1h"))
}
