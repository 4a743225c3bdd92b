package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// storedBlobs answers the blobs of the default world by id, and the blob
// ids the documents of one row of table name.
func storedBlobs(t *testing.T, srv *sandboxtest.Server, table, id string) (map[string]*state.Blob, []string) {
	t.Helper()
	rows, err := sandbox.StoredRows(srv.Sandbox)
	require.NoError(t, err)
	blobs := map[string]*state.Blob{}
	for _, r := range rows[state.TableBlobs] {
		b := r.(*state.Blob)
		blobs[b.ID] = b
	}
	var held []string
	for _, r := range rows[table] {
		var docs []model.Document
		switch v := r.(type) {
		case *model.Template:
			if v.ID == id {
				docs = v.Documents
			}
		case *model.SignatureRequest:
			if v.ID == id {
				docs = v.Documents
			}
		}
		for _, d := range docs {
			held = append(held, d.BlobID, d.PDFBlobID)
		}
	}
	return blobs, held
}

// TestTemplateDeleteReleasesItsBlobs: deleting a template deletes the
// stored files of its documents, unless requests made from it still name
// them; those requests keep working (their files, prepared after the
// deletion, download).
func TestTemplateDeleteReleasesItsBlobs(t *testing.T) {
	srv := apitest.NewServer(t)
	lone := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "lone.pdf", Data: apitest.PagesPDF([2]float64{612, 792})})
	used := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "used.pdf", Data: apitest.PagesPDF([2]float64{612, 792}, [2]float64{612, 792})})
	srv.Advance(apitest.TemplatePrepDelay)
	sr := apitest.SendWithTemplate(t, srv, srv.APIKey, apitest.TemplateSendBody(used))["signature_request"].(map[string]any)
	srID := sr["signature_request_id"].(string)

	blobs, loneHeld := storedBlobs(t, srv, state.TableTemplates, lone)
	_, usedHeld := storedBlobs(t, srv, state.TableTemplates, used)
	_, reqHeld := storedBlobs(t, srv, state.TableSignatureRequests, srID)
	require.NotEmpty(t, loneHeld)
	assert.Equal(t, usedHeld, reqHeld, "the request names the template's blobs")
	for _, id := range loneHeld {
		require.Contains(t, blobs, id)
		assert.Equal(t, 1, blobs[id].Holders, "held by the template")
	}
	for _, id := range usedHeld {
		require.Contains(t, blobs, id)
		assert.Equal(t, 2, blobs[id].Holders, "held by the template and the request")
	}

	for _, id := range []string{lone, used} {
		r := srv.Do(http.MethodPost, "/v3/template/delete/"+id, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	blobs, _ = storedBlobs(t, srv, state.TableTemplates, "")
	for _, id := range loneHeld {
		assert.NotContains(t, blobs, id, "released with the template no request uses")
	}
	for _, id := range usedHeld {
		require.Contains(t, blobs, id, "kept while a request names it")
		assert.Equal(t, 1, blobs[id].Holders)
	}

	srv.Advance(5 * time.Second)
	r := srv.Do(http.MethodGet, "/v3/signature_request/files/"+srID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = srv.Do(http.MethodGet, "/v3/signature_request/files/"+srID+"?file_type=zip", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// TestIdenticalUploadsShareABlobRow: templates and a request that upload
// the same PDF name one blob row, held by each; deleting the templates
// leaves it to the request, whose files still download.
func TestIdenticalUploadsShareABlobRow(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.PagesPDF([2]float64{612, 792})
	first := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "same.pdf", Data: pdf})
	second := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate(), apitest.PDFFile{Name: "same.pdf", Data: pdf})
	r := apitest.PostFiles(t, srv, "/v3/signature_request/send", apitest.OneSignerBody(), apitest.File{Name: "same.pdf", Data: pdf})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	srID := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)

	blobs, firstHeld := storedBlobs(t, srv, state.TableTemplates, first)
	_, secondHeld := storedBlobs(t, srv, state.TableTemplates, second)
	_, reqHeld := storedBlobs(t, srv, state.TableSignatureRequests, srID)
	require.NotEmpty(t, firstHeld)
	assert.Equal(t, firstHeld, secondHeld, "one row for both uploads")
	assert.Equal(t, firstHeld, reqHeld)
	require.Contains(t, blobs, firstHeld[0])
	assert.Equal(t, 3, blobs[firstHeld[0]].Holders, "both templates and the request")

	for _, id := range []string{first, second} {
		r := srv.Do(http.MethodPost, "/v3/template/delete/"+id, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	blobs, _ = storedBlobs(t, srv, state.TableTemplates, "")
	require.Contains(t, blobs, firstHeld[0], "kept while the request names it")
	assert.Equal(t, 1, blobs[firstHeld[0]].Holders)

	srv.Advance(5 * time.Second)
	r = srv.Do(http.MethodGet, "/v3/signature_request/files/"+srID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}
