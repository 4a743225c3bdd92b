package state

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	memdb "github.com/hashicorp/go-memdb"
)

// Tables of stored file bytes.
const (
	// TableBlobs holds one row per stored file (uploads, fetched files,
	// prepared PDFs): the id documents, file sets and templates refer to.
	TableBlobs = "blobs"
	// tableBlobContents is the content-addressed store behind it: one row
	// per distinct content (its SHA-256) with the number of blob rows that
	// hold it, so that identical files are kept once however many requests
	// upload them. It is derived: export writes each blob row with its
	// bytes as before, and import rebuilds the store.
	tableBlobContents = "blob_contents"

	// IndexShared finds a content by its shared blob row.
	IndexShared = "shared"
)

// Blob is stored file content. Blobs are immutable: new content is a new
// blob. Blobs with the same bytes share one backing array (BlobContent).
type Blob struct {
	ID   string `json:"id"`
	Data []byte `json:"data"`
	// Holders counts the rows whose documents name this blob (see
	// blob_holders.go); 0 for blobs no document names.
	Holders int `json:"holders,omitempty"`
	// Shared marks the row identical uploads share (blob_uploads.go).
	Shared bool `json:"shared,omitempty"`
}

// BlobContent is one distinct content of the world's files.
type BlobContent struct {
	// Hash is the hex SHA-256 of Data.
	Hash string
	Data []byte
	// Refs counts the blob rows that hold this content; the content goes
	// when the last one does.
	Refs int
	// Shared is the id of the row identical uploads of this content share
	// ("" when there is none), and Uploads the state of its uploads.
	Shared  string
	Uploads *uploadShare
}

// registerBlobs adds the blobs and their content-addressed contents.
func registerBlobs() {
	Register[Blob](&memdb.TableSchema{
		Name: TableBlobs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
	RegisterDerived[BlobContent](&memdb.TableSchema{
		Name: tableBlobContents,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:     {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "Hash"}},
			IndexShared: {Name: IndexShared, Unique: true, AllowMissing: true, Indexer: &memdb.StringFieldIndex{Field: "Shared"}},
		},
	})
}

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// PutBlob stores bytes under a new id and returns it. Bytes the world
// already holds are not stored again: the new blob shares them. New bytes
// are kept in a buffer of exactly their size (a read buffer's spare
// capacity is not kept alive).
func PutBlob(tx *Txn, data []byte) (string, error) {
	id := tx.NewID()
	return id, PutBlobID(tx, id, data)
}

// PutBlobID stores bytes under an id taken earlier with NewID (a file
// rendered on demand is stored under the id reserved when it was
// prepared). The id must not hold a blob yet.
func PutBlobID(tx *Txn, id string, data []byte) error {
	return putBlob(tx, id, contentHash(data), data, false)
}

// putBlob stores a blob row for data, whose hash is h: a shared row
// (PutUpload) is registered as its content's.
func putBlob(tx *Txn, id, h string, data []byte, shared bool) error {
	u := getUsage(tx)
	register := ""
	if shared {
		register = id
	}
	stored, err := addContentRef(tx.mem, h, data, u, register)
	if err != nil {
		return err
	}
	if len(data) == 0 {
		stored = data // nil and empty stay as given (they export differently)
	}
	b := &Blob{ID: id, Data: stored, Shared: shared}
	if err := Put(tx, TableBlobs, b); err != nil {
		return err
	}
	u.BlobBytes += int64(len(data))
	u.Blobs++
	return setUsage(tx, u)
}

// addContentRef counts one more holder of data's content (hash h) and
// answers the shared bytes to store; register, when set, becomes the
// content's shared row unless it has one.
func addContentRef(tx *memdb.Txn, h string, data []byte, u *Usage, register string) ([]byte, error) {
	raw, err := tx.First(tableBlobContents, IndexID, h)
	if err != nil {
		return nil, fmt.Errorf("state: %s: %w", tableBlobContents, err)
	}
	var c BlobContent
	if raw != nil {
		c = *raw.(*BlobContent)
		c.Refs++
	} else {
		if cap(data) != len(data) {
			data = append(make([]byte, 0, len(data)), data...)
		}
		c = BlobContent{Hash: h, Data: data, Refs: 1}
		u.ContentBytes += int64(len(data))
		u.Contents++
	}
	if c.Shared == "" && register != "" {
		c.Shared, c.Uploads = register, &uploadShare{Live: 1, Fresh: []uint64{0}}
	}
	if err := tx.Insert(tableBlobContents, &c); err != nil {
		return nil, fmt.Errorf("state: insert %s: %w", tableBlobContents, err)
	}
	return c.Data, nil
}

// GetBlob reads stored bytes.
func GetBlob(tx *Txn, id string) ([]byte, error) {
	b, err := Get[Blob](tx, TableBlobs, id)
	if err != nil {
		return nil, err
	}
	return b.Data, nil
}

// BlobSum returns the SHA-256 of a blob's bytes (ErrNotFound when the
// blob is gone), for keys of files derived from it.
func BlobSum(tx *Txn, id string) ([sha256.Size]byte, error) {
	b, err := Get[Blob](tx, TableBlobs, id)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	return sha256.Sum256(b.Data), nil
}

// DeleteBlob removes stored bytes (no error when they are already gone);
// the content is released when no other blob holds it.
func DeleteBlob(tx *Txn, id string) error {
	b, err := Get[Blob](tx, TableBlobs, id)
	if err != nil {
		return nil
	}
	if err := tx.Delete(TableBlobs, b); err != nil {
		return fmt.Errorf("state: delete blob: %w", err)
	}
	u := getUsage(tx)
	u.BlobBytes -= int64(len(b.Data))
	u.Blobs--
	raw, err := tx.mem.First(tableBlobContents, IndexID, contentHash(b.Data))
	if err != nil {
		return fmt.Errorf("state: %s: %w", tableBlobContents, err)
	}
	if raw != nil {
		c := *raw.(*BlobContent)
		if err := dropShared(tx.mem, b, &c); err != nil {
			return err
		}
		if c.Refs--; c.Refs > 0 {
			err = tx.Insert(tableBlobContents, &c)
		} else {
			err = tx.mem.Delete(tableBlobContents, raw)
			u.ContentBytes -= int64(len(c.Data))
			u.Contents--
		}
		if err != nil {
			return fmt.Errorf("state: %s: %w", tableBlobContents, err)
		}
	}
	return setUsage(tx, u)
}

// StoredBytes is the size of every blob of the world, which the per-world
// storage cap (Config.MaxWorldBytes) bounds: each stored file counts, as a
// user who uploads it twice would expect (uploads that share a row count
// once each, see blob_uploads.go). It is counters kept in the same
// transactions as the blobs (and rebuilt on import), so a write costs the
// same however many files the world holds.
func StoredBytes(tx *Txn) (int64, error) {
	return getUsage(tx).BlobBytes + sharedBytes(tx.mem), nil
}

// UniqueBytes is the size of the distinct contents the world holds: the
// memory its files take, identical files counted once.
func UniqueBytes(tx *Txn) int64 { return getUsage(tx).ContentBytes }

// rebuildBlobContents builds the content store from the blob rows of an
// import, making blobs with the same bytes share one array.
func rebuildBlobContents(tx *memdb.Txn, u *Usage) error {
	it, err := tx.Get(TableBlobs, IndexID)
	if err != nil {
		return err
	}
	var blobs []*Blob
	for raw := it.Next(); raw != nil; raw = it.Next() {
		blobs = append(blobs, raw.(*Blob))
	}
	for _, b := range blobs {
		shared, err := addContentRef(tx, contentHash(b.Data), b.Data, u, "")
		if err != nil {
			return err
		}
		u.BlobBytes += int64(len(b.Data))
		u.Blobs++
		if len(b.Data) > 0 && &shared[0] != &b.Data[0] {
			c := *b
			c.Data = shared
			if err := tx.Insert(TableBlobs, &c); err != nil {
				return err
			}
		}
	}
	return nil
}
