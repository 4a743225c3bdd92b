package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Signature request tables and indexes.
const (
	// TableSignatureRequests holds one row per signature request, its
	// signatures embedded.
	TableSignatureRequests = "signature_requests"
	// TableSignatureRequestAccess lists, per account, the requests it sees in
	// GET /signature_request/list, numbered densely in creation order so that
	// a page and the total are index lookups, not scans.
	TableSignatureRequestAccess = "signature_request_access"
	// TableSignURLs holds the tokens of signing pages (embedded sign_url and
	// the links of signature request e-mails).
	TableSignURLs = "sign_urls"

	// IndexSignatureID finds the request that holds a signature_id.
	IndexSignatureID = "signature_id"
	// IndexLinkSignature finds a request by the signature id of a signing
	// link whose signature it no longer has (an edit and resend gives the
	// signers new ids): the link still opens the request's page. Requests
	// that were never edited have no entry.
	IndexLinkSignature = "link_signature"
	// IndexAccountOrdinal orders an account's access rows (AccountID,
	// Ordinal); the highest ordinal is the newest request and the count.
	IndexAccountOrdinal = "account_ordinal"
)

// requestSeqKeys is the key of a request in IndexSeq: its Seq.
func requestSeqKeys(row any, dst []compactKey) []compactKey {
	return append(dst, compactKey{order: row.(*model.SignatureRequest).Seq})
}

// signatureIDKeys are the keys of a request in IndexSignatureID: each of
// its signature ids.
func signatureIDKeys(row any, dst []compactKey) []compactKey {
	for _, s := range row.(*model.SignatureRequest).Signatures {
		if s.ID != "" {
			dst = append(dst, compactKey{group: s.ID})
		}
	}
	return dst
}

// registerSignatureRequests adds the signature requests and their access rows, bucketed, with their compact indexes.
func registerSignatureRequests() {
	Register[model.SignatureRequest](&memdb.TableSchema{
		Name: TableSignatureRequests,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("ID", func(r *model.SignatureRequest) string { return r.ID })},
		},
	})
	// Requests and their access rows are bucketed (bucket_rows.go): a
	// memdb entry per row cost about 450 bytes, and a write of one copied
	// a path through a tree of every request. 4,096 buckets hold a few
	// dozen rows each at 100,000 requests.
	registerBucketed(freezable[model.SignatureRequest](fieldBuckets(TableSignatureRequests, "sr", func(r *model.SignatureRequest) string { return r.ID })))
	// A request row carries its file set, a file_sets row
	// (request_files.go), which Put keeps when the row it is given was
	// copied before the file set was put.
	setOptions(TableSignatureRequests, func(o *tableOptions) {
		o.beforePut = withStoredFiles
		o.carries, o.carriedTable = requestFileRows, TableFileSets
	})
	// The request's secondary indexes are compact: a memdb entry each
	// (about 450 bytes) cost more than the request's own fields, and
	// memdb copied them on every update of the request, its keys moved
	// or not. Seq orders the requests world-wide (WalkSeq: the console's
	// list, ownership transfers); the sequence is shared with every other
	// number a world takes, so a bucket of 512 numbers holds a few dozen
	// requests.
	registerCompact(&compactIndex{table: TableSignatureRequests, name: IndexSeq, tag: "sr.seq/",
		ordered: true, shift: 9, unique: true, keys: requestSeqKeys})
	registerCompact(&compactIndex{table: TableSignatureRequests, name: IndexSignatureID, tag: "sr.signature/",
		bits: 12, keys: signatureIDKeys})
	registerCompact(&compactIndex{table: TableSignatureRequests, name: IndexLinkSignature, tag: "sr.link/",
		bits: 8, keys: linkSignatureKeys})
	Register[model.SignatureRequestAccess](&memdb.TableSchema{
		Name: TableSignatureRequestAccess,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: accessIDIndexer{}},
		},
	})
	registerBucketed(accessBuckets())
	// An account's list by ordinal is a compact index: every request has
	// an access row per account that lists it, and a memdb entry cost
	// about 450 bytes. Its groups are accounts, spread over buckets of 64
	// ordinals (an account can list every request of the world); an entry
	// names its row by the request id, which the row's computed id is
	// made of.
	registerCompact(&compactIndex{table: TableSignatureRequestAccess, name: IndexAccountOrdinal, tag: "access.ordinal/",
		bits: 12, chunk: 6, unique: true,
		keys: func(row any, dst []compactKey) []compactKey {
			a := row.(*model.SignatureRequestAccess)
			return append(dst, compactKey{a.AccountID, a.Ordinal})
		},
		entryID: func(row any) string { return row.(*model.SignatureRequestAccess).RequestID },
		rowID:   func(e *compactEntry) string { return model.AccessID(e.Group, e.ID) },
	})
	Register[model.SignURL](&memdb.TableSchema{
		Name: TableSignURLs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "Token"}},
		},
	})
}

// SignatureRequestBySignature finds the request holding a signature id.
func SignatureRequestBySignature(tx *Txn, signatureID string) (*model.SignatureRequest, error) {
	return First[model.SignatureRequest](tx, TableSignatureRequests, IndexSignatureID, signatureID)
}
