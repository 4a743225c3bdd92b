package document

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/fixtures"
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/derived"
	"github.com/signsandbox/signsandbox/sandbox/internal/fixtureload"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// kindTestOwner is a fake owner of files: its composition is whatever
// testCompositions holds for the id, and it counts how often it is asked.
const kindTestOwner = "test_owner"

var (
	testCompositions = map[string]pdf.Composition{
		"doc-ok":     {ID: "doc-ok", Title: "Fake owner", Documents: []pdf.Source{{Name: "a.pdf", PDF: pdftest.MakePDF(pdftest.Letter("fake"))}}},
		"doc-second": {ID: "doc-second", Title: "Another", Documents: []pdf.Source{{Name: "b.pdf", PDF: pdftest.MakePDF(pdftest.Letter("b"), pdftest.Letter("c"))}}},
		// A title that is not UTF-8, which a recipe (JSON) cannot keep.
		"doc-latin1": {ID: "doc-latin1", Title: "Vertr\xe4ge", Documents: []pdf.Source{{Name: "c.pdf", PDF: pdftest.MakePDF(pdftest.Letter("c"))}}},
	}
	testComposed atomic.Int64
)

// testOwner is the fake owner of files of kind kindTestOwner.
var testOwner = api.FileOwner{
	Visible: func(c *api.Call, tx *state.Txn, id string) error {
		if id == "canceled" {
			return apierr.Gone()
		}
		return nil
	},
	Compose: func(tx *state.Txn, id string) (pdf.Composition, []string, error) {
		testComposed.Add(1)
		c, ok := testCompositions[id]
		if !ok {
			return pdf.Composition{}, nil, errors.New("no such test document")
		}
		return c, nil, nil
	},
}

// testSandbox is a host that registers the documents area and the fake
// owner, with one world seeded from the fixtures: what the preparation of
// files needs of a sandbox.
type testSandbox struct{ host *api.Host }

func newInternalSandbox(t *testing.T) *testSandbox {
	t.Helper()
	set, err := fixtureload.Load(fixtures.FS)
	require.NoError(t, err)
	r := api.NewRegistry()
	Register(r)
	r.FileOwners[kindTestOwner] = testOwner
	h := api.NewHost(api.HostConfig{
		Log: slog.New(slog.DiscardHandler), Fixtures: set, Reg: r,
		Budget: state.NewBudget(2 << 30), Client: &http.Client{}, Seed: "document-prepare", MaxWorlds: 1,
	})
	w, err := h.NewWorld(api.WorldSpec{ID: "default", Seed: h.Seed(), Mode: world.ClockFake})
	require.NoError(t, err)
	h.SetDefaultWorld(w)
	t.Cleanup(func() { h.DropWorld(w) })
	return &testSandbox{host: h}
}

func (s *testSandbox) testUpdate(t *testing.T, fn func(tx *state.Txn) error) {
	t.Helper()
	require.NoError(t, s.host.DefaultWorld().Store.Update(fn))
}

func (s *testSandbox) testFileSet(t *testing.T, id string) *model.FileSet {
	t.Helper()
	fs, err := state.GetFileSet(s.host.DefaultWorld().Store.Read(), kindTestOwner, id)
	require.NoError(t, err)
	return fs
}

// testRendered renders a prepared file set's files as a download would.
func (s *testSandbox) testRendered(t *testing.T, fs *model.FileSet) pdf.Rendered {
	t.Helper()
	require.NotNil(t, fs.Recipe, "prepared as a recipe")
	out, err := derived.Merged(fs.Recipe, blobStore{s.host.DefaultWorld().Store.Read()})
	require.NoError(t, err)
	return out
}

func (s *testSandbox) testPrepared(id string) (*model.FileSet, error) {
	return preparedFiles(&api.Call{Host: s.host, World: s.host.DefaultWorld()}, s.host.DefaultWorld().Store.Read(), kindTestOwner, id)
}

func TestPreparationRunsOnceForTheLatestVersion(t *testing.T) {
	s := newInternalSandbox(t)
	before := testComposed.Load()
	s.testUpdate(t, func(tx *state.Txn) error { return ScheduleFiles(tx, kindTestOwner, "doc-ok") })
	_, err := s.host.DefaultWorld().Advance(3 * time.Second)
	require.NoError(t, err)
	s.testUpdate(t, func(tx *state.Txn) error { return ScheduleFiles(tx, kindTestOwner, "doc-ok") })

	_, err = s.testPrepared("doc-ok")
	assertAPIError(t, err, http.StatusConflict)
	jobs, err := state.JobsOf(s.host.DefaultWorld().Store.Read(), "doc-ok")
	require.NoError(t, err)
	require.Len(t, jobs, 1, "the second schedule replaces the first job")

	_, err = s.host.DefaultWorld().Advance(4 * time.Second)
	require.NoError(t, err)
	_, err = s.testPrepared("doc-ok")
	assertAPIError(t, err, http.StatusConflict)
	_, err = s.host.DefaultWorld().Advance(time.Second)
	require.NoError(t, err)
	fs, err := s.testPrepared("doc-ok")
	require.NoError(t, err)
	assert.Equal(t, 2, fs.Version)
	assert.Equal(t, 1, s.testRendered(t, fs).Pages)
	assert.Equal(t, "Fake owner", fs.Name)
	assert.Equal(t, int64(1), testComposed.Load()-before, "composed once")
}

func TestPreparationFailureIsRecorded(t *testing.T) {
	s := newInternalSandbox(t)
	s.testUpdate(t, func(tx *state.Txn) error { return ScheduleFiles(tx, kindTestOwner, "unknown-doc") })
	_, err := s.host.DefaultWorld().Advance(5 * time.Second)
	require.NoError(t, err)
	fs := s.testFileSet(t, "unknown-doc")
	assert.False(t, fs.Ready)
	assert.Contains(t, fs.Failure(), "no such test document")
	_, err = s.testPrepared("unknown-doc")
	assertAPIError(t, err, http.StatusConflict)
}

func TestPreparedFilesAccess(t *testing.T) {
	s := newInternalSandbox(t)
	_, err := s.testPrepared("never-scheduled")
	assertAPIError(t, err, http.StatusConflict)
	_, err = s.testPrepared("canceled")
	assertAPIError(t, err, http.StatusGone)
	_, err = preparedFiles(&api.Call{Host: s.host, World: s.host.DefaultWorld()}, s.host.DefaultWorld().Store.Read(), "no_such_kind", "x")
	assertAPIError(t, err, http.StatusNotFound)

	s.testUpdate(t, func(tx *state.Txn) error { return ScheduleFiles(tx, kindTestOwner, "doc-ok") })
	s.testUpdate(t, func(tx *state.Txn) error { return GoneFiles(tx, kindTestOwner, "doc-ok") })
	_, err = s.host.DefaultWorld().Advance(time.Minute)
	require.NoError(t, err)
	_, err = s.testPrepared("doc-ok")
	assertAPIError(t, err, http.StatusGone)
	s.testUpdate(t, func(tx *state.Txn) error { return ScheduleFiles(tx, kindTestOwner, "doc-ok") })
	assert.True(t, s.testFileSet(t, "doc-ok").Gone, "gone stays gone")
}

// TestPreparedBlobsAreReleased: a preparation stores no file (downloads
// render its recipe); the PDF a file URL was issued for is stored for the
// URL, and kept by re-preparations while the URL lives; once that URL has
// expired, the next preparation deletes it.
func TestPreparedBlobsAreReleased(t *testing.T) {
	s := newInternalSandbox(t)
	prepare := func() *model.FileSet {
		s.testUpdate(t, func(tx *state.Txn) error { return ScheduleFiles(tx, kindTestOwner, "doc-second") })
		_, err := s.host.DefaultWorld().Advance(5 * time.Second)
		require.NoError(t, err)
		return s.testFileSet(t, "doc-second")
	}
	blobExists := func(id string) bool {
		_, err := state.GetBlob(s.host.DefaultWorld().Store.Read(), id)
		return err == nil
	}
	blobs := func() int64 { return state.WorldUsage(s.host.DefaultWorld().Store.Read()).Blobs }
	read := func() *state.Txn { return s.host.DefaultWorld().Store.Read() }
	before := blobs()
	first := prepare()
	second := prepare()
	require.NotEmpty(t, read().PDFBlob(first), "an id is reserved for the PDF")
	assert.NotEqual(t, read().PDFBlob(first), read().PDFBlob(second), "each preparation reserves its own")
	assert.False(t, blobExists(read().PDFBlob(first)))
	assert.False(t, blobExists(first.ZIPBlobID()))
	assert.Empty(t, first.ZIPBlobID(), "a recipe's ZIP is never stored, so it keeps no id")
	assert.Equal(t, before, blobs(), "preparations store no files")

	var served string
	s.testUpdate(t, func(tx *state.Txn) error {
		fs, err := state.GetFileSet(tx, kindTestOwner, "doc-second")
		if err != nil {
			return err
		}
		if served, err = fileURLBlob(tx, fs); err != nil {
			return err
		}
		return state.Put(tx, state.TableFileURLs, &model.FileURL{ID: "tok", Kind: kindTestOwner, ObjectID: "doc-second",
			BlobID: served, ExpiresAt: tx.Now().Add(time.Hour).Unix()})
	})
	data, err := state.GetBlob(s.host.DefaultWorld().Store.Read(), served)
	require.NoError(t, err)
	assert.Equal(t, s.testRendered(t, second).PDF, data, "the URL serves the version it was issued for")
	assert.Equal(t, read().PDFBlob(second), served, "stored under the id its preparation reserved")
	third := prepare()
	assert.True(t, blobExists(served), "served by a live file URL")
	assert.False(t, blobExists(second.ZIPBlobID()))
	assert.Equal(t, before+1, blobs(), "only the PDF the URL serves is stored")
	_, err = s.host.DefaultWorld().Advance(time.Hour)
	require.NoError(t, err)
	prepare()
	assert.False(t, blobExists(served), "released once the URL expired")
	assert.False(t, blobExists(read().PDFBlob(third)))
	u, err := state.Get[model.FileURL](s.host.DefaultWorld().Store.Read(), state.TableFileURLs, "tok")
	require.NoError(t, err, "the expired URL stays, to answer 410")
	assert.Equal(t, served, u.BlobID)
}

// TestCompositionARecipeCannotKeepIsRenderedAtOnce: such a preparation
// stores its files as before, and downloads serve them.
func TestCompositionARecipeCannotKeepIsRenderedAtOnce(t *testing.T) {
	s := newInternalSandbox(t)
	s.testUpdate(t, func(tx *state.Txn) error { return ScheduleFiles(tx, kindTestOwner, "doc-latin1") })
	_, err := s.host.DefaultWorld().Advance(5 * time.Second)
	require.NoError(t, err)
	fs, err := s.testPrepared("doc-latin1")
	require.NoError(t, err)
	assert.Nil(t, fs.Recipe)
	assert.Equal(t, 1, fs.Pages())
	tx := s.host.DefaultWorld().Store.Read()
	for _, f := range []struct {
		blob string
		get  func(*state.Txn, *model.FileSet) ([]byte, error)
	}{{fs.PDFBlobID(), preparedPDF}, {fs.ZIPBlobID(), preparedZIP}} {
		stored, err := state.GetBlob(tx, f.blob)
		require.NoError(t, err)
		got, err := f.get(tx, fs)
		require.NoError(t, err)
		assert.Equal(t, stored, got)
	}
}

func TestFileSetRowsRoundTripJSON(t *testing.T) {
	fs := model.FileSet{ID: "k:1", Version: 3, Ready: true, PDFSeq: 7, Name: "n", PreparedAt: 99,
		Rare: &model.FileSetRare{PDFBlobID: "p", ZIPBlobID: "z", Pages: 4, Failure: "e"}}
	var back model.FileSet
	raw, err := json.Marshal(fs)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &back))
	assert.Equal(t, fs, back)
	u := model.FileURL{ID: "t", Kind: "k", ObjectID: "1", BlobID: "b", Name: "n.pdf", Inline: true, ExpiresAt: 5}
	var ub model.FileURL
	raw, err = json.Marshal(u)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &ub))
	assert.Equal(t, u, ub)
}

func TestContentDisposition(t *testing.T) {
	assert.Equal(t, `attachment; filename="NDA.pdf"`, ContentDisposition("attachment", "NDA.pdf"))
	assert.Equal(t, `inline; filename="Vertrag _berarbeitet.pdf"; filename*=UTF-8''Vertrag%20%C3%BCberarbeitet.pdf`,
		ContentDisposition("inline", "Vertrag überarbeitet.pdf"))
}

func assertAPIError(t *testing.T, err error, status int) {
	t.Helper()
	e, ok := apierr.As(err)
	require.True(t, ok, "want an API error, got %v", err)
	assert.Equal(t, status, e.Status(), e.Msg)
}
