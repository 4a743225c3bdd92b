package wire

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typed covers every kind of field the handlers use.
type typed struct {
	S      string            `json:"s"`
	B      bool              `json:"b"`
	I      int               `json:"i"`
	I8     int8              `json:"i8"`
	U      uint              `json:"u"`
	F      float64           `json:"f"`
	N      json.Number       `json:"n"`
	PS     *string           `json:"ps"`
	PB     *bool             `json:"pb"`
	PI     *int64            `json:"pi"`
	L      []string          `json:"l"`
	LI     []int             `json:"li"`
	M      map[string]string `json:"m"`
	MA     map[string]any    `json:"ma"`
	Any    any               `json:"any"`
	Raw    json.RawMessage   `json:"raw"`
	Nested []struct {
		Email string `json:"email_address"`
		Order *int   `json:"order"`
		Opts  struct {
			Draw bool `json:"draw"`
		} `json:"opts"`
	} `json:"signers"`
	Custom custom `json:"custom"`
	Embedded
	Skipped string `json:"-"`
}

// Embedded fields decode from the same level.
type Embedded struct {
	E string `json:"e"`
}

// custom implements Unmarshaler (an int-or-string field).
type custom struct{ v string }

func (c *custom) UnmarshalWire(v any, path string) error {
	switch t := v.(type) {
	case string:
		c.v = "s:" + t
	case json.Number:
		c.v = "n:" + string(t)
	}
	return nil
}

func decodeJSON(t *testing.T, body string) (typed, error) {
	t.Helper()
	b, err := ReadBody(jsonReq(body), DefaultLimits)
	require.NoError(t, err)
	var v typed
	return v, Decode(b, &v)
}

func decodeForm(t *testing.T, body string) (typed, error) {
	t.Helper()
	b, err := ReadBody(formReq(body), DefaultLimits)
	require.NoError(t, err)
	var v typed
	return v, Decode(b, &v)
}

func TestDecodeBooleans(t *testing.T) {
	for _, in := range []string{"true", "1", "True", "TRUE", " true "} {
		v, err := decodeForm(t, "b="+in+"&pb="+in)
		require.NoError(t, err, in)
		assert.True(t, v.B, in)
		assert.True(t, *v.PB, in)
	}
	for _, in := range []string{"false", "0", "False", ""} {
		v, err := decodeForm(t, "b="+in+"&pb="+in)
		require.NoError(t, err, in)
		assert.False(t, v.B, in)
		require.NotNil(t, v.PB)
		assert.False(t, *v.PB, in)
	}
	for _, in := range []string{`true`, `1`, `"true"`, `"1"`, `"True"`} {
		v, err := decodeJSON(t, `{"b":`+in+`}`)
		require.NoError(t, err, in)
		assert.True(t, v.B, in)
	}
	for _, in := range []string{`false`, `0`, `"false"`, `"0"`, `null`} {
		v, err := decodeJSON(t, `{"b":`+in+`}`)
		require.NoError(t, err, in)
		assert.False(t, v.B, in)
	}
	for _, in := range []string{`"yes"`, `2`, `[]`, `{}`, `1.0`} {
		_, err := decodeJSON(t, `{"b":`+in+`}`)
		requireAPIError(t, err, "b", "must be a boolean")
	}
	_, err := decodeForm(t, "b=on")
	requireAPIError(t, err, "b", "must be a boolean")
}

func TestDecodeIntegers(t *testing.T) {
	v, err := decodeJSON(t, `{"i":"42","i8":-8,"u":"7","pi":"1700000000","li":["1",2,"3.0"],"f":"1.5","n":"12"}`)
	require.NoError(t, err)
	assert.Equal(t, 42, v.I)
	assert.Equal(t, int8(-8), v.I8)
	assert.Equal(t, uint(7), v.U)
	assert.Equal(t, int64(1700000000), *v.PI)
	assert.Equal(t, []int{1, 2, 3}, v.LI)
	assert.Equal(t, 1.5, v.F)
	assert.Equal(t, json.Number("12"), v.N)

	v, err = decodeForm(t, "i=%2012%20&li[]=4&li[]=5")
	require.NoError(t, err)
	assert.Equal(t, 12, v.I)
	assert.Equal(t, []int{4, 5}, v.LI)

	cases := []struct{ body, path, msg string }{
		{`{"i":"abc"}`, "i", "must be an integer"},
		{`{"i":1.5}`, "i", "must be an integer"},
		{`{"i":true}`, "i", "not a boolean"},
		{`{"i":{}}`, "i", "not an object"},
		{`{"i":[1]}`, "i", "not an array"},
		{`{"i8":300}`, "i8", "out of range"},
		{`{"u":-1}`, "u", "out of range"},
		{`{"i":99999999999999999999}`, "i", "must be an integer"},
		{`{"li":[1,"x"]}`, "li[1]", "must be an integer"},
		{`{"f":"NaN"}`, "f", "must be a number"},
		{`{"f":"1e999"}`, "f", "must be a number"},
		{`{"n":"abc"}`, "n", "must be a number"},
		{`{"signers":[{"order":0},{"order":"first"}]}`, "signers[1][order]", "must be an integer"},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			_, err := decodeJSON(t, tc.body)
			requireAPIError(t, err, tc.path, tc.msg)
		})
	}
}

func TestDecodeShapes(t *testing.T) {
	v, err := decodeJSON(t, `{"s":12,"ps":null,"l":"one","m":{"a":"b"},"ma":"{\"k\":1}","any":[1],"raw":{"x":[1,2]},"e":"emb","custom":"x","-":"no","Skipped":"no"}`)
	require.NoError(t, err)
	assert.Equal(t, "12", v.S, "a number where a string is expected is its text")
	assert.Nil(t, v.PS)
	assert.Equal(t, []string{"one"}, v.L, "a single value is a list of one")
	assert.Equal(t, map[string]string{"a": "b"}, v.M)
	assert.Equal(t, map[string]any{"k": json.Number("1")}, v.MA, "an object may come as JSON text")
	assert.Equal(t, []any{json.Number("1")}, v.Any)
	assert.JSONEq(t, `{"x":[1,2]}`, string(v.Raw))
	assert.Equal(t, "emb", v.E)
	assert.Equal(t, "s:x", v.Custom.v)
	assert.Empty(t, v.Skipped)

	// An SDK multipart part holds JSON text for arrays and objects.
	v, err = decodeForm(t, `signers=`+urlEscape(`[{"email_address":"a@x.com","order":"1","opts":{"draw":"1"}}]`)+`&l=`+urlEscape(`["a","b"]`))
	require.NoError(t, err)
	require.Len(t, v.Nested, 1)
	assert.Equal(t, "a@x.com", v.Nested[0].Email)
	assert.Equal(t, 1, *v.Nested[0].Order)
	assert.True(t, v.Nested[0].Opts.Draw)
	assert.Equal(t, []string{"a", "b"}, v.L)

	cases := []struct{ body, path, msg string }{
		{`{"s":{"a":1}}`, "s", "must be a string, not an object"},
		{`{"s":[]}`, "s", "must be a string, not an array"},
		{`{"l":{"a":1}}`, "l", "must be an array, not an object"},
		{`{"m":[1]}`, "m", "must be an object, not an array"},
		{`{"m":"text"}`, "m", "must be an object, not a string"},
		{`{"m":{"k":[1]}}`, "m[k]", "must be a string"},
		{`{"l":"[1,"}`, "l", "is not valid JSON"},
		{`{"m":"{\"a\":"}`, "m", "is not valid JSON"},
		{`{"signers":[{"opts":{"draw":"maybe"}}]}`, "signers[0][opts][draw]", "must be a boolean"},
		{`{"signers":[{"opts":[1]}]}`, "signers[0][opts]", "must be an object"},
		{`{"signers":{"email_address":"x"}}`, "signers", "must be an array"},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			_, err := decodeJSON(t, tc.body)
			requireAPIError(t, err, tc.path, tc.msg)
		})
	}

	// Bracket-notation errors carry the bracket path of the form field.
	_, err = decodeForm(t, "signers[0][order]=1&signers[1][order]=x")
	requireAPIError(t, err, "signers[1][order]", "must be an integer")
	_, err = decodeForm(t, "m[a][b]=1")
	requireAPIError(t, err, "m[a]", "must be a string, not an object")
}

func TestDecodeNulls(t *testing.T) {
	v, err := decodeJSON(t, `{"s":null,"l":null,"m":null,"signers":null,"pi":null,"any":null}`)
	require.NoError(t, err)
	assert.Empty(t, v.S)
	assert.Nil(t, v.L)
	assert.Nil(t, v.M)
	assert.Nil(t, v.PI)
	assert.Nil(t, v.Any)
}

func urlEscape(s string) string {
	out := make([]byte, 0, len(s)*3)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			out = append(out, c)
			continue
		}
		out = append(out, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
	}
	return string(out)
}

func TestCheckKnown(t *testing.T) {
	var req struct {
		Clock string `json:"clock"`
		Time  string `json:"time"`
		Embedded
		Files []File `json:"files"`
	}
	b, err := ReadBody(jsonReq(`{"clock":"fake","e":"x"}`), DefaultLimits)
	require.NoError(t, err)
	require.NoError(t, CheckKnown(b, &req))

	b, err = ReadBody(jsonReq(`{"clok":"fake","zz":1,"time":"x"}`), DefaultLimits)
	require.NoError(t, err)
	err = CheckKnown(b, &req)
	requireAPIError(t, err, "clok", `Unknown parameter "clok" (known parameters: clock, e, files, time)`)

	b, err = ReadBody(multipartReq(t, part{name: "file[0]", filename: "a.pdf", data: "x"}, part{name: "doc[0]", filename: "b.pdf", data: "x"}), DefaultLimits)
	require.NoError(t, err)
	requireAPIError(t, CheckKnown(b, &req), "doc", `Unknown parameter "doc"`)
}
