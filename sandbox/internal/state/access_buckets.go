package state

// The buckets of access rows (bucket_rows.go): their ids are computed
// (AccessID), so a lookup compares and hashes them from the two ids the
// row holds, without making the string; walks and row counting still make
// it.

import (
	"cmp"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// accessBuckets describes the buckets of the access rows (bucket_rows.go),
// whose ids a lookup compares and hashes without making them: it compares
// a few rows' ids.
func accessBuckets() *bucketTable {
	return &bucketTable{table: TableSignatureRequestAccess, tag: "access",
		id: func(row any) (string, bool) {
			a, ok := row.(*model.SignatureRequestAccess)
			if !ok || a == nil {
				return "", false
			}
			return a.ID(), true
		},
		compare: func(row any, id string) int { return compareAccessID(row.(*model.SignatureRequestAccess), id) },
		hash: func(row any) uint32 {
			a := row.(*model.SignatureRequestAccess)
			return fnv1aFrom(fnv1aFrom(fnv1aFrom(fnv1aStart, a.AccountID), "/"), a.RequestID)
		},
	}
}

// compareAccessID compares a's id, AccessID(a.AccountID, a.RequestID),
// with id.
func compareAccessID(a *model.SignatureRequestAccess, id string) int {
	acc := a.AccountID
	n := min(len(acc), len(id))
	if c := strings.Compare(acc, id[:n]); c != 0 {
		return c
	}
	if n == len(id) {
		return 1 // id is the account's id or its start: a's id goes on
	}
	rest := id[n:]
	if rest[0] != '/' {
		return cmp.Compare('/', rest[0])
	}
	return strings.Compare(a.RequestID, rest[1:])
}
