package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Tables of the documents subsystem's download state.
const (
	// TableFileSets holds, per object with files (template; a signature
	// request keeps its own in its row, see request_files.go), whether its
	// downloadable files are prepared.
	TableFileSets = "file_sets"
	// TableFileURLs holds the file URLs handed out by files_as_file_url.
	TableFileURLs = "file_urls"

	// IndexBlob finds the file URLs that serve one blob. (IndexObject,
	// shared with the events table, finds the file URLs of one object.)
	IndexBlob = "blob"
)

// NewFileSet is an object's file set before its first preparation.
func NewFileSet(kind, objectID string) *model.FileSet {
	return &model.FileSet{ID: model.FileSetID(kind, objectID)}
}

// PDFBlob returns the id fs's PDF is stored under ("" when none was
// reserved): its PDFBlobID, or the id of the sequence number PDFSeq, which
// needs the world's seed.
func (tx *Txn) PDFBlob(fs *model.FileSet) string {
	if id := fs.PDFBlobID(); id != "" || fs.PDFSeq == 0 {
		return id
	}
	seed := ""
	if tx.meta != nil {
		seed = tx.meta.Seed
	} else if m, err := Get[Meta](tx, tableMeta, metaRowID); err == nil {
		seed = m.Seed
	}
	return idOf(seed, fs.PDFSeq)
}

// registerFileSets adds the file sets and their file URLs.
func registerFileSets() {
	Register[model.FileSet](&memdb.TableSchema{
		Name: TableFileSets,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
	Register[model.FileURL](&memdb.TableSchema{
		Name: TableFileURLs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:     {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexObject: {Name: IndexObject, Indexer: &memdb.StringFieldIndex{Field: "ObjectID"}},
			IndexBlob:   {Name: IndexBlob, Indexer: &memdb.StringFieldIndex{Field: "BlobID"}},
		},
	})
}

// BlobInUse reports whether a file URL that has not expired serves the
// blob.
func BlobInUse(tx *Txn, blobID string) bool {
	urls, _ := All[model.FileURL](tx, TableFileURLs, IndexBlob, blobID)
	for _, u := range urls {
		if u.ExpiresAt > tx.Unix() {
			return true
		}
	}
	return false
}
