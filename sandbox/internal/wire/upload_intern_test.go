package wire

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepeatedUploadSharesItsBytes: a plain form whose upload equals a
// recent one's gets that upload's bytes rather than a copy; the bytes are
// the body's, of exactly their size, and stay so when the body's buffer
// is written over.
func TestRepeatedUploadSharesItsBytes(t *testing.T) {
	pdf := "%PDF-1.4 " + t.Name()
	send := func() []byte {
		return writtenForm(t, "XYZ",
			part{name: "files[0]", filename: "nda.pdf", contentType: "application/pdf", data: pdf},
			part{name: "title", data: "NDA"},
		)
	}
	lim := DefaultLimits
	lim.Uploads = new(UploadRing) // the world's
	read := func(raw []byte) []byte {
		t.Helper()
		b, err, plain := readAsPlainForm(raw, "XYZ", lim)
		require.True(t, plain)
		require.NoError(t, err)
		data := b.Files["files"][0].Data
		for i := range raw {
			raw[i] = 'x' // the scratch, reused by the next body
		}
		assert.Equal(t, pdf, string(data))
		assert.Equal(t, len(data), cap(data))
		return data
	}
	first, second := read(send()), read(send())
	assert.Same(t, &first[0], &second[0], "the second send shares the first one's upload")

	pdf = "%PDF-1.4 other " + t.Name()
	other := read(send())
	assert.NotSame(t, &first[0], &other[0], "another content has bytes of its own")

	lim.Uploads = new(UploadRing) // another world's
	elsewhere := read(send())
	assert.Equal(t, pdf, string(elsewhere))
	assert.NotSame(t, &other[0], &elsewhere[0], "another world's ring does not share this one's bytes")
	lim.Uploads = nil
	copied := read(send())
	assert.NotSame(t, &elsewhere[0], &copied[0], "without a ring every upload is a copy")
}

// TestUploadRing: equal uploads share bytes while they are among the last
// recentUploadSlots ones; empty and large uploads are copies, never kept.
func TestUploadRing(t *testing.T) {
	var r UploadRing
	in := []byte("same content")
	a := r.upload(in)
	in[0] = 'S' // the caller's buffer is not kept
	assert.Equal(t, "same content", string(a))
	b := r.upload([]byte("same content"))
	assert.Same(t, &a[0], &b[0])

	for i := range recentUploadSlots {
		r.upload(fmt.Appendf(nil, "filler %d", i))
	}
	c := r.upload([]byte("same content"))
	assert.Equal(t, "same content", string(c))
	assert.NotSame(t, &a[0], &c[0], "forgotten after recentUploadSlots others")

	empty := r.upload([]byte{})
	assert.NotNil(t, empty)
	assert.Empty(t, empty)

	large := bytes.Repeat([]byte("L"), maxRecentUpload+1)
	l1, l2 := r.upload(large), r.upload(large)
	assert.Equal(t, large, l1)
	assert.NotSame(t, &l1[0], &l2[0], "large uploads are not remembered")
	for _, s := range r.slots {
		assert.LessOrEqual(t, len(s), maxRecentUpload)
		assert.NotEmpty(t, s)
	}
}

// TestUploadRingConcurrent: requests of one world read uploads at once (go
// test -race checks the ring).
func TestUploadRingConcurrent(t *testing.T) {
	var r UploadRing
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				want := fmt.Sprintf("upload %d", (g+i)%6)
				got := r.upload([]byte(want))
				if string(got) != want {
					t.Errorf("got %q for %q", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
