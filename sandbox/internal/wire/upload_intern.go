package wire

import (
	"bytes"
	"sync"
)

// Uploads are sent again and again with the same bytes: a test suite or a
// load test uploads the same few documents with every request, and the
// world stores each content once (the state layer shares a content's
// bytes among the uploads that carry it). Copying each upload out of the
// body's borrowed buffer allocated its whole size per request only for
// the copy to be dropped by the store a moment later: for a send with an
// 8 KB document, about a tenth of all the send allocated, and with it of
// how often the collector runs in a big world.
//
// An UploadRing keeps the last few uploads read from plain forms; an upload
// equal to one of them gets that one's bytes instead of a copy. Each world
// has its own (the request pipeline passes it in Limits.Uploads), so that
// no bytes pass from one world to another. The bytes of an upload are never
// written once read (no reader of a File's Data changes it, and an append
// to a slice of exactly its size copies), so two requests may hold the same
// slice. Holding them costs nothing while the world keeps the content (the
// store keeps the same slice); once it drops the content, at most
// recentUploadSlots uploads stay alive in its ring until newer uploads take
// their slots or the world goes. Only bodies read whole into the scratch
// buffer (scratchBytes, 32 KiB) are read as plain forms, so today that is at
// most 128 KiB a world; maxRecentUpload keeps the bound if that buffer ever
// grows.
const (
	// recentUploadSlots is how many distinct uploads are remembered: a
	// send of a few documents finds all of them.
	recentUploadSlots = 4
	// maxRecentUpload bounds the size of a remembered upload, so that
	// what stays alive here is small next to a world.
	maxRecentUpload = 512 << 10
)

// UploadRing is a small ring of recent uploads, safe for concurrent use;
// the zero value is ready.
type UploadRing struct {
	mu    sync.Mutex
	slots [recentUploadSlots][]byte
	next  int
}

// upload answers bytes equal to p that the caller may keep (p itself is
// not kept): a remembered upload's when one is equal, else a copy of
// exactly p's size, which is then remembered unless empty or too large.
// A nil ring copies every upload.
func (r *UploadRing) upload(p []byte) []byte {
	keep := r != nil && len(p) > 0 && len(p) <= maxRecentUpload
	if keep {
		r.mu.Lock()
		slots := r.slots
		r.mu.Unlock()
		// The remembered slices are never written: compared without the
		// lock.
		for _, s := range slots {
			if len(s) == len(p) && bytes.Equal(s, p) {
				return s
			}
		}
	}
	c := make([]byte, len(p))
	copy(c, p)
	if !keep {
		return c
	}
	r.mu.Lock()
	r.slots[r.next] = c
	r.next = (r.next + 1) % recentUploadSlots
	r.mu.Unlock()
	return c
}
