package state

import (
	"sort"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// TableBulkSendJobs holds the jobs of the two bulk send operations.
const TableBulkSendJobs = "bulk_send_jobs"

// registerBulkSendJobs adds the bulk send jobs.
func registerBulkSendJobs() {
	Register[model.BulkSendJob](&memdb.TableSchema{
		Name: TableBulkSendJobs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:      {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexAccount: {Name: IndexAccount, Indexer: &memdb.StringFieldIndex{Field: "AccountID"}},
		},
	})
}

// BulkSendJobsOf lists the jobs of the given accounts, newest first.
func BulkSendJobsOf(tx *Txn, accountIDs []string) ([]*model.BulkSendJob, error) {
	var out []*model.BulkSendJob
	for _, id := range accountIDs {
		jobs, err := All[model.BulkSendJob](tx, TableBulkSendJobs, IndexAccount, id)
		if err != nil {
			return nil, err
		}
		out = append(out, jobs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq > out[j].Seq })
	return out, nil
}
