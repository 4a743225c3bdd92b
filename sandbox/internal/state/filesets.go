package state

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	memdb "github.com/hashicorp/go-memdb"
)

// Tables of the documents subsystem's download state.
const (
	// TableFileSets holds, per object with files (signature request or
	// template), whether its downloadable files are prepared.
	TableFileSets = "file_sets"
	// TableFileURLs holds the file URLs handed out by files_as_file_url.
	TableFileURLs = "file_urls"

	// IndexBlob finds the file URLs that serve one blob. (IndexObject,
	// shared with the events table, finds the file URLs of one object.)
	IndexBlob = "blob"
)

// FileSet is the download state of one object's files. Preparation is a
// scheduler job: each change that alters the files (creation, a signature,
// completion) bumps Version and clears Ready until the job for that version
// has rendered the files.
type FileSet struct {
	// ID is FileSetID(kind, object id).
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	ObjectID string `json:"object_id"`
	// Version counts the preparations scheduled; a job renders only the
	// version it was scheduled for.
	Version int  `json:"version"`
	Ready   bool `json:"ready"`
	// Gone makes downloads answer 410 (a canceled request).
	Gone bool `json:"gone"`
	// Recipe is what the last preparation composed, with the documents
	// named by their blob ids: downloads render it when asked (the bytes
	// are a pure function of it), so prepared files take no room per
	// object. It is opaque to this package.
	Recipe Recipe `json:"recipe,omitempty"`
	// PDFBlobID and ZIPBlobID hold files rendered at preparation time when
	// Recipe is nil (a composition a recipe cannot keep, worlds exported
	// before recipes existed). With a recipe, PDFBlobID (or PDFSeq) is
	// the id the PDF is stored under when something must keep that
	// version (a file URL): no blob until then.
	PDFBlobID string `json:"pdf_blob_id,omitempty"`
	ZIPBlobID string `json:"zip_blob_id,omitempty"`
	// PDFSeq is how a recipe's file set keeps the id its PDF would be
	// stored under: the number of the world's id sequence taken for it (8
	// bytes instead of a 40-character id per object; PDFBlob gives the
	// id). 0 when PDFBlobID holds the id (files rendered at preparation,
	// worlds exported before). A recipe's ZIP is never stored, so it
	// keeps no id.
	PDFSeq uint64 `json:"pdf_seq,omitempty"`
	// Pages is the page count of a PDF rendered at preparation time.
	Pages int `json:"pages,omitempty"`
	// Name is the download file name without extension.
	Name string `json:"name,omitempty"`
	// PreparedAt is when the files were last prepared (Unix seconds).
	PreparedAt int64 `json:"prepared_at,omitempty"`
	// Error is why the last preparation failed ("" when it did not).
	Error string `json:"error,omitempty"`
}

// Recipe is a file set's recipe as stored: bytes internal/derived writes
// and reads. It exports as a base64 string. A recipe an earlier version
// wrote as JSON (its first byte is '{', which the binary form never
// starts with) exports as that JSON object, as it was imported, so that
// such a world still round-trips unchanged.
type Recipe []byte

// MarshalJSON writes the binary form as base64, a JSON recipe as itself.
func (r Recipe) MarshalJSON() ([]byte, error) {
	if len(r) > 0 && r[0] == '{' {
		return r, nil
	}
	return json.Marshal([]byte(r))
}

// UnmarshalJSON reads either form.
func (r *Recipe) UnmarshalJSON(data []byte) error {
	switch {
	case len(data) > 0 && data[0] == '{':
		*r = append(Recipe(nil), data...)
		return nil
	case string(data) == "null":
		*r = nil
		return nil
	}
	var b []byte
	if err := json.Unmarshal(data, &b); err != nil {
		return fmt.Errorf("recipe: %w", err)
	}
	*r = b
	return nil
}

// FileSetID is the key of an object's file set.
func FileSetID(kind, objectID string) string { return kind + ":" + objectID }

// NewFileSet is an object's file set before its first preparation. Its
// ObjectID is part of its ID's string rather than a copy.
func NewFileSet(kind, objectID string) *FileSet {
	id := FileSetID(kind, objectID)
	return &FileSet{ID: id, Kind: kind, ObjectID: id[len(kind)+1:]}
}

// PDFBlob is the id the file set's PDF is stored under ("" when none was
// reserved): PDFBlobID, or the id of the sequence number PDFSeq.
func (fs *FileSet) PDFBlob(tx *Txn) string {
	if fs.PDFBlobID != "" || fs.PDFSeq == 0 {
		return fs.PDFBlobID
	}
	seed := ""
	if tx.meta != nil {
		seed = tx.meta.Seed
	} else if m, err := Get[Meta](tx, tableMeta, metaRowID); err == nil {
		seed = m.Seed
	}
	return idOf(seed, fs.PDFSeq)
}

// idOf is the id NewID answers for number n of the sequence of seed.
func idOf(seed string, n uint64) string {
	sum := sha1.Sum([]byte(seed + "/id/" + strconv.FormatUint(n, 10)))
	return hex.EncodeToString(sum[:])
}

// FileURL is a URL handed out by files_as_file_url: a secret token that
// serves one prepared PDF until it expires, like the pre-signed URLs of the
// real service.
type FileURL struct {
	// ID is the token in the URL path.
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	ObjectID string `json:"object_id"`
	// BlobID is the PDF the URL serves: the version prepared when it was
	// issued.
	BlobID string `json:"blob_id"`
	// Name is the download file name (with extension).
	Name string `json:"name"`
	// Inline serves the file for display (force_download=0) instead of as
	// an attachment.
	Inline bool `json:"inline"`
	// ExpiresAt is the end of the URL's life (Unix seconds, world clock).
	ExpiresAt int64 `json:"expires_at"`
}

func init() {
	Register[FileSet](&memdb.TableSchema{
		Name: TableFileSets,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
	Register[FileURL](&memdb.TableSchema{
		Name: TableFileURLs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:     {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexObject: {Name: IndexObject, Indexer: &memdb.StringFieldIndex{Field: "ObjectID"}},
			IndexBlob:   {Name: IndexBlob, Indexer: &memdb.StringFieldIndex{Field: "BlobID"}},
		},
	})
}

// GetFileSet reads an object's file set (ErrNotFound when none was ever
// scheduled).
func GetFileSet(tx *Txn, kind, objectID string) (*FileSet, error) {
	return Get[FileSet](tx, TableFileSets, FileSetID(kind, objectID))
}

// BlobInUse reports whether a file URL that has not expired serves the
// blob.
func BlobInUse(tx *Txn, blobID string) bool {
	urls, _ := All[FileURL](tx, TableFileURLs, IndexBlob, blobID)
	for _, u := range urls {
		if u.ExpiresAt > tx.Unix() {
			return true
		}
	}
	return false
}
