package wire

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPooledReadersKeepRequestsApart: the buffers bodies are read through
// are reused, so a body that stops half-way (leaving bytes buffered) or a
// long body must leave nothing behind that a later body could read, and
// what one body decoded must not change when the next is read.
func TestPooledReadersKeepRequestsApart(t *testing.T) {
	long, longer := strings.Repeat("L", 20000), strings.Repeat("M", scratchBytes+7000)
	first, err := ReadBody(multipartReq(t,
		part{name: "title", data: long},
		part{name: "message", data: longer},
		part{name: "files[0]", filename: "a.pdf", data: long + "A"},
		part{name: "files[1]", filename: "b.pdf", data: longer + "B"},
	), DefaultLimits)
	require.NoError(t, err)
	assert.Equal(t, len(longer)+1, cap(first.Files["files"][1].Data))

	// A body cut off inside a part: the reader is returned with bytes of
	// this request still in its buffer.
	cut := multipartReq(t, part{name: "message", data: strings.Repeat("C", 3000)}, part{name: "files[0]", filename: "c.pdf", data: "secret"})
	raw, err := io.ReadAll(cut.Body)
	require.NoError(t, err)
	truncated := httptest.NewRequest(http.MethodPost, "/v3/x", bytes.NewReader(raw[:len(raw)/2]))
	truncated.Header.Set("Content-Type", cut.Header.Get("Content-Type"))
	_, err = ReadBody(truncated, DefaultLimits)
	requireAPIError(t, err, "message", "Malformed multipart body")

	for range 3 {
		b, err := ReadBody(multipartReq(t,
			part{name: "title", data: "T"},
			part{name: "files[0]", filename: "b.pdf", data: "B"},
			part{name: "message", data: ""},
		), DefaultLimits)
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"title": "T", "message": ""}, b.Tree)
		require.Len(t, b.Files["files"], 1)
		assert.Equal(t, "B", string(b.Files["files"][0].Data))
		assert.Equal(t, 1, cap(b.Files["files"][0].Data))
	}
	// An empty multipart body after all that is still empty.
	empty := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(""))
	empty.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	b, err := ReadBody(empty, DefaultLimits)
	require.NoError(t, err)
	assert.Empty(t, b.Tree)
	assert.Empty(t, b.Files)

	assert.Equal(t, long, first.Tree["title"], "a later body changed what an earlier one decoded")
	assert.Equal(t, longer, first.Tree["message"], "a later body changed what an earlier one decoded")
	assert.Equal(t, long+"A", string(first.Files["files"][0].Data), "a later body changed an earlier upload")
	assert.Equal(t, longer+"B", string(first.Files["files"][1].Data), "a later body changed an earlier upload")
}

// TestScratchIsWipedOnRelease: a scratch buffer goes back to the pool
// holding none of the bytes it was lent for (release wipes, then puts).
func TestScratchIsWipedOnRelease(t *testing.T) {
	s := new(scratch)
	got, err := s.readExact(strings.NewReader("secret of one request"))
	require.NoError(t, err)
	assert.Equal(t, "secret of one request", string(got))
	s.wipe()
	assert.Zero(t, s.used)
	assert.Equal(t, make([]byte, scratchBytes), s.buf[:], "released scratch still holds request bytes")
}

// TestPooledReadersUnderConcurrency reads distinct bodies at once (run
// with -race): each must decode to exactly its own values.
func TestPooledReadersUnderConcurrency(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				want := fmt.Sprintf("%d-%d-%s", g, i, strings.Repeat("v", (g*977+i*131)%9000))
				r := multipartReq(t, part{name: "title", data: want}, part{name: "files[0]", filename: "f.pdf", data: want + "!"})
				b, err := ReadBody(r, DefaultLimits)
				if !assert.NoError(t, err) {
					return
				}
				assert.Equal(t, want, b.Tree["title"])
				assert.Equal(t, want+"!", string(b.Files["files"][0].Data))
			}
		}()
	}
	wg.Wait()
}
