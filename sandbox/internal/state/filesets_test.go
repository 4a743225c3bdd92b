package state

import (
	"encoding/json"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFileSetRecipesRoundTripInBothForms: a binary recipe exports as
// base64 and comes back byte for byte; a JSON recipe of an earlier version
// imports, keeps its bytes, and exports as the JSON object it was.
func TestFileSetRecipesRoundTripInBothForms(t *testing.T) {
	st := seededStore(t)
	binary := model.Recipe{0x01, '{', 0x00, 0xff, '"'}
	legacy := `{"composition":{"ID":"sr","Title":"T"},"refs":["b"]}`
	require.NoError(t, st.Update(func(tx *Txn) error {
		if err := Put(tx, TableFileSets, &model.FileSet{ID: model.FileSetID("signature_request", "a"), Recipe: binary}); err != nil {
			return err
		}
		return Put(tx, TableFileSets, &model.FileSet{ID: model.FileSetID("signature_request", "b"), Recipe: model.Recipe(legacy)})
	}))
	first := exportJSON(t, st)
	assert.Contains(t, string(first), `"recipe":`+legacy, "a JSON recipe exports as it was")
	st2 := reimported(t, st)
	assert.Equal(t, string(first), string(exportJSON(t, st2)))
	a, err := GetFileSet(st2.Read(), "signature_request", "a")
	require.NoError(t, err)
	assert.Equal(t, binary, a.Recipe)
	b, err := GetFileSet(st2.Read(), "signature_request", "b")
	require.NoError(t, err)
	assert.Equal(t, legacy, string(b.Recipe))

	var r model.Recipe
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
	fs := &model.FileSet{}
	require.NoError(t, bySeq.Update(func(tx *Txn) error {
		fs.PDFSeq = tx.Seq()
		assert.Equal(t, want, tx.PDFBlob(fs), "in the write")
		return nil
	}))
	assert.Equal(t, want, bySeq.Read().PDFBlob(fs), "in a read")
	assert.Equal(t, "p", bySeq.Read().PDFBlob((&model.FileSet{Rare: &model.FileSetRare{PDFBlobID: "p"}, PDFSeq: 7})))
	assert.Empty(t, bySeq.Read().PDFBlob(&model.FileSet{}))

	n := NewFileSet("signature_request", "abc")
	assert.Equal(t, &model.FileSet{ID: "signature_request:abc"}, n)
	assert.Equal(t, "signature_request", n.Kind())
	assert.Equal(t, "abc", n.ObjectID())
}

// TestFileSetJSONIsTheExportedForm: a file set exports the fields it
// always did (kind and object id read from its key, the rare fields at
// the top level), an export of the earlier form imports as the same row,
// and a key that is not the kind and object id is refused.
func TestFileSetJSONIsTheExportedForm(t *testing.T) {
	earlier := `{"id":"signature_request:abc","kind":"signature_request","object_id":"abc","version":2,"ready":true,"gone":false,` +
		`"pdf_blob_id":"p","zip_blob_id":"z","pages":3,"name":"NDA","prepared_at":99,"error":"why"}`
	var fs model.FileSet
	require.NoError(t, json.Unmarshal([]byte(earlier), &fs))
	assert.Equal(t, model.FileSet{ID: "signature_request:abc", Version: 2, Ready: true, Name: "NDA", PreparedAt: 99,
		Rare: &model.FileSetRare{PDFBlobID: "p", ZIPBlobID: "z", Pages: 3, Failure: "why"}}, fs)
	again, err := json.Marshal(fs)
	require.NoError(t, err)
	assert.JSONEq(t, earlier, string(again))
	assert.Equal(t, earlier, string(again), "field order kept")

	plain := model.FileSet{ID: "template:t1", Version: 1}
	raw, err := json.Marshal(plain)
	require.NoError(t, err)
	assert.Equal(t, `{"id":"template:t1","kind":"template","object_id":"t1","version":1,"ready":false,"gone":false}`, string(raw))

	var bad model.FileSet
	assert.Error(t, json.Unmarshal([]byte(`{"id":"template:x","kind":"template","object_id":"y"}`), &bad))

	fs.SetFiles("", "", 0)
	fs.SetFailure("")
	assert.Nil(t, fs.Rare, "nothing rare left")
}
