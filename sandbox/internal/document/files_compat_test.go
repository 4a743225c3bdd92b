package document_test

// A request's file set is kept in its request row, where it was a
// file_sets row of its own before. Exports and journals still write it as
// that row, and a state or a data directory written by the earlier version
// (request rows without "files", a file_sets row per request) loads into
// the same world: same downloads, same file URLs, same export. A request
// row that carries its file set ("files", the row's own JSON) imports too.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// rfBase is the public address of the servers of these tests, the same
// for all so that an imported world's URLs are those of the server.
const rfBase = "https://files.example"

// rfWorld is a world with a request in each state of its files: prepared
// with a file URL handed out, signed and prepared again, canceled (gone),
// and still being prepared.
type rfWorld struct {
	prepared, signed, canceled, pending string
	fileURL                             string // of prepared, issued before the export
}

func rfBuild(t *testing.T, srv *sandboxtest.Server) rfWorld {
	t.Helper()
	var w rfWorld
	send := func() map[string]any {
		return flRequest(t, srv, true, apitest.File{Name: "a.pdf", Data: apitest.PDF(2)})
	}
	p, s, c := send(), send(), send()
	w.prepared, w.signed, w.canceled = p["signature_request_id"].(string), s["signature_request_id"].(string), c["signature_request_id"].(string)
	srv.Advance(5 * time.Second)
	r := srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+w.prepared, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	w.fileURL = r.Map()["file_url"].(string)
	srv.Sign(apitest.SignatureID(s, 0), nil)
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/signature_request/cancel/"+w.canceled, nil).Status)
	srv.Advance(time.Minute)
	w.pending = send()["signature_request_id"].(string)
	return w
}

// rfAnswers is what a client gets of the world's files: every download
// form of every request, and the file URL.
func rfAnswers(t *testing.T, srv *sandboxtest.Server, w rfWorld) map[string]string {
	t.Helper()
	out := map[string]string{}
	// In a fixed order: a file URL's token is the world's next secret.
	for _, req := range [][2]string{{"prepared", w.prepared}, {"signed", w.signed}, {"canceled", w.canceled}, {"pending", w.pending}} {
		name, id := req[0], req[1]
		for _, form := range [][2]string{
			{"pdf", "/v3/signature_request/files/" + id},
			{"zip", "/v3/signature_request/files/" + id + "?file_type=zip"},
			{"data uri", "/v3/signature_request/files_as_data_uri/" + id},
		} {
			r := srv.Do(http.MethodGet, form[1], nil)
			out[name+" "+form[0]] = http.StatusText(r.Status) + " " + string(r.Body)
		}
		// A file URL's token is new each time: its status tells.
		r := srv.Do(http.MethodGet, "/v3/signature_request/files_as_file_url/"+id, nil)
		out[name+" files_as_file_url"] = http.StatusText(r.Status)
	}
	require.True(t, strings.HasPrefix(w.fileURL, rfBase), w.fileURL)
	r := srv.Do(http.MethodGet, strings.TrimPrefix(w.fileURL, rfBase), nil)
	out["file url"] = http.StatusText(r.Status) + " " + string(r.Body)
	return out
}

func rfServer(t *testing.T, opts ...sandbox.Option) *sandboxtest.Server {
	return apitest.NewServer(t, append([]sandbox.Option{sandbox.WithBaseURL(rfBase)}, opts...)...)
}

// rfRows decodes the rows of one table of an export.
func rfRows(t *testing.T, export []byte, table string) []map[string]any {
	t.Helper()
	var doc struct {
		Tables map[string]json.RawMessage `json:"tables"`
	}
	require.NoError(t, json.Unmarshal(export, &doc))
	var rows []map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc.Tables[table]))
	dec.UseNumber() // exact
	require.NoError(t, dec.Decode(&rows))
	return rows
}

// rfWithRows is the export with the rows of some tables replaced.
func rfWithRows(t *testing.T, export []byte, rows map[string][]map[string]any) []byte {
	t.Helper()
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(export, &doc))
	var tables map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc["tables"], &tables))
	for name, r := range rows {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		tables[name] = b
	}
	b, err := json.Marshal(tables)
	require.NoError(t, err)
	doc["tables"] = b
	out, err := json.Marshal(doc)
	require.NoError(t, err)
	return out
}

// TestRequestFileSetsExportAsTheirOwnRows: an export names every request's
// file set as a file_sets row and no request row carries one, the shape
// the earlier version wrote, and importing it gives back the same world:
// downloads, file URL, and the export byte for byte.
func TestRequestFileSetsExportAsTheirOwnRows(t *testing.T) {
	srv := rfServer(t)
	w := rfBuild(t, srv)
	before := rfAnswers(t, srv, w)
	assert.True(t, strings.HasPrefix(before["prepared pdf"], "OK %PDF"), "prepared files download")
	assert.Equal(t, "Gone", before["canceled files_as_file_url"])
	assert.Equal(t, "Conflict", before["pending files_as_file_url"])
	assert.True(t, strings.HasPrefix(before["file url"], "OK %PDF"), "the file URL serves its PDF")
	export := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, export.Status)

	sets := map[string]bool{}
	for _, fs := range rfRows(t, export.Body, "file_sets") {
		sets[fs["id"].(string)] = true
	}
	for _, id := range []string{w.prepared, w.signed, w.canceled, w.pending} {
		assert.True(t, sets["signature_request:"+id], "the file set of %s is a file_sets row", id)
	}
	for _, req := range rfRows(t, export.Body, "signature_requests") {
		assert.NotContains(t, req, "files", "a request row is exported without its file set")
	}

	fresh := rfServer(t)
	r := fresh.Do(http.MethodPut, "/_sandbox/state", export.Body)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	again := fresh.Do(http.MethodGet, "/_sandbox/state", nil)
	assert.Equal(t, string(export.Body), string(again.Body), "the export round-trips byte for byte")
	assert.Equal(t, before, rfAnswers(t, fresh, w))

	// The world goes on: a signature prepares the files again.
	fresh.Sign(apitest.SignatureID(fresh.Do(http.MethodGet, "/v3/signature_request/"+w.prepared, nil).Map()["signature_request"].(map[string]any), 0), nil)
	fresh.Advance(5 * time.Second)
	after := fresh.Do(http.MethodGet, "/v3/signature_request/files/"+w.prepared, nil)
	require.Equal(t, http.StatusOK, after.Status, "%s", after.Body)
	assert.NotEqual(t, before["prepared pdf"], "OK "+string(after.Body), "the new version shows the signature")
}

// TestRequestFileSetsImportInTheirRequestRows: a state whose request rows
// carry their file sets ("files", as a request row encodes itself) imports
// as the same world and exports in the usual shape; a request with a file
// set in both places is refused.
func TestRequestFileSetsImportInTheirRequestRows(t *testing.T) {
	srv := rfServer(t)
	w := rfBuild(t, srv)
	before := rfAnswers(t, srv, w)
	export := srv.Do(http.MethodGet, "/_sandbox/state", nil).Body

	sets, reqs := rfRows(t, export, "file_sets"), rfRows(t, export, "signature_requests")
	inRows := func(keepRows bool) []byte {
		byID := map[string]map[string]any{}
		var kept []map[string]any
		for _, fs := range sets {
			if fs["kind"] == "signature_request" {
				byID[fs["object_id"].(string)] = fs
				if !keepRows {
					continue
				}
			}
			kept = append(kept, fs)
		}
		withFiles := make([]map[string]any, 0, len(reqs))
		for _, req := range reqs {
			c := map[string]any{}
			for k, v := range req {
				c[k] = v
			}
			if fs := byID[req["signature_request_id"].(string)]; fs != nil {
				c["files"] = fs
			}
			withFiles = append(withFiles, c)
		}
		if kept == nil {
			kept = []map[string]any{}
		}
		return rfWithRows(t, export, map[string][]map[string]any{"file_sets": kept, "signature_requests": withFiles})
	}

	fresh := rfServer(t)
	r := fresh.Do(http.MethodPut, "/_sandbox/state", inRows(false))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, string(export), string(fresh.Do(http.MethodGet, "/_sandbox/state", nil).Body),
		"exported with the file sets as their own rows again")

	apitest.WantBadRequest(t, fresh.Do(http.MethodPut, "/_sandbox/state", inRows(true)), "tables")
	assert.Equal(t, string(export), string(fresh.Do(http.MethodGet, "/_sandbox/state", nil).Body), "the refused import changed nothing")
	assert.Equal(t, before, rfAnswers(t, fresh, w))
}

// TestRequestFileSetsSurviveARestart: a data directory keeps request file
// sets as the earlier version did (file_sets rows in the snapshot and
// journal, request rows without them), and a restart on it answers every
// download, the file URL and the export as before.
func TestRequestFileSetsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	opts := []sandbox.Option{sandbox.WithDataDir(dir, "always")}
	var w rfWorld
	var before map[string]string
	var export string
	t.Run("before", func(t *testing.T) {
		srv := rfServer(t, opts...)
		w = rfBuild(t, srv)
		before = rfAnswers(t, srv, w)
		export = string(srv.Do(http.MethodGet, "/_sandbox/state", nil).Body)
	})
	journals, err := filepath.Glob(filepath.Join(dir, "worlds", "*", "journal-*.log"))
	require.NoError(t, err)
	var all []byte
	for _, j := range journals {
		b, err := os.ReadFile(j)
		require.NoError(t, err)
		all = append(all, b...)
	}
	assert.Contains(t, string(all), `"t":"file_sets","r":{"id":"signature_request:`+w.signed, "the journal writes a request's file set as a file_sets row")
	assert.NotContains(t, string(all), `"files":{`, "and request rows without it")

	t.Run("after", func(t *testing.T) {
		srv := rfServer(t, opts...)
		assert.Equal(t, export, string(srv.Do(http.MethodGet, "/_sandbox/state", nil).Body))
		assert.Equal(t, before, rfAnswers(t, srv, w))
	})
}
