package bulk

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// bulkSendJobResponse is BulkSendJobResponse.
type bulkSendJobResponse struct {
	BulkSendJobID *string `json:"bulk_send_job_id"`
	Total         int     `json:"total"`
	IsCreator     bool    `json:"is_creator"`
	CreatedAt     int64   `json:"created_at"`
}

// bulkSendJobSendResponse is BulkSendJobSendResponse.
type bulkSendJobSendResponse struct {
	BulkSendJob bulkSendJobResponse `json:"bulk_send_job"`
}

// bulkSendJobGetResponse is BulkSendJobGetResponse; its requests are
// BulkSendJobGetResponseSignatureRequests, which is SignatureRequestResponse
// (bulk_send_job_id and metadata included).
type bulkSendJobGetResponse struct {
	BulkSendJob       bulkSendJobResponse  `json:"bulk_send_job"`
	ListInfo          api.ListInfoResponse `json:"list_info"`
	SignatureRequests []sigreq.Response    `json:"signature_requests"`
}

// bulkSendJobListResponse is BulkSendJobListResponse.
type bulkSendJobListResponse struct {
	ListInfo     api.ListInfoResponse  `json:"list_info"`
	BulkSendJobs []bulkSendJobResponse `json:"bulk_send_jobs"`
}

// viewBulkJob renders a job for viewer (an account id): is_creator is true
// for the sender, false for the team members it is shared with.
func viewBulkJob(j *model.BulkSendJob, viewer string) bulkSendJobResponse {
	id := j.ID
	return bulkSendJobResponse{BulkSendJobID: &id, Total: j.Total, IsCreator: j.AccountID == viewer, CreatedAt: j.CreatedAt}
}

// RegisterViews adds bulk send jobs to the catalog, as their sender
// sees them.
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.Of("bulk_send_job", state.TableBulkSendJobs,
		func(j *model.BulkSendJob) string { return j.ID },
		func(_ *state.Txn, j *model.BulkSendJob) (any, error) { return viewBulkJob(j, j.AccountID), nil },
		func(_ *state.Txn, j *model.BulkSendJob, accountID string) bool { return j.AccountID == accountID }))
}
