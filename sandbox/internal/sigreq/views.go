package sigreq

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Response is SignatureRequestResponse of the official description: a
// stored request as GET /signature_request shows it. It is written
// straight from the row when encoded (views_json.go), so that an answer
// costs no intermediate structs, pointers, copied slices or maps: on a big
// world every object an answer allocates is paid again by the garbage
// collector, which walks the whole world's heap. The row must not change
// after View: stored rows never do (rows are copied, changed and put), and
// callers that render a request they are still building encode it first.
// Holding only the row, a Response (and a GET answer made of one) is
// pointer-shaped: returning it as an answer (an any) allocates nothing.
type Response struct {
	req *model.SignatureRequest
}

// signatureRequestGetResponse is SignatureRequestGetResponse.
type signatureRequestGetResponse struct {
	SignatureRequest Response
}

// signatureRequestListResponse is SignatureRequestListResponse: the
// page's rows, each written as View writes it.
type signatureRequestListResponse struct {
	Rows     []*model.SignatureRequest
	ListInfo api.ListInfoResponse
}

// RegisterViews adds signature requests to the catalog, as GET shows them:
// the console lists them through it, and the events about a request carry
// it rendered through it.
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.OfViewer(notify.ObjectSignatureRequest, state.TableSignatureRequests,
		func(req *model.SignatureRequest) string { return req.ID },
		func(_ *state.Txn, req *model.SignatureRequest, viewer string) (any, error) {
			if viewer == "" {
				viewer = req.RequesterAccountID
			}
			return View(req, viewer), nil
		},
		func(tx *state.Txn, req *model.SignatureRequest, accountID string) bool {
			acct, err := state.Get[model.Account](tx, state.TableAccounts, accountID)
			return err == nil && Visible(tx, req, acct)
		}))
}

// View renders a request as GET /signature_request shows it to viewer (an
// account id; the rendering does not depend on it today, but callers pass
// it so that per-viewer differences stay in one place). It renders any
// phase, canceled included: callers decide about 410s. Events, list
// entries and every operation answering SignatureRequestGetResponse use
// it. The rendering happens when the answer is encoded; see Response.
func View(req *model.SignatureRequest, viewer string) Response {
	_ = viewer
	return Response{req: req}
}
