package document

// The six download operations: /signature_request/files*, /template/files*
// in binary, data URI and file URL form. Each checks the caller's access
// through the owner (404 unknown or foreign, 410 canceled), then that the
// files are prepared (409 while a preparation job is pending).

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

func registerDownloads(r *api.Registry) {
	r.Handle("signatureRequestFiles", downloadFiles(KindSignatureRequest, "signature_request_id"))
	r.Handle("signatureRequestFilesAsDataUri", downloadDataURI(KindSignatureRequest, "signature_request_id"))
	r.Handle("signatureRequestFilesAsFileUrl", downloadFileURL(KindSignatureRequest, "signature_request_id"))
	r.Handle("templateFiles", downloadFiles(KindTemplate, "template_id"))
	r.Handle("templateFilesAsDataUri", downloadDataURI(KindTemplate, "template_id"))
	r.Handle("templateFilesAsFileUrl", downloadFileURL(KindTemplate, "template_id"))
}

// fileResponseDataURI is FileResponseDataUri.
type fileResponseDataURI struct {
	DataURI string `json:"data_uri"`
}

// fileResponse is FileResponse.
type fileResponse struct {
	FileURL   string `json:"file_url"`
	ExpiresAt int64  `json:"expires_at"`
}

// downloadFiles answers the binary PDF (file_type=pdf, the default) or the
// ZIP of the individual documents (file_type=zip).
func downloadFiles(kind, param string) api.Handler {
	return func(c *api.Call) (any, error) {
		var q struct {
			FileType *string `json:"file_type"`
		}
		if err := c.Query(&q); err != nil {
			return nil, err
		}
		zip := false
		if q.FileType != nil {
			switch *q.FileType {
			case "", "pdf":
			case "zip":
				zip = true
			default:
				return nil, apierr.Badf("file_type", "Invalid file_type %q: use pdf or zip.", *q.FileType)
			}
		}
		tx := c.Read()
		fs, err := preparedFiles(c, tx, kind, c.Param(param))
		if err != nil {
			return nil, err
		}
		if zip {
			data, err := preparedZIP(tx, fs)
			if err != nil {
				return nil, err
			}
			return FileDownload(data, "application/zip", fs.Name+".zip", false), nil
		}
		data, err := preparedPDF(tx, fs)
		if err != nil {
			return nil, err
		}
		return FileDownload(data, "application/pdf", fs.Name+".pdf", false), nil
	}
}

// downloadDataURI answers the PDF as a base64 data URI.
func downloadDataURI(kind, param string) api.Handler {
	return func(c *api.Call) (any, error) {
		tx := c.Read()
		fs, err := preparedFiles(c, tx, kind, c.Param(param))
		if err != nil {
			return nil, err
		}
		data, err := preparedPDF(tx, fs)
		if err != nil {
			return nil, err
		}
		return fileResponseDataURI{DataURI: "data:application/pdf;base64," + base64.StdEncoding.EncodeToString(data)}, nil
	}
}

// downloadFileURL hands out a URL, served by the sandbox, that downloads the
// PDF until it expires (world configuration FileURLTTL, on the world
// clock). force_download=0 makes the URL display the PDF inline. Like the
// real service's pre-signed URLs, it keeps serving the version it was
// issued for when the files are prepared again, so that version is stored
// for it.
func downloadFileURL(kind, param string) api.Handler {
	return func(c *api.Call) (any, error) {
		var q struct {
			ForceDownload *int `json:"force_download"`
		}
		if err := c.Query(&q); err != nil {
			return nil, err
		}
		inline := q.ForceDownload != nil && *q.ForceDownload == 0
		// Render before the write, which then finds the rendering cached
		// instead of rendering while it holds the world's write lock.
		warm := c.Read()
		if fs, err := preparedFiles(c, warm, kind, c.Param(param)); err == nil {
			_, _ = preparedPDF(warm, fs)
		}
		var out fileResponse
		err := c.Update(func(tx *state.Txn) error {
			fs, err := preparedFiles(c, tx, kind, c.Param(param))
			if err != nil {
				return err
			}
			if err := sweepFileURLs(tx, fs.ObjectID(), map[string]bool{tx.PDFBlob(fs): true, fs.ZIPBlobID(): true}); err != nil {
				return err
			}
			blob, err := fileURLBlob(tx, fs)
			if err != nil {
				return err
			}
			u := &model.FileURL{ID: tx.NewSecret(), Kind: kind, ObjectID: fs.ObjectID(), BlobID: blob,
				Name: fs.Name + ".pdf", Inline: inline,
				ExpiresAt: tx.Now().Add(state.GetConfig(tx).FileURLTTL.D()).Unix()}
			if err := state.Put(tx, state.TableFileURLs, u); err != nil {
				return err
			}
			out = fileResponse{FileURL: c.WorldURL("files/" + u.ID), ExpiresAt: u.ExpiresAt}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// fileURLBlob is the blob a new file URL serves: the current PDF, stored
// under the id its preparation reserved (once: the URLs issued for one
// version share it).
func fileURLBlob(tx *state.Txn, fs *model.FileSet) (string, error) {
	id := tx.PDFBlob(fs)
	if _, err := state.GetBlob(tx, id); err == nil {
		return id, nil
	}
	if fs.Recipe == nil || id == "" {
		return "", filesNotReady()
	}
	pdf, err := preparedPDF(tx, fs)
	if err != nil {
		return "", err
	}
	return id, state.PutBlobID(tx, id, pdf)
}

// FileDownload is a binary answer with its Content-Disposition: attachment
// (save) or inline (display).
func FileDownload(data []byte, contentType, name string, inline bool) *api.RawResponse {
	disp := "attachment"
	if inline {
		disp = "inline"
	}
	h := http.Header{}
	h.Set("Content-Disposition", ContentDisposition(disp, name))
	return &api.RawResponse{Status: http.StatusOK, ContentType: contentType, Header: h, Body: data}
}

// ContentDisposition writes the header with a quoted ASCII file name and,
// when the name is not ASCII, its UTF-8 form as well (RFC 6266).
func ContentDisposition(disp, name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7E || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	v := disp + `; filename="` + ascii + `"`
	if ascii != name {
		v += "; filename*=UTF-8''" + url.PathEscape(name)
	}
	return v
}
