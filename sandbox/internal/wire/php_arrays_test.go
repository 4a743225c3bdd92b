package wire

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// phpBody is the part of a request the PHP shapes touch.
type phpBody struct {
	Metadata map[string]any `json:"metadata"`
	Opts     *struct {
		Draw bool `json:"draw"`
	} `json:"opts"`
	CC      []string `json:"cc_email_addresses"`
	Signers []struct {
		Name  string `json:"name"`
		Email string `json:"email_address"`
		Order *int   `json:"order"`
	} `json:"signers"`
	Attachments []struct {
		SignerIndex int `json:"signer_index"`
	} `json:"attachments"`
	Fields any `json:"form_fields_per_document"`
}

// decodePHP reads a body as an API call does: PHP arrays, decode, and the
// error as it is answered (entries named by the client's keys).
func decodePHP(t *testing.T, b *Body) (phpBody, error) {
	t.Helper()
	var v phpBody
	err := b.ReadPHPArrays()
	if err == nil {
		err = Decode(b, &v)
	}
	if e, ok := apierr.As(err); ok {
		return v, b.KeyedError(e)
	}
	return v, err
}

// An empty PHP array where an object is expected is an empty object, in
// JSON and as the text of a multipart part (what the official PHP SDK sends
// for setMetadata([])); a non-empty array stays an error.
func TestPHPEmptyArrayIsAnEmptyObject(t *testing.T) {
	for _, req := range map[string]func() *Body{
		"json": func() *Body {
			b, err := ReadBody(jsonReq(`{"metadata":[],"opts":[]}`), DefaultLimits)
			require.NoError(t, err)
			return b
		},
		"multipart": func() *Body {
			b, err := ReadBody(multipartReq(t, part{name: "metadata", data: "[]"}, part{name: "opts", data: " [ ] "}), DefaultLimits)
			require.NoError(t, err)
			return b
		},
		"urlencoded": func() *Body {
			b, err := ReadBody(formReq("metadata=%5B%5D&opts=%5B%5D"), DefaultLimits)
			require.NoError(t, err)
			return b
		},
	} {
		v, err := decodePHP(t, req())
		require.NoError(t, err)
		assert.Empty(t, v.Metadata)
		require.NotNil(t, v.Opts, "given, as an empty object")
		assert.False(t, v.Opts.Draw)
	}
	for body, path := range map[string]string{
		`{"metadata":["a"]}`:   "metadata",
		`{"metadata":"[1]"}`:   "metadata",
		`{"opts":[{}]}`:        "opts",
		`{"metadata":"[oops"}`: "metadata",
	} {
		b, err := ReadBody(jsonReq(body), DefaultLimits)
		require.NoError(t, err)
		_, err = decodePHP(t, b)
		requireAPIError(t, err, path, "")
	}
}

// A list with gaps in its keys (PHP's array_filter) is read as its entries
// in index order, whatever the encoding; errors name the entries by their
// keys; other objects stay refused.
func TestPHPIndexedObjectIsAList(t *testing.T) {
	signers := `{"0":{"name":"A","email_address":"a@x.com"},"2":{"name":"C","email_address":"c@x.com"},"10":{"name":"K","email_address":"k@x.com"}}`
	bodies := map[string]*Body{}
	var err error
	bodies["json"], err = ReadBody(jsonReq(`{"signers":`+signers+`,"cc_email_addresses":{"1":"x@x.com","3":"y@x.com"}}`), DefaultLimits)
	require.NoError(t, err)
	bodies["multipart"], err = ReadBody(multipartReq(t, part{name: "signers", data: signers},
		part{name: "cc_email_addresses", data: `{"1":"x@x.com","3":"y@x.com"}`}), DefaultLimits)
	require.NoError(t, err)
	bodies["bracket form"], err = ReadBody(formReq("signers[10][name]=K&signers[10][email_address]=k%40x.com&signers[2][name]=C&signers[2][email_address]=c%40x.com"+
		"&signers[0][name]=A&signers[0][email_address]=a%40x.com&cc_email_addresses[3]=y%40x.com&cc_email_addresses[1]=x%40x.com"), DefaultLimits)
	require.NoError(t, err)
	for name, b := range bodies {
		t.Run(name, func(t *testing.T) {
			v, err := decodePHP(t, b)
			require.NoError(t, err)
			require.Len(t, v.Signers, 3)
			assert.Equal(t, []string{"A", "C", "K"}, []string{v.Signers[0].Name, v.Signers[1].Name, v.Signers[2].Name}, "in index order")
			assert.Equal(t, []string{"x@x.com", "y@x.com"}, v.CC)
		})
	}

	cases := []struct{ body, path, msg string }{
		{`{"signers":{"0":{"name":"A"},"2":{"order":"x"}}}`, "signers[2][order]", "must be an integer"},
		{`{"signers":{"0":{"name":"A"},"x":{"name":"B"}}}`, "signers", "must be an array, not an object"},
		{`{"signers":{"01":{"name":"A"}}}`, "signers", "must be an array, not an object"},
		{`{"signers":{"-1":{"name":"A"}}}`, "signers", "must be an array, not an object"},
		{`{"cc_email_addresses":{"a":"x@x.com"}}`, "cc_email_addresses", "must be an array"},
	}
	for _, tc := range cases {
		b, err := ReadBody(jsonReq(tc.body), DefaultLimits)
		require.NoError(t, err)
		_, err = decodePHP(t, b)
		requireAPIError(t, err, tc.path, tc.msg)
	}
	b, err := ReadBody(formReq("signers[0][name]=A&signers[3][order]=x"), DefaultLimits)
	require.NoError(t, err)
	_, err = decodePHP(t, b)
	requireAPIError(t, err, "signers[3][order]", "must be an integer")

	// An empty object where a list is expected is an empty list.
	b, err = ReadBody(jsonReq(`{"signers":{}}`), DefaultLimits)
	require.NoError(t, err)
	v, err := decodePHP(t, b)
	require.NoError(t, err)
	assert.Empty(t, v.Signers)
}

// The keys of a signer list with gaps are the indexes form fields and
// attachments name (the official PHP SDK's explicit index keys): each
// becomes the signer's position; a number naming no key is refused.
func TestPHPSignerKeysAreIndexes(t *testing.T) {
	fields := func(v any) []any {
		var out []any
		for _, f := range v.([]any) {
			out = append(out, f.(map[string]any)["signer"])
		}
		return out
	}
	signers := `{"1":{"name":"B","email_address":"b@x.com"},"4":{"name":"E","email_address":"e@x.com"}}`
	ffpd := `[{"api_id":"a","signer":1},{"api_id":"b","signer":"4"},{"api_id":"c","signer":"me_now"}]`
	att := `[{"signer_index":4}]`

	b, err := ReadBody(jsonReq(`{"signers":`+signers+`,"form_fields_per_document":`+ffpd+`,"attachments":`+att+`}`), DefaultLimits)
	require.NoError(t, err)
	v, err := decodePHP(t, b)
	require.NoError(t, err)
	assert.Equal(t, []any{json.Number("0"), json.Number("1"), "me_now"}, fields(v.Fields))
	assert.Equal(t, 1, v.Attachments[0].SignerIndex)

	b, err = ReadBody(multipartReq(t, part{name: "signers", data: signers}, part{name: "form_fields_per_document", data: ffpd},
		part{name: "attachments", data: att}), DefaultLimits)
	require.NoError(t, err)
	v, err = decodePHP(t, b)
	require.NoError(t, err)
	assert.Equal(t, []any{json.Number("0"), json.Number("1"), "me_now"}, fields(v.Fields))
	assert.Equal(t, 1, v.Attachments[0].SignerIndex)

	b, err = ReadBody(formReq("signers[1][name]=B&signers[4][name]=E&form_fields_per_document="+urlEscape(`[[{"api_id":"a","signer":4}]]`)), DefaultLimits)
	require.NoError(t, err)
	v, err = decodePHP(t, b)
	require.NoError(t, err)
	assert.Equal(t, json.Number("1"), v.Fields.([]any)[0].([]any)[0].(map[string]any)["signer"], "the list of lists per document too")

	b, err = ReadBody(jsonReq(`{"signers":`+signers+`,"form_fields_per_document":[{"api_id":"a","signer":0}]}`), DefaultLimits)
	require.NoError(t, err)
	_, err = decodePHP(t, b)
	requireAPIError(t, err, "form_fields_per_document[0][signer]", "signer 0 names no entry of signers, whose indexes are 1, 4")

	// The answer names the entries by the client's keys, in path and
	// message; other indexes stay as they are.
	b, err = ReadBody(jsonReq(`{"signers":`+signers+`,"form_fields_per_document":{"3":{"api_id":"a","signer":1},"7":{"api_id":"b","signer":9}}}`), DefaultLimits)
	require.NoError(t, err)
	_, err = decodePHP(t, b)
	requireAPIError(t, err, "form_fields_per_document[7][signer]", "signer 9 names no entry of signers")
	e := b.KeyedError(apierr.Badf("signers[1][x][0]", "signers[0] and signers[1][x][0] and cc[1]"))
	assert.Equal(t, "signers[4][x][0]", e.Path)
	assert.Equal(t, "signers[1] and signers[4][x][0] and cc[1]", e.Msg)

	// Metadata's keys are data: numbers there name no list entries.
	b, err = ReadBody(jsonReq(`{"metadata":{"1":"a","5":"b"},"signers":{"0":{"name":"A"},"oops":1}}`), DefaultLimits)
	require.NoError(t, err)
	require.NoError(t, b.ReadPHPArrays())
	assert.NotContains(t, b.ListKeys, "metadata")
	e = b.KeyedError(apierr.Badf("metadata[1]", "metadata[1] is too long"))
	assert.Equal(t, "metadata[1]", e.Path)

	// Without gaps nothing is renumbered.
	b, err = ReadBody(jsonReq(`{"signers":{"0":{"name":"A"},"1":{"name":"B"}},"form_fields_per_document":[{"api_id":"a","signer":1}]}`), DefaultLimits)
	require.NoError(t, err)
	v, err = decodePHP(t, b)
	require.NoError(t, err)
	assert.Equal(t, []any{json.Number("1")}, fields(v.Fields))
}
