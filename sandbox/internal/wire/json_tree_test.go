package wire

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decoded is what encoding/json's decoder with UseNumber gives for raw.
func decoded(t testing.TB, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

var jsonTreeCases = []string{
	`{}`, `[]`, `{"a":[]}`, ` { "a" : 1 , "b" : [ 1 , 2.5e3 , -0 , true , false , null ] } `,
	`{"title":"plain","n":12345678901234567890123,"f":1E-7}`,
	`{"esc":"a\"b\\c\/d\b\f\n\r\t","u":"\u00e9\u263a\ud83d\ude00","lone":"\ud800x"}`,
	"{\"bad\":\"a\xffb\xc3\",\"ok\":\"\xc3\xa9\"}",
	`{"dup":1,"dup":{"x":[{"y":null}]}}`,
	`{"metadata":{"k":"v"},"signers":[{"name":"A","email_address":"a@example.com","order":0}]}`,
	`"top"`, `1`, `null`, `[{"a":"\\"}]`,
}

// A valid document's tree is what the decoder builds, value for value.
func TestJSONTreeIsWhatTheDecoderGives(t *testing.T) {
	for _, c := range jsonTreeCases {
		raw := []byte(c)
		require.True(t, json.Valid(raw), c)
		assert.Equal(t, decoded(t, raw), jsonTree(raw), c)
	}
}

func FuzzJSONTreeIsWhatTheDecoderGives(f *testing.F) {
	for _, c := range jsonTreeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) || ScanJSON(raw, 64, 100000) != nil {
			return
		}
		assert.Equal(t, decoded(t, raw), jsonTree(raw))
	})
}

// A body of one long string holds the body and the string, not the
// decoder's copy of the document besides.
func TestJSONBodyHoldsTheBodyAndTheTreeOnly(t *testing.T) {
	big := strings.Repeat("a", 8<<20)
	body := []byte(`{"title":"` + big + `"}`)
	lim := DefaultLimits
	// Averaged over runs: an allocation of the runtime's own during one
	// run (a loaded machine) must not count as the parse's.
	allocs := testing.AllocsPerRun(10, func() {
		m, err := parseJSONObject(body, lim)
		require.NoError(t, err)
		require.Len(t, m["title"], len(big))
	})
	assert.LessOrEqual(t, allocs, 6.0)
	var before, after runtimeBytes
	before.read()
	m, err := parseJSONObject(body, lim)
	after.read()
	require.NoError(t, err)
	require.Len(t, m["title"], len(big))
	assert.Less(t, after.total-before.total, uint64(len(big))+1<<20, "the tree's string and little more")
}

// runtimeBytes is the bytes allocated so far (runtime.MemStats.TotalAlloc).
type runtimeBytes struct{ total uint64 }

func (r *runtimeBytes) read() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r.total = ms.TotalAlloc
}
