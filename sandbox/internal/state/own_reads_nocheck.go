//go:build !readcheck

package state

// checkOwnReads is off: see own_reads_check.go.
const checkOwnReads = false

func (t *Txn) checkOwnRead(any, string, string, []any) {}

func (t *Txn) checkCompactScan(*compactIndex, string, uint64, bool, []string, bool) {}

func (t *Txn) checkBucketRead(*bucketTable, string, any) {}
