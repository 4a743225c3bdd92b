package state

// The order of the e-mail outbox and of the callback log.

// logSeqShift sizes the buckets of the logs' seq indexes: 512 numbers of
// the world's sequence each. The sequence is shared with every number a
// world takes (a send and its processing take a few dozen), so a bucket
// holds a few dozen entries of a log.
const logSeqShift = 9

// logSeqIndex is the seq index of a log (IndexSeq): a compact ordered
// index rather than memdb's, because the logs are written at their two
// ends only. Every processing job of a clock advance adds an e-mail and
// an event and, once a log is full, drops its oldest entry; in memdb's
// index each of those was a radix insert or delete with a new leaf, its
// path copied and remembered in the radix transaction's cache, and the
// trim that looked for the oldest entry read the index the same write
// had just changed, which made memdb clone it and drop that cache. In
// buckets, a batch of jobs appends to the write's copy of the newest
// bucket and drops from its copy of the oldest one, and stores each once;
// the trim reads those copies (compactScan), never memdb's written
// index. Lookups, pages and walks by seq (pageBySeq, WalkSeq, All,
// First) go through the compact index as they went through memdb's.
func logSeqIndex(table, tag string, seq func(row any) uint64) *compactIndex {
	return &compactIndex{table: table, name: IndexSeq, tag: tag, ordered: true, shift: logSeqShift, unique: true,
		keys: func(row any, dst []compactKey) []compactKey { return append(dst, compactKey{order: seq(row)}) }}
}
