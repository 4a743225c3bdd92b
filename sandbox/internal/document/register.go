package document

import "github.com/signsandbox/signsandbox/sandbox/internal/api"

// Register adds the documents area to r: the download operations of
// signature requests and templates, the job that prepares their files, and
// the public file URLs, in that order.
func Register(r *api.Registry) {
	registerDownloads(r)
	registerPrepare(r)
	registerFileURLs(r)
}
