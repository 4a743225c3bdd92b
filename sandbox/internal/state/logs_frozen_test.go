package state

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/require"
)

// frozenLogsFile holds a small world with a trimmed outbox and callback
// log as the sandbox wrote it before the logs' seq indexes became compact
// (log_seq.go): its export before and after the log writes, and each
// write's changes as a journal encodes them. It was made by
// frozenLogWorld, and is never regenerated: it stands for states and
// journals written by earlier versions.
const frozenLogsFile = "testdata/logs_frozen.json"

// frozenLogs is the content of frozenLogsFile.
type frozenLogs struct {
	Before  Tables           `json:"before"`
	Commits [][]frozenChange `json:"commits"`
	After   Tables           `json:"after"`
}

// frozenChange is one change of a commit as the journal writes it.
type frozenChange struct {
	Table   string          `json:"t"`
	Row     json.RawMessage `json:"r"`
	Deleted bool            `json:"d,omitempty"`
}

// frozenLogWorld builds the world of frozenLogsFile: e-mails about three
// requests and two signatures, events about three objects (one kept by a
// pending delivery, the others delivered or without targets), a bounce,
// and a batch, in logs capped at four entries.
func frozenLogWorld(t *testing.T) (*Store, frozenLogs) {
	st := seededStore(t)
	withLogLimit(t, st, 4)
	// The world as the versions before automatic reminders wrote it: its
	// configuration has no auto_reminders.
	require.NoError(t, st.Update(func(tx *Txn) error {
		c := GetConfig(tx)
		c.AutoReminders = model.AutoReminderConfig{}
		return PutConfig(tx, c)
	}))
	var out frozenLogs
	var err error
	out.Before, err = Export(st.Read())
	require.NoError(t, err)
	st.SetCommitObserver(func(c Commit) {
		var cs []frozenChange
		for _, ch := range c.Changes {
			if ch.Before == nil && ch.After == nil || IsDerived(ch.Table) {
				continue
			}
			row, deleted := ch.After, false
			if ch.Deleted() {
				row, deleted = ch.Before, true
			}
			b, err := json.Marshal(RowAsExported(row))
			require.NoError(t, err)
			cs = append(cs, frozenChange{Table: ch.Table, Row: b, Deleted: deleted})
		}
		out.Commits = append(out.Commits, cs)
	})
	written := 0
	write := func(n int) {
		require.NoError(t, st.Update(func(tx *Txn) error {
			for i := 0; i < n; i++ {
				k := tx.Seq()
				req := fmt.Sprintf("r%d", k%3)
				if err := AddEmail(tx, &model.Email{ID: tx.NewUUID(), Seq: tx.Seq(), Kind: "signature_request", To: "jack@example.com",
					Subject: "NDA", SignatureRequestID: req, SignatureID: fmt.Sprintf("s%d", k%2), SentAt: tx.Unix()}); err != nil {
					return err
				}
				e := &model.Event{ID: tx.NewUUID(), Seq: tx.Seq(), Type: "signature_request_sent", Time: tx.Unix(),
					ObjectType: "signature_request", ObjectID: req, Object: json.RawMessage(`{"n":1}`)}
				if err := AddEvent(tx, e); err != nil {
					return err
				}
				state := []string{model.DeliveryFailed, model.DeliveryDelivered, ""}[k%3]
				if written++; written == 2 {
					state = model.DeliveryPending // kept in the log to the end
				}
				if state != "" {
					if err := Put(tx, TableDeliveries, &model.Delivery{ID: tx.NewUUID(), Seq: tx.Seq(), EventID: e.ID, EventSeq: e.Seq,
						Queue: "q" + req, State: state, URL: "http://127.0.0.1/cb", Payload: `{}`}); err != nil {
						return err
					}
				}
			}
			return nil
		}))
	}
	for i := 0; i < 6; i++ {
		write(1)
	}
	bounce := func() {
		// A bounce re-puts an e-mail.
		require.NoError(t, st.Update(func(tx *Txn) error {
			page, err := PageEmails(tx, "", PageQuery{Limit: 1, Desc: true}, nil)
			if err != nil {
				return err
			}
			b := *page.Rows[0]
			b.Bounced = true
			return Put(tx, TableEmails, &b)
		}))
	}
	bounce()
	write(5)
	write(1)
	bounce()
	out.After, err = Export(st.Read())
	require.NoError(t, err)
	return st, out
}

// TestFrozenLogsStayByteIdentical: the world of frozenLogsFile, built
// again, exports and journals the same bytes; its export imports and
// exports again unchanged; its journal replays onto its first export into
// the same world; and the logs read from the import, from the replay and
// from the store built now page alike.
func TestFrozenLogsStayByteIdentical(t *testing.T) {
	st, now := frozenLogWorld(t)
	raw, err := os.ReadFile(filepath.FromSlash(frozenLogsFile))
	require.NoError(t, err)
	var frozen frozenLogs
	require.NoError(t, json.Unmarshal(raw, &frozen))
	require.Equal(t, frozen, now, "the same writes export and journal what they always did")

	db, err := Import(frozen.After)
	require.NoError(t, err)
	imported := &Txn{mem: db.Txn(false)}
	again, err := Export(imported)
	require.NoError(t, err)
	require.Equal(t, frozen.After, again, "an imported state exports as it was")

	db, err = Import(frozen.Before)
	require.NoError(t, err)
	for _, commit := range frozen.Commits {
		tx := db.Txn(true)
		replay := NewReplay(tx)
		for _, ch := range commit {
			row, err := DecodeRow(ch.Table, ch.Row)
			require.NoError(t, err)
			require.NoError(t, replay.Apply(ch.Table, row, ch.Deleted))
		}
		require.NoError(t, replay.Finish())
		tx.Commit()
	}
	require.NoError(t, RebuildDerived(db))
	replayed := &Txn{mem: db.Txn(false)}
	again, err = Export(replayed)
	require.NoError(t, err)
	require.Equal(t, frozen.After, again, "a journal replays into the state it recorded")

	for _, tx := range []*Txn{imported, replayed} {
		require.Equal(t, logPages(t, st.Read()), logPages(t, tx))
		requireCompactConsistent(t, tx)
	}
}

// logPages reads every page of the logs a reader can ask for: all entries
// both ways, two at a time, and the entries of each request, signature and
// object.
func logPages(t *testing.T, tx *Txn) []string {
	t.Helper()
	var out []string
	for _, desc := range []bool{false, true} {
		q := PageQuery{Limit: 2, Desc: desc}
		for {
			p, err := PageEmails(tx, "", q, nil)
			require.NoError(t, err)
			for _, e := range p.Rows {
				out = append(out, fmt.Sprint("email ", e.ID, e.Bounced))
			}
			if q.After = p.Next; p.Next == 0 {
				break
			}
		}
		q = PageQuery{Limit: 2, Desc: desc}
		for {
			p, err := PageEvents(tx, "", q, nil)
			require.NoError(t, err)
			for _, e := range p.Rows {
				out = append(out, "event "+e.ID)
			}
			if q.After = p.Next; p.Next == 0 {
				break
			}
		}
	}
	for _, g := range []string{"r0", "r1", "r2"} {
		es, err := PageEmails(tx, g, PageQuery{Limit: 100}, nil)
		require.NoError(t, err)
		for _, e := range es.Rows {
			out = append(out, g+" email "+e.ID)
		}
		evs, err := PageEvents(tx, g, PageQuery{Limit: 100, Desc: true}, nil)
		require.NoError(t, err)
		for _, e := range evs.Rows {
			out = append(out, g+" event "+e.ID)
		}
	}
	for _, g := range []string{"r0", "r1", "r2"} {
		for _, s := range []string{"s0", "s1"} {
			e, err := LastEmailAbout(tx, g, s, func(*model.Email) bool { return true })
			require.NoError(t, err)
			if e != nil {
				out = append(out, g+" "+s+" last "+e.ID)
			}
		}
	}
	var seqs []uint64
	require.NoError(t, WalkSeq(tx, TableEvents, 0, false, func(raw any) bool {
		seqs = append(seqs, raw.(*model.Event).Seq)
		return true
	}))
	out = append(out, fmt.Sprint("event seqs ", seqs))
	return out
}
