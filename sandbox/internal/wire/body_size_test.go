package wire

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingBody counts the bytes a reader of the body took.
type countingBody struct {
	r    io.Reader
	read int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}

func (c *countingBody) Close() error { return nil }

// endless is a body that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// A body that declares more than the limit is refused before any of it is
// read; one that declares nothing (chunked) is read only up to the limit.
func TestBodyOverTheLimitIsRefusedWithoutBeingHeld(t *testing.T) {
	lim := Limits{MaxBodyBytes: 1 << 20, MaxDepth: 16, MaxParams: 100}
	for _, ct := range []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
		body := &countingBody{r: endless{}}
		r := httptest.NewRequest(http.MethodPost, "/v3/x", nil)
		r.Body, r.ContentLength = body, 70<<20
		r.Header.Set("Content-Type", ct)
		_, err := ReadBody(r, lim)
		requireAPIError(t, err, "", "larger than the limit of 1048576 bytes")
		assert.Zero(t, body.read, "%s: declared too large, nothing read", ct)

		// Chunked: a form part that never ends, or a JSON or form body.
		head := ""
		if strings.HasPrefix(ct, "multipart/") {
			head = "--x\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n"
		}
		body = &countingBody{r: io.MultiReader(strings.NewReader(head), endless{})}
		r.Body, r.ContentLength = body, -1
		_, err = ReadBody(r, lim)
		requireAPIError(t, err, "", "larger than the limit of 1048576 bytes")
		assert.LessOrEqual(t, body.read, lim.MaxBodyBytes+64<<10, "%s: chunked, read up to the limit", ct)
	}
}

// A body of a declared length is read into one slice of that length: a
// JSON body of 8 MiB costs the body and the tree, not chunks and their
// copy and the decoder's copy besides.
func TestDeclaredBodyIsReadOnce(t *testing.T) {
	big := strings.Repeat("a", 8<<20)
	raw := []byte(`{"title":"` + big + `"}`)
	lim := Limits{MaxBodyBytes: 64 << 20, MaxDepth: 16, MaxParams: 100}
	req := jsonReq(string(raw))
	var before, after runtimeBytes
	before.read()
	b, err := ReadBody(req, lim)
	after.read()
	require.NoError(t, err)
	require.Len(t, b.Tree["title"], len(big))
	assert.Less(t, after.total-before.total, uint64(2*len(raw))+1<<20, "the body and the tree's string")

	// Chunked, the same body is gathered and copied once.
	r := httptest.NewRequest(http.MethodPost, "/v3/x", io.NopCloser(bytes.NewReader(raw)))
	r.ContentLength = -1
	r.Header.Set("Content-Type", "application/json")
	b, err = ReadBody(r, lim)
	require.NoError(t, err)
	require.Len(t, b.Tree["title"], len(big))

	// A declared length the body does not reach, or goes past, is an error.
	r = httptest.NewRequest(http.MethodPost, "/v3/x", io.NopCloser(strings.NewReader(string(raw[:100<<10]))))
	r.ContentLength = int64(len(raw))
	r.Header.Set("Content-Type", "application/json")
	_, err = ReadBody(r, lim)
	requireAPIError(t, err, "", "Could not read the request body")
	r = httptest.NewRequest(http.MethodPost, "/v3/x", io.NopCloser(strings.NewReader(string(raw))))
	r.ContentLength = 100 << 10
	r.Header.Set("Content-Type", "application/json")
	_, err = ReadBody(r, lim)
	requireAPIError(t, err, "", "longer than its Content-Length")
}

// A long text part of a multipart body is built into its string from the
// chunks it came in, without a contiguous copy of them first.
func TestLongTextPartIsBuiltOnce(t *testing.T) {
	big := strings.Repeat("b", 8<<20)
	r := multipartReq(t, part{name: "title", data: big})
	var before, after runtimeBytes
	before.read()
	b, err := ReadBody(r, Limits{MaxBodyBytes: 64 << 20, MaxDepth: 16, MaxParams: 100})
	after.read()
	require.NoError(t, err)
	require.Equal(t, big, b.Tree["title"])
	assert.Less(t, after.total-before.total, uint64(2*len(big))+2<<20, "the chunks and the string")
}
