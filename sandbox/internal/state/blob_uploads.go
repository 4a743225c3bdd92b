package state

import (
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// Identical uploads share one blob row. A suite that sends the same PDF
// with every request used to store a blob row per upload (each with its
// index entry) although the bytes were already kept once; now the first
// upload of a content makes a shared row (Blob.Shared) and later uploads
// of the same bytes name that row, each as its own upload: the document
// keeps the upload's number (Document.Upload, 0 for the upload that made
// the row).
//
// Nothing the API or the storage limit shows changes. Ids: an upload still
// takes its number from the world's sequence, so every later id is the
// one it always was; blob ids themselves appear only in exports. Stored
// bytes (max_world_bytes): each upload still counts, from when it is stored
// until the last row naming it lets go, exactly as when it had a row of
// its own. For that a shared row knows, per upload, whether zero, one or
// more rows name it (uploadShare); the bytes its uploads stand for beyond
// the row's own copy are summed in the blob_tally row, which StoredBytes
// adds to the rows' bytes. Both are derived: import computes them from
// the rows that name the blobs.

// tableBlobTally holds the single BlobTally row.
const (
	tableBlobTally = "blob_tally"
	tallyRowID     = "tally"
)

// BlobTally sums what the shared blob rows stand for.
type BlobTally struct {
	ID string
	// SharedBytes is, over the shared rows, their size times their live
	// uploads beyond the first: what the uploads would take as rows of
	// their own, less what the rows take.
	SharedBytes int64
}

// uploadShare is the state of a shared row's uploads (kept with its
// content, BlobContent.Uploads). Uploads that one
// row names are the rule and take no room; only uploads not yet named
// (stored in this write, their row not yet put) and uploads named by two
// or more rows (a template and the requests made from it, a draft and the
// request it became) are listed.
type uploadShare struct {
	// Live counts the uploads some row names or that were just stored.
	Live int
	// Fresh lists the uploads stored but not yet named.
	Fresh []uint64
	// Multi lists the uploads two or more rows name, with their count.
	Multi []uploadRows
}

type uploadRows struct {
	Upload uint64
	Rows   int
}

func (s *uploadShare) clone() *uploadShare {
	if s == nil {
		return &uploadShare{Live: 1}
	}
	return &uploadShare{Live: s.Live, Fresh: slices.Clone(s.Fresh), Multi: slices.Clone(s.Multi)}
}

func (s *uploadShare) multi(upload uint64) int {
	return slices.IndexFunc(s.Multi, func(m uploadRows) bool { return m.Upload == upload })
}

// registerBlobTally adds the derived tally of uploaded bytes.
func registerBlobTally() {
	RegisterDerived[BlobTally](&memdb.TableSchema{
		Name: tableBlobTally,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
}

func sharedBytes(tx *memdb.Txn) int64 {
	raw, _ := tx.First(tableBlobTally, IndexID, tallyRowID)
	if raw == nil {
		return 0
	}
	return raw.(*BlobTally).SharedBytes
}

func addSharedBytes(tx *memdb.Txn, n int64) error {
	if n == 0 {
		return nil
	}
	if err := tx.Insert(tableBlobTally, &BlobTally{ID: tallyRowID, SharedBytes: sharedBytes(tx) + n}); err != nil {
		return fmt.Errorf("state: insert %s: %w", tableBlobTally, err)
	}
	return nil
}

// PutUpload stores the bytes of an uploaded document and answers the blob
// id and upload number its document keeps. The first upload of a content
// makes a shared row under a new id (upload 0); identical uploads after it
// name that row under the next number of the world's sequence. Either way
// the sequence moves by one, as it did when every upload had its row.
// Only documents may use it: the rows that name the blob release it.
func PutUpload(tx *Txn, data []byte) (string, uint64, error) {
	h := contentHash(data)
	raw, err := tx.mem.First(tableBlobContents, IndexID, h)
	if err != nil {
		return "", 0, fmt.Errorf("state: %s: %w", tableBlobContents, err)
	}
	if raw != nil && raw.(*BlobContent).Shared != "" {
		c := *raw.(*BlobContent)
		n := tx.Seq()
		c.Uploads = c.Uploads.clone()
		c.Uploads.Live++
		c.Uploads.Fresh = append(c.Uploads.Fresh, n)
		if err := putContent(tx.mem, &c); err != nil {
			return "", 0, err
		}
		return c.Shared, n, addSharedBytes(tx.mem, int64(len(c.Data)))
	}
	id := tx.NewID()
	return id, 0, putBlob(tx, id, h, data, true)
}

func putContent(tx *memdb.Txn, c *BlobContent) error {
	if err := tx.Insert(tableBlobContents, c); err != nil {
		return fmt.Errorf("state: insert %s: %w", tableBlobContents, err)
	}
	return nil
}

// sharedContent is the content whose shared row is id (nil for rows that
// are not shared).
func sharedContent(tx *memdb.Txn, id string) *BlobContent {
	raw, _ := tx.First(tableBlobContents, IndexShared, id)
	if raw == nil {
		return nil
	}
	return raw.(*BlobContent)
}

// holdUpload counts one row more (delta 1) or less (-1) naming an upload
// of a shared row; an upload no row names any more is gone, and the bytes
// it stood for with it. Rows that are not shared are left alone.
func holdUpload(tx *Txn, h hold, delta int) error {
	cur := sharedContent(tx.mem, h.blob)
	if cur == nil {
		return nil
	}
	c := *cur
	s := c.Uploads.clone()
	c.Uploads = s
	var gone int64
	if delta > 0 {
		if i := slices.Index(s.Fresh, h.upload); i >= 0 {
			s.Fresh = slices.Delete(s.Fresh, i, i+1)
		} else if i := s.multi(h.upload); i >= 0 {
			s.Multi[i].Rows++
		} else {
			s.Multi = append(s.Multi, uploadRows{Upload: h.upload, Rows: 2})
		}
	} else {
		if i := s.multi(h.upload); i >= 0 {
			if s.Multi[i].Rows--; s.Multi[i].Rows < 2 {
				s.Multi = slices.Delete(s.Multi, i, i+1)
			}
		} else {
			s.Live--
			gone = int64(len(c.Data))
		}
	}
	if err := putContent(tx.mem, &c); err != nil {
		return err
	}
	return addSharedBytes(tx.mem, -gone)
}

// keepsUnnamedUploads reports whether a shared row whose last naming row
// let go still holds uploads stored in this write and not yet named.
func keepsUnnamedUploads(tx *Txn, id string) bool {
	c := sharedContent(tx.mem, id)
	return c != nil && c.Uploads != nil && len(c.Uploads.Fresh) > 0
}

// dropShared takes the shared row of c that is deleted out of the tally
// and out of c (a copy the caller stores).
func dropShared(tx *memdb.Txn, b *Blob, c *BlobContent) error {
	if c.Shared != b.ID {
		return nil
	}
	live := 1
	if c.Uploads != nil {
		live = c.Uploads.Live
	}
	c.Shared, c.Uploads = "", nil
	return addSharedBytes(tx, -int64(len(b.Data))*int64(live-1))
}

// rebuildUploadShares registers the shared rows with their contents and
// computes their uploads and the tally from the rows that name them
// (import). holds are the holds of every naming row. A shared row no row
// names counts as one upload not yet named. Should two shared rows have
// one content (a state made by hand), the first in id order is the one
// later uploads share.
func rebuildUploadShares(tx *memdb.Txn, holds []hold) error {
	rows := map[string]map[uint64]int{}
	for _, h := range holds {
		if rows[h.blob] == nil {
			rows[h.blob] = map[uint64]int{}
		}
		rows[h.blob][h.upload]++
	}
	it, err := tx.Get(TableBlobs, IndexID)
	if err != nil {
		return err
	}
	var shared []*Blob
	for raw := it.Next(); raw != nil; raw = it.Next() {
		if b := raw.(*Blob); b.Shared {
			shared = append(shared, b)
		}
	}
	var extra int64
	for _, b := range shared {
		raw, err := tx.First(tableBlobContents, IndexID, contentHash(b.Data))
		if err != nil {
			return err
		}
		if raw == nil || raw.(*BlobContent).Shared != "" {
			continue
		}
		s := &uploadShare{}
		uploads := rows[b.ID]
		keys := make([]uint64, 0, len(uploads))
		for u := range uploads {
			keys = append(keys, u)
		}
		slices.Sort(keys)
		for _, u := range keys {
			s.Live++
			if n := uploads[u]; n >= 2 {
				s.Multi = append(s.Multi, uploadRows{Upload: u, Rows: n})
			}
		}
		if s.Live == 0 {
			s.Live, s.Fresh = 1, []uint64{0}
		}
		c := *raw.(*BlobContent)
		c.Shared, c.Uploads = b.ID, s
		if err := tx.Insert(tableBlobContents, &c); err != nil {
			return err
		}
		extra += int64(len(b.Data)) * int64(s.Live-1)
	}
	return tx.Insert(tableBlobTally, &BlobTally{ID: tallyRowID, SharedBytes: extra})
}
