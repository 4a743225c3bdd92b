package document

// The documents of a page for people (signing, template editor, claim):
// the list its document view loads and each document as PDF.

import (
	"net/http"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/signpage"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// PageDocDesc is a document as a page's document view loads it.
type PageDocDesc struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	URL   string `json:"url"`
}

// PageDocs lists documents with their URLs below base (the page's path).
func PageDocs(base string, docs []model.Document) []PageDocDesc {
	out := []PageDocDesc{}
	for i, d := range docs {
		if d.PDFBlobID == "" {
			continue
		}
		out = append(out, PageDocDesc{Index: i, Name: d.Name, URL: base + "/documents/" + strconv.Itoa(i)})
	}
	return out
}

// PageDocument returns document index (a path parameter) of docs as PDF,
// or a 404 page.
func PageDocument(c *api.Call, tx *state.Txn, docs []model.Document) (any, error) {
	i, err := strconv.Atoi(c.Param("index"))
	if err != nil || i < 0 || i >= len(docs) || docs[i].PDFBlobID == "" {
		return PageNotFound("No such document.")
	}
	data, err := state.GetBlob(tx, docs[i].PDFBlobID)
	if err != nil {
		return PageNotFound("No such document.")
	}
	h := signpage.AssetHeaders()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", ContentDisposition("inline", docs[i].Name))
	return &api.RawResponse{Status: http.StatusOK, ContentType: "application/pdf", Header: h, Body: data}, nil
}

// PageNotFound is the plain 404 of a page's sub-resource.
func PageNotFound(msg string) (any, error) {
	return &api.RawResponse{Status: http.StatusNotFound, ContentType: "text/plain; charset=utf-8", Header: signpage.AssetHeaders(), Body: []byte(msg + "\n")}, nil
}
