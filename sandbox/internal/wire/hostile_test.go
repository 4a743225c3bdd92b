package wire

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadBodyTrailingData: anything after the JSON value is a 400, also a
// stray closing bracket (which json.Decoder.More does not see).
func TestReadBodyTrailingData(t *testing.T) {
	for _, body := range []string{
		`{"locale":"en-US"}}}]garbage`,
		`{"a":1}]`,
		`{"a":1}}`,
		`{"a":1} {"b":2}`,
		`{"a":1}x`,
	} {
		_, err := ReadBody(jsonReq(body), DefaultLimits)
		requireAPIError(t, err, "", "unexpected data after the top-level value")
	}
	_, err := ReadBody(jsonReq("{\"a\":1} \r\n\t"), DefaultLimits)
	require.NoError(t, err)

	var v struct {
		L []string `json:"l"`
	}
	b, err := ReadBody(formReq(`l=["a"]]]`), DefaultLimits)
	require.NoError(t, err)
	requireAPIError(t, Decode(b, &v), "l", "not valid JSON")
}

// TestReadBodyDeepJSONRefusedWhileScanning: 100,000 levels are refused by
// the scan, before a decoder builds the first level.
func TestReadBodyDeepJSONRefusedWhileScanning(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
	allocs := testing.AllocsPerRun(3, func() {
		_, err := ReadBody(jsonReq(deep), DefaultLimits)
		requireAPIError(t, err, "", "nested more than 16 levels deep")
	})
	assert.Less(t, allocs, 200.0, "the refusal must not build the tree")

	many := `{"a":[` + strings.Repeat("1,", 200000) + `1]}`
	_, err := ReadBody(jsonReq(many), DefaultLimits)
	requireAPIError(t, err, "", "holds more than 100000 values")
}

func TestScanJSON(t *testing.T) {
	require.NoError(t, ScanJSON([]byte(`{"a":"[[[[[[\"]]]]"}`), 1, 0), "brackets in strings do not count")
	require.Error(t, ScanJSON([]byte(`[[1]]`), 1, 0))
	require.NoError(t, ScanJSON([]byte(`[[1]]`), 2, 0))
	require.NoError(t, ScanJSON([]byte(`[1,2,3]`), 0, 4))
	require.Error(t, ScanJSON([]byte(`[1,2,3,4,5]`), 0, 4))
}

// TestReadBodyFormKeyLimits: a key's length, depth and the number of fields
// are refused before the tree (or url.ParseQuery's map) is built.
func TestReadBodyFormKeyLimits(t *testing.T) {
	long := strings.Repeat("k", DefaultMaxKeyBytes+1)
	_, err := ReadBody(formReq(long+"=1"), DefaultLimits)
	requireAPIError(t, err, "", "longer than the limit of 512")
	_, err = ReadBody(multipartReq(t, part{name: long, data: "1"}), DefaultLimits)
	requireAPIError(t, err, "", "longer than the limit of 512")

	deep := "a" + strings.Repeat("[b]", 100)
	_, err = ReadBody(formReq(deep+"=1"), Limits{MaxBodyBytes: 1 << 20, MaxDepth: 16, MaxParams: 10, MaxKeyBytes: 4096})
	requireAPIError(t, err, deep, "nested more than 16 levels deep")

	allocs := testing.AllocsPerRun(2, func() {
		_, err = ReadBody(formReq(strings.Repeat("a&", 200000)), DefaultLimits)
		requireAPIError(t, err, "", "Too many parameters")
	})
	assert.Less(t, allocs, 200.0, "fields are counted before they are parsed")
}

// TestReadExactKeepsNoSpareCapacity: an upload is kept in a buffer of its
// size, whatever the reader's pace.
func TestReadExactKeepsNoSpareCapacity(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 70000, 3 << 20} {
		data := bytes.Repeat([]byte{'x'}, n)
		got, err := readExact(iotest.HalfReader(bytes.NewReader(data)))
		require.NoError(t, err)
		assert.Equal(t, n, len(got))
		assert.Equal(t, n, cap(got))
		assert.Equal(t, data, got)
	}
	b, err := ReadBody(multipartReq(t, part{name: "files[0]", filename: "a.pdf", data: strings.Repeat("x", 100000)}), DefaultLimits)
	require.NoError(t, err)
	assert.Equal(t, 100000, cap(b.Files["files"][0].Data))
}

// readExact reads r to its end through a borrowed scratch buffer, as the
// body readers do.
func readExact(r io.Reader) ([]byte, error) {
	s := borrowScratch()
	defer s.release()
	return s.readExact(r)
}
