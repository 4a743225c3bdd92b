package state

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawFileSetRows counts the rows memdb holds in the file_sets table.
func rawFileSetRows(t *testing.T, tx *memdb.Txn) int {
	t.Helper()
	it, err := tx.Get(TableFileSets, IndexID)
	require.NoError(t, err)
	n := 0
	for raw := it.Next(); raw != nil; raw = it.Next() {
		n++
	}
	return n
}

// checkFileSetCounts: the usage row counts, as a write keeps them, are
// what a recount finds, and name the file sets as rows of file_sets.
func checkFileSetCounts(t *testing.T, st *Store, want int64) {
	t.Helper()
	tx := st.Read()
	recount, err := RecountUsage(tx)
	require.NoError(t, err)
	assert.Equal(t, recount.Rows, WorldUsage(tx).Rows)
	assert.Equal(t, want, WorldUsage(tx).Rows[TableFileSets])
}

// TestRequestFileSetLivesInItsRequestRow: a request's file set is kept in
// its request row (no file_sets row), read and written through
// GetFileSet and PutFileSet, kept by every Put of the request row, counted
// as a file_sets row, exported as one (the request row without it) and
// folded back into the row by import; a template's file set stays a row.
func TestRequestFileSetLivesInItsRequestRow(t *testing.T) {
	for _, observed := range []bool{false, true} {
		t.Run(map[bool]string{false: "counted", true: "observed"}[observed], func(t *testing.T) {
			st := seededStore(t)
			var changes []memdb.Change
			if observed {
				st.SetCommitObserver(func(c Commit) { changes = append(changes, c.Changes...) })
			}
			require.NoError(t, st.Update(func(tx *Txn) error {
				if err := Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "sr1", Seq: 1, Title: "One"}); err != nil {
					return err
				}
				fs := NewFileSet(model.FileSetKindRequest, "sr1")
				fs.Version = 1
				if err := PutFileSet(tx, fs); err != nil {
					return err
				}
				got, err := GetFileSet(tx, model.FileSetKindRequest, "sr1")
				require.NoError(t, err)
				assert.Equal(t, 1, got.Version, "read in the write")
				return PutFileSet(tx, &model.FileSet{ID: model.FileSetID("template", "t1"), Version: 4})
			}))
			checkFileSetCounts(t, st, 2)
			assert.Equal(t, 1, rawFileSetRows(t, st.Read().mem), "only the template's file set is a row")
			if observed {
				var sets []string
				for _, ch := range changes {
					if ch.Table == TableFileSets {
						sets = append(sets, ch.After.(*model.FileSet).ID)
					}
				}
				assert.Equal(t, []string{"signature_request:sr1", "template:t1"}, sets, "the observer sees both as file_sets rows")
			}

			// A request row put from a copy made before the file set
			// changed, or built anew, keeps the stored file set.
			stale, err := Get[model.SignatureRequest](st.Read(), TableSignatureRequests, "sr1")
			require.NoError(t, err)
			stale = stale.Copy()
			require.NoError(t, st.Update(func(tx *Txn) error {
				fs := Clone(stale.Files)
				fs.Version, fs.Ready = 2, true
				if err := PutFileSet(tx, fs); err != nil {
					return err
				}
				stale.Title = "Retitled"
				if err := Put(tx, TableSignatureRequests, stale); err != nil {
					return err
				}
				return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "sr2", Seq: 2})
			}))
			assert.Equal(t, 1, stale.Files.Version, "the caller's row is not changed")
			got, err := GetFileSet(st.Read(), model.FileSetKindRequest, "sr1")
			require.NoError(t, err)
			assert.Equal(t, 2, got.Version)
			req, err := Get[model.SignatureRequest](st.Read(), TableSignatureRequests, "sr1")
			require.NoError(t, err)
			assert.Equal(t, "Retitled", req.Title)
			_, err = GetFileSet(st.Read(), model.FileSetKindRequest, "sr2")
			assert.ErrorIs(t, err, ErrNotFound)
			checkFileSetCounts(t, st, 2)

			// Exported as a file_sets row, the request row without it.
			first := exportJSON(t, st)
			var tables Tables
			require.NoError(t, json.Unmarshal(first, &tables))
			require.Len(t, tables[TableFileSets], 2)
			assert.Contains(t, string(tables[TableFileSets][0]), `"id":"signature_request:sr1"`)
			assert.Contains(t, string(tables[TableFileSets][1]), `"id":"template:t1"`)
			for _, r := range tables[TableSignatureRequests] {
				assert.NotContains(t, string(r), `"files"`)
			}
			db, err := Import(tables)
			require.NoError(t, err)
			st2 := NewStore(db, func() time.Time { return exportTestNow })
			assert.Equal(t, string(first), string(exportJSON(t, st2)))
			assert.Equal(t, 1, rawFileSetRows(t, st2.Read().mem), "import folds the request's row into the request")
			got, err = GetFileSet(st2.Read(), model.FileSetKindRequest, "sr1")
			require.NoError(t, err)
			assert.Equal(t, 2, got.Version)
			checkFileSetCounts(t, st2, 2)
		})
	}
}

// TestRequestFileSetImportShapes: a request row may carry its file set
// ("files") on import; a file set in both places, or one naming another
// object, is refused.
func TestRequestFileSetImportShapes(t *testing.T) {
	st := seededStore(t)
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "sr1", Seq: 1}); err != nil {
			return err
		}
		return PutFileSet(tx, &model.FileSet{ID: model.FileSetID(model.FileSetKindRequest, "sr1"), Version: 3, Name: "N"})
	}))
	first := exportJSON(t, st)
	var tables Tables
	require.NoError(t, json.Unmarshal(first, &tables))
	fsRow := tables[TableFileSets][0]
	reqRow := tables[TableSignatureRequests][0]
	inRow := json.RawMessage(strings.TrimSuffix(string(reqRow), "}") + `,"files":` + string(fsRow) + "}")

	shaped := func(fileSets, requests []json.RawMessage) Tables {
		out := Tables{}
		for k, v := range tables {
			out[k] = v
		}
		out[TableFileSets], out[TableSignatureRequests] = fileSets, requests
		return out
	}
	db, err := Import(shaped([]json.RawMessage{}, []json.RawMessage{inRow}))
	require.NoError(t, err)
	st2 := NewStore(db, func() time.Time { return exportTestNow })
	assert.Equal(t, string(first), string(exportJSON(t, st2)), "exported in the usual shape")
	checkFileSetCounts(t, st2, 1)

	_, err = Import(shaped([]json.RawMessage{fsRow}, []json.RawMessage{inRow}))
	assert.ErrorContains(t, err, "file set in its row and in table")
	other := json.RawMessage(strings.ReplaceAll(string(inRow), `"signature_request_id":"sr1"`, `"signature_request_id":"sr9"`))
	_, err = Import(shaped([]json.RawMessage{}, []json.RawMessage{other}))
	assert.ErrorContains(t, err, "is not the request's")
}

// TestReplayKeepsRequestFileSetsInTheirRows: journaled changes, in the
// order the earlier version wrote them (a new request's file_sets row
// before its request row) or this one does, leave every request's file
// set in its request row, and a request row replayed without a file set
// keeps the one stored.
func TestReplayKeepsRequestFileSetsInTheirRows(t *testing.T) {
	db, err := NewDB()
	require.NoError(t, err)
	commit := func(changes ...func(r *Replay) error) {
		t.Helper()
		tx := db.Txn(true)
		defer tx.Abort()
		r := NewReplay(tx)
		for _, ch := range changes {
			require.NoError(t, ch(r))
		}
		require.NoError(t, r.Finish())
		tx.Commit()
	}
	row := func(table, raw string, deleted bool) func(r *Replay) error {
		return func(r *Replay) error {
			v, err := DecodeRow(table, []byte(raw))
			if err != nil {
				return err
			}
			return r.Apply(table, v, deleted)
		}
	}
	fileSet := func(id string, version int) string {
		return `{"id":"signature_request:` + id + `","kind":"signature_request","object_id":"` + id + `","version":` +
			string(rune('0'+version)) + `,"ready":false,"gone":false}`
	}
	request := func(id, title string) string {
		return `{"signature_request_id":"` + id + `","seq":1,"generation":0,"requester_account_id":"a","requester_email_address":"a@x",` +
			`"embedded":false,"test_mode":true,"base_url":"","world_url":"","title":"` + title + `","original_title":"","created_at":0,` +
			`"allow_decline":false,"allow_reassign":false,"append_signature_page":false,"ordered":false,"documents":null,"signatures":null,"phase":"sent"}`
	}
	version := func(id string) int {
		t.Helper()
		raw, err := (&Txn{mem: db.Txn(false)}).First(TableSignatureRequests, IndexID, id)
		require.NoError(t, err)
		require.NotNil(t, raw)
		if f := raw.(*model.SignatureRequest).Files; f != nil {
			return f.Version
		}
		return 0
	}

	commit(row(TableFileSets, fileSet("sr1", 1), false), row(TableSignatureRequests, request("sr1", "a"), false))
	assert.Equal(t, 1, version("sr1"), "a file_sets row before its request's creation")
	commit(row(TableSignatureRequests, request("sr1", "b"), false))
	assert.Equal(t, 1, version("sr1"), "a request row without a file set keeps the stored one")
	commit(row(TableSignatureRequests, request("sr1", "c"), false), row(TableFileSets, fileSet("sr1", 2), false))
	assert.Equal(t, 2, version("sr1"), "after the request row")
	commit(row(TableFileSets, fileSet("sr1", 3), false), row(TableSignatureRequests, request("sr1", "d"), false))
	assert.Equal(t, 3, version("sr1"), "before the request row")
	commit(row(TableFileSets, fileSet("sr1", 3), true))
	assert.Equal(t, 0, version("sr1"), "deleted")
	inRow := strings.TrimSuffix(request("sr1", "e"), "}") + `,"files":` + fileSet("sr1", 5) + "}"
	commit(row(TableSignatureRequests, inRow, false))
	assert.Equal(t, 5, version("sr1"), "a request row with its file set")
	commit(row(TableFileSets, fileSet("orphan", 1), false))
	tx := db.Txn(false)
	assert.Equal(t, 1, rawFileSetRows(t, tx), "only the file set of a request that does not exist is a row")
	raw, err := (&Txn{mem: tx}).First(TableSignatureRequests, IndexID, "sr1")
	require.NoError(t, err)
	assert.Equal(t, "e", raw.(*model.SignatureRequest).Title)
}

// TestFileSetPutBeforeItsRequestStaysFound: a request's file set put while
// the request row did not exist yet is a file_sets row; the request row
// put after it does not hide it (before or after an export and import,
// which folds it into the row), and the next PutFileSet moves it into the
// row, leaving the world with one file set for the request, exported once.
func TestFileSetPutBeforeItsRequestStaysFound(t *testing.T) {
	for _, observed := range []bool{false, true} {
		t.Run(map[bool]string{false: "counted", true: "observed"}[observed], func(t *testing.T) {
			st := seededStore(t)
			var changes []memdb.Change
			if observed {
				st.SetCommitObserver(func(c Commit) { changes = c.Changes })
			}
			require.NoError(t, st.Update(func(tx *Txn) error {
				fs := NewFileSet(model.FileSetKindRequest, "sr9")
				fs.Version = 3
				if err := PutFileSet(tx, fs); err != nil {
					return err
				}
				return Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "sr9", Seq: 9, Title: "Late"})
			}))
			got, err := GetFileSet(st.Read(), model.FileSetKindRequest, "sr9")
			require.NoError(t, err, "the request row does not hide its file_sets row")
			assert.Equal(t, 3, got.Version)
			checkFileSetCounts(t, st, 1)

			var tables Tables
			require.NoError(t, json.Unmarshal(exportJSON(t, st), &tables))
			got, err = GetFileSet(reimported(t, st).Read(), model.FileSetKindRequest, "sr9")
			require.NoError(t, err, "nor after an import")
			assert.Equal(t, 3, got.Version)

			require.NoError(t, st.Update(func(tx *Txn) error {
				c := *got
				fs := &c
				fs.Version = 4
				return PutFileSet(tx, fs)
			}))
			if observed {
				// The move, replayed as a journal replays it onto the
				// world before it, gives the same world.
				db, err := Import(tables)
				require.NoError(t, err)
				tx := db.Txn(true)
				r := NewReplay(tx)
				for _, ch := range changes {
					row, deleted := ch.After, ch.Deleted()
					if deleted {
						row = ch.Before
					}
					raw, err := json.Marshal(RowAsExported(row))
					require.NoError(t, err)
					v, err := DecodeRow(ch.Table, raw)
					require.NoError(t, err)
					require.NoError(t, r.Apply(ch.Table, v, deleted))
				}
				require.NoError(t, r.Finish())
				tx.Commit()
				require.NoError(t, RebuildDerived(db))
				assert.Equal(t, string(exportJSON(t, st)), string(exportJSON(t, NewStore(db, func() time.Time { return exportTestNow }))))
			}
			assert.Equal(t, 0, rawFileSetRows(t, st.Read().mem), "the file set moved into the request row")
			got, err = GetFileSet(st.Read(), model.FileSetKindRequest, "sr9")
			require.NoError(t, err)
			assert.Equal(t, 4, got.Version)
			checkFileSetCounts(t, st, 1)
			require.NoError(t, json.Unmarshal(exportJSON(t, st), &tables))
			require.Len(t, tables[TableFileSets], 1, "exported once")
			assert.Contains(t, string(tables[TableFileSets][0]), `"version":4`)
		})
	}
}

// TestFileSetOnlyWriteJournalsItsFileSet: an observed write that changes
// only a request's file set hands the observer the file_sets change alone,
// as before file sets moved into request rows (a journal would otherwise
// write the whole request row again for every preparation); a write that
// also changes the request hands over both.
func TestFileSetOnlyWriteJournalsItsFileSet(t *testing.T) {
	st := seededStore(t)
	var tables []string
	st.SetCommitObserver(func(c Commit) {
		tables = tables[:0]
		for _, ch := range c.Changes {
			tables = append(tables, ch.Table)
		}
	})
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := Put(tx, TableSignatureRequests, &model.SignatureRequest{ID: "sr1", Seq: 1, Title: "One"}); err != nil {
			return err
		}
		return PutFileSet(tx, NewFileSet(model.FileSetKindRequest, "sr1"))
	}))
	assert.Contains(t, tables, TableSignatureRequests, "a new request is journaled")
	assert.Contains(t, tables, TableFileSets)

	putVersion := func(v int) func(tx *Txn) error {
		return func(tx *Txn) error {
			cur, err := GetFileSet(tx, model.FileSetKindRequest, "sr1")
			if err != nil {
				return err
			}
			c := *cur
			c.Version = v
			return PutFileSet(tx, &c)
		}
	}
	require.NoError(t, st.Update(putVersion(2)))
	assert.Equal(t, []string{TableFileSets}, tables, "only the file set changed")
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := putVersion(3)(tx); err != nil {
			return err
		}
		return putVersion(4)(tx)
	}))
	assert.Equal(t, []string{TableFileSets}, tables, "twice in one write")

	require.NoError(t, st.Update(func(tx *Txn) error {
		req, err := Get[model.SignatureRequest](tx, TableSignatureRequests, "sr1")
		if err != nil {
			return err
		}
		c := req.Copy()
		c.Title = "Renamed"
		if err := Put(tx, TableSignatureRequests, c); err != nil {
			return err
		}
		return putVersion(5)(tx)
	}))
	assert.ElementsMatch(t, []string{TableSignatureRequests, TableFileSets}, tables, "the request changed too")
}
