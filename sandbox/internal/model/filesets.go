package model

import (
	"encoding/json"
	"fmt"
	"strings"
)

// FileSet is the download state of one object's files. Preparation is a
// scheduler job: each change that alters the files (creation, a signature,
// completion) bumps Version and clears Ready until the job for that version
// has rendered the files. A world keeps one per request for the rest of
// the request's life, so what few file sets need is kept apart (Rare), and
// the kind and object id are read from the key; the JSON form (fileSetJSON)
// is what it always was.
type FileSet struct {
	// ID is FileSetID(kind, object id).
	ID string
	// Version counts the preparations scheduled; a job renders only the
	// version it was scheduled for.
	Version int
	Ready   bool
	// Gone makes downloads answer 410 (a canceled request).
	Gone bool
	// Recipe is what the last preparation composed, with the documents
	// named by their blob ids: downloads render it when asked (the bytes
	// are a pure function of it), so prepared files take no room per
	// object. It is opaque to this package.
	Recipe Recipe
	// PDFSeq is how a recipe's file set keeps the id its PDF is stored
	// under when something must keep that version (a file URL; no blob
	// until then): the number of the world's id sequence taken for it (8
	// bytes instead of a 40-character id per object; PDFBlob gives the
	// id). A recipe's ZIP is never stored, so it keeps no id.
	PDFSeq uint64
	// Name is the download file name without extension.
	Name string
	// PreparedAt is when the files were last prepared (Unix seconds).
	PreparedAt int64
	// Rare holds what few file sets have (nil for the others). Rows are
	// shared with readers: change it through SetFiles and SetFailure,
	// which replace it.
	Rare *FileSetRare
}

// FileSetRare is the part of a file set that few have.
type FileSetRare struct {
	// PDFBlobID and ZIPBlobID hold files rendered at preparation time when
	// Recipe is nil (a composition a recipe cannot keep, worlds exported
	// before recipes existed); Pages is that PDF's page count. Worlds
	// exported before PDFSeq kept a recipe's reserved ids here too.
	PDFBlobID string
	ZIPBlobID string
	Pages     int
	// Failure is why the last preparation failed ("" when it did not).
	Failure string
}

// fileSetJSON is the exported form of a file set.
type fileSetJSON struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	ObjectID   string `json:"object_id"`
	Version    int    `json:"version"`
	Ready      bool   `json:"ready"`
	Gone       bool   `json:"gone"`
	Recipe     Recipe `json:"recipe,omitempty"`
	PDFBlobID  string `json:"pdf_blob_id,omitempty"`
	ZIPBlobID  string `json:"zip_blob_id,omitempty"`
	PDFSeq     uint64 `json:"pdf_seq,omitempty"`
	Pages      int    `json:"pages,omitempty"`
	Name       string `json:"name,omitempty"`
	PreparedAt int64  `json:"prepared_at,omitempty"`
	Error      string `json:"error,omitempty"`
}

// MarshalJSON writes the exported form.
func (fs FileSet) MarshalJSON() ([]byte, error) {
	j := fileSetJSON{ID: fs.ID, Kind: fs.Kind(), ObjectID: fs.ObjectID(), Version: fs.Version, Ready: fs.Ready, Gone: fs.Gone,
		Recipe: fs.Recipe, PDFSeq: fs.PDFSeq, Name: fs.Name, PreparedAt: fs.PreparedAt}
	if r := fs.Rare; r != nil {
		j.PDFBlobID, j.ZIPBlobID, j.Pages, j.Error = r.PDFBlobID, r.ZIPBlobID, r.Pages, r.Failure
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the exported form; the id must be the kind and
// object id it names.
func (fs *FileSet) UnmarshalJSON(data []byte) error {
	var j fileSetJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if j.ID != FileSetID(j.Kind, j.ObjectID) {
		return fmt.Errorf("file set id %q is not kind %q and object id %q", j.ID, j.Kind, j.ObjectID)
	}
	*fs = FileSet{ID: j.ID, Version: j.Version, Ready: j.Ready, Gone: j.Gone, Recipe: j.Recipe, PDFSeq: j.PDFSeq,
		Name: j.Name, PreparedAt: j.PreparedAt}
	fs.SetFiles(j.PDFBlobID, j.ZIPBlobID, j.Pages)
	fs.SetFailure(j.Error)
	return nil
}

// Kind is the kind of object the file set belongs to.
func (fs *FileSet) Kind() string {
	kind, _, _ := strings.Cut(fs.ID, ":")
	return kind
}

// ObjectID is the id of the object the file set belongs to.
func (fs *FileSet) ObjectID() string {
	_, id, _ := strings.Cut(fs.ID, ":")
	return id
}

// PDFBlobID, ZIPBlobID and Pages are the files rendered at preparation
// time ("" and 0 when there are none).
func (fs *FileSet) PDFBlobID() string { return fs.rare().PDFBlobID }

func (fs *FileSet) ZIPBlobID() string { return fs.rare().ZIPBlobID }

func (fs *FileSet) Pages() int { return fs.rare().Pages }

// Failure is why the last preparation failed ("" when it did not).
func (fs *FileSet) Failure() string { return fs.rare().Failure }

func (fs *FileSet) rare() FileSetRare {
	if fs.Rare == nil {
		return FileSetRare{}
	}
	return *fs.Rare
}

// SetFiles records the files rendered at preparation time (empty values
// for none).
func (fs *FileSet) SetFiles(pdfBlobID, zipBlobID string, pages int) {
	r := fs.rare()
	r.PDFBlobID, r.ZIPBlobID, r.Pages = pdfBlobID, zipBlobID, pages
	fs.setRare(r)
}

// SetFailure records why the last preparation failed ("" when it did
// not).
func (fs *FileSet) SetFailure(why string) {
	r := fs.rare()
	r.Failure = why
	fs.setRare(r)
}

func (fs *FileSet) setRare(r FileSetRare) {
	if r == (FileSetRare{}) {
		fs.Rare = nil
		return
	}
	fs.Rare = &r
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
