package document

// The file URLs handed out by files_as_file_url are served here, without
// credentials (the token is the secret, like the real service's pre-signed
// storage URLs). An unknown token answers 404; from expires_at on (world
// clock) the URL answers 410, and so does it once the request is canceled.

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/page"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func registerFileURLs(r *api.Registry) {
	r.ControlPublic(http.MethodGet, "/w/{world}/files/{token}", serveFileURL)
	r.ControlPublic(http.MethodHead, "/w/{world}/files/{token}", serveFileURL)
}

// serveFileURL answers the PDF a file URL was issued for.
func serveFileURL(c *api.Call) (any, error) {
	w := page.WorldFor(c.Host, c.Param("world"), page.HoldsRow[model.FileURL](state.TableFileURLs, c.Param("token")))
	if w == nil {
		return nil, apierr.NotFoundf("This file URL is not valid.")
	}
	tx := w.Store.Read()
	u, err := state.Get[model.FileURL](tx, state.TableFileURLs, c.Param("token"))
	if err != nil {
		return nil, apierr.NotFoundf("This file URL is not valid.")
	}
	if tx.Unix() >= u.ExpiresAt {
		return nil, &apierr.Error{Name: apierr.Deleted, Msg: "This file URL has expired; ask for a new one."}
	}
	if fs, err := state.GetFileSet(tx, u.Kind, u.ObjectID); err == nil && fs.Gone {
		return nil, apierr.Gone()
	}
	data, err := state.GetBlob(tx, u.BlobID)
	if err != nil {
		return nil, apierr.Gone()
	}
	return FileDownload(data, "application/pdf", u.Name, u.Inline), nil
}
