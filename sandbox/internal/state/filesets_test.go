package state

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFileSetRecipesRoundTripInBothForms: a binary recipe exports as
// base64 and comes back byte for byte; a JSON recipe of an earlier version
// imports, keeps its bytes, and exports as the JSON object it was.
func TestFileSetRecipesRoundTripInBothForms(t *testing.T) {
	st := seededStore(t)
	binary := Recipe{0x01, '{', 0x00, 0xff, '"'}
	legacy := `{"composition":{"ID":"sr","Title":"T"},"refs":["b"]}`
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := Put(tx, TableFileSets, &FileSet{ID: FileSetID("signature_request", "a"), Kind: "signature_request", ObjectID: "a", Recipe: binary}); err != nil {
			return err
		}
		return Put(tx, TableFileSets, &FileSet{ID: FileSetID("signature_request", "b"), Kind: "signature_request", ObjectID: "b", Recipe: Recipe(legacy)})
	}))
	first := exportJSON(t, st)
	assert.Contains(t, string(first), `"recipe":`+legacy, "a JSON recipe exports as it was")
	var tables Tables
	require.NoError(t, json.Unmarshal(first, &tables))
	db, err := Import(tables)
	require.NoError(t, err)
	st2 := NewStore(db, func() time.Time { return exportTestNow })
	assert.Equal(t, string(first), string(exportJSON(t, st2)))
	a, err := GetFileSet(st2.Read(), "signature_request", "a")
	require.NoError(t, err)
	assert.Equal(t, binary, a.Recipe)
	b, err := GetFileSet(st2.Read(), "signature_request", "b")
	require.NoError(t, err)
	assert.Equal(t, legacy, string(b.Recipe))

	var r Recipe
	assert.Error(t, json.Unmarshal([]byte(`12`), &r), "a recipe is an object or a base64 string")
	require.NoError(t, json.Unmarshal([]byte(`null`), &r))
	assert.Nil(t, r)
}

// TestFileSetPDFBlobIsTheReservedID: the sequence number a file set keeps
// gives the id NewID answered for it, in the write that took it and in
// later reads; a file set with an id keeps it, one with neither has none.
func TestFileSetPDFBlobIsTheReservedID(t *testing.T) {
	byID, bySeq := seededStore(t), seededStore(t)
	var want string
	require.NoError(t, byID.Update(func(tx *Txn) error { want = tx.NewID(); return nil }))
	fs := &FileSet{}
	require.NoError(t, bySeq.Update(func(tx *Txn) error {
		fs.PDFSeq = tx.Seq()
		assert.Equal(t, want, fs.PDFBlob(tx), "in the write")
		return nil
	}))
	assert.Equal(t, want, fs.PDFBlob(bySeq.Read()), "in a read")
	assert.Equal(t, "p", (&FileSet{PDFBlobID: "p", PDFSeq: 7}).PDFBlob(bySeq.Read()))
	assert.Empty(t, (&FileSet{}).PDFBlob(bySeq.Read()))

	n := NewFileSet("signature_request", "abc")
	assert.Equal(t, &FileSet{ID: "signature_request:abc", Kind: "signature_request", ObjectID: "abc"}, n)
}
