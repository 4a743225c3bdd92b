package wire

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

func jsonReq(body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

func formReq(body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

// part is one multipart part; file parts have a filename.
type part struct {
	name, filename, contentType, data string
}

func multipartReq(t testing.TB, parts ...part) *http.Request {
	t.Helper()
	const boundary = "signsandbox-test-boundary"
	r := httptest.NewRequest(http.MethodPost, "/v3/x", bytes.NewReader(writtenForm(t, boundary, parts...)))
	r.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
	return r
}

// requireAPIError checks that err is a 400 bad_request naming path and
// whose message contains msg.
func requireAPIError(t *testing.T, err error, path, msg string) {
	t.Helper()
	require.Error(t, err)
	e, ok := apierr.As(err)
	require.True(t, ok, "not an *apierr.Error: %T %v", err, err)
	assert.Equal(t, apierr.BadRequest, e.Name)
	assert.Equal(t, http.StatusBadRequest, e.Status())
	assert.Equal(t, path, e.Path, "error_path of %q", e.Msg)
	assert.Contains(t, e.Msg, msg)
}

// treeJSON renders a tree for comparisons (maps sort their keys).
func treeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestReadBodyBracketNotation(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"signers", "signers[0][email_address]=a%40x.com&signers[0][name]=A&signers[1][email_address]=b%40x.com",
			`{"signers":[{"email_address":"a@x.com","name":"A"},{"email_address":"b@x.com"}]}`},
		{"append list", "cc_email_addresses[]=a%40x.com&cc_email_addresses[]=b%40x.com",
			`{"cc_email_addresses":["a@x.com","b@x.com"]}`},
		{"metadata map", "metadata[key]=v&metadata[other]=1",
			`{"metadata":{"key":"v","other":"1"}}`},
		{"nested option", "signing_options[draw]=1&signing_options[phone]=0",
			`{"signing_options":{"draw":"1","phone":"0"}}`},
		{"sparse indexes keep order", "signers[5][name]=F&signers[2][name]=C&signers[10][name]=K",
			`{"signers":[{"name":"C"},{"name":"F"},{"name":"K"}]}`},
		{"repeated plain key", "file_urls=a&file_urls=b", `{"file_urls":["a","b"]}`},
		{"three levels", "form_fields_per_document[0][0][api_id]=x", `{"form_fields_per_document":[[{"api_id":"x"}]]}`},
		{"empty value", "title=", `{"title":""}`},
		{"numeric and named keys make a map", "metadata[0]=1&metadata[b][c]=2", `{"metadata":{"0":"1","b":{"c":"2"}}}`},
		{"non-canonical index stays a key", "metadata[01]=a&metadata[1]=b", `{"metadata":{"01":"a","1":"b"}}`},
		{"plus sign index stays a key", "metadata[%2B1]=a", `{"metadata":{"+1":"a"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadBody(formReq(tc.body), DefaultLimits)
			require.NoError(t, err)
			assert.True(t, b.Form)
			assert.JSONEq(t, tc.want, treeJSON(t, b.Tree))

			// The same fields as multipart text parts give the same tree.
			vals, err := url.ParseQuery(tc.body)
			require.NoError(t, err)
			var parts []part
			for _, k := range sortedKeys(valuesTree(vals)) {
				for _, v := range vals[k] {
					parts = append(parts, part{name: k, data: v})
				}
			}
			b, err = ReadBody(multipartReq(t, parts...), DefaultLimits)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, treeJSON(t, b.Tree))
		})
	}
}

// valuesTree adapts url.Values for sortedKeys.
func valuesTree(v url.Values) map[string]any {
	m := map[string]any{}
	for k := range v {
		m[k] = nil
	}
	return m
}

func TestReadBodyConflictingKeys(t *testing.T) {
	cases := []struct{ name, body, path string }{
		{"scalar then map", "signers=x&signers[0][name]=A", "signers[0][name]"},
		{"map then scalar", "a[b]=1&a=2", "a[b]"},
		{"append then index", "cc_email_addresses[]=x&cc_email_addresses[0]=y", "cc_email_addresses[]"},
		{"append then key", "metadata[]=x&metadata[k]=y", "metadata[k]"},
		{"index then append", "cc_email_addresses[0]=y&cc_email_addresses[]=x", "cc_email_addresses[]"},
		{"append then scalar", "x[]=1&x=2", "x[]"},
		{"append in the middle", "signers[][name]=A", "signers[][name]"},
		{"unclosed bracket", "signers[0=A", "signers[0"},
		{"text after bracket", "signers[0]x=A", "signers[0]x"},
		{"no base name", "[0]=A", "[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadBody(formReq(tc.body), DefaultLimits)
			requireAPIError(t, err, tc.path, "")
		})
	}
}

func TestReadBodyJSON(t *testing.T) {
	b, err := ReadBody(jsonReq(`{"title":"T","n":12345678901234567890,"list":[1,"a",true,null],"o":{"k":1.5}}`), DefaultLimits)
	require.NoError(t, err)
	assert.False(t, b.Form)
	assert.Equal(t, json.Number("12345678901234567890"), b.Tree["n"], "numbers stay exact")
	assert.True(t, b.Has("title"))
	assert.False(t, b.Has("nothing"))

	// Bodies without a content type are read as JSON when they look like it.
	r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(`{"a":1}`))
	b, err = ReadBody(r, DefaultLimits)
	require.NoError(t, err)
	assert.Equal(t, json.Number("1"), b.Tree["a"])

	// An empty body is an empty tree, whatever the content type says.
	for _, ct := range []string{"", "application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
		r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(""))
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		b, err := ReadBody(r, DefaultLimits)
		require.NoError(t, err, ct)
		assert.Empty(t, b.Tree)
	}
	r = httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(`{"a":1}`))
	r.Header.Set("Content-Type", "application/json; charset=utf-8")
	_, err = ReadBody(r, DefaultLimits)
	require.NoError(t, err)
}

func TestReadBodyMalformed(t *testing.T) {
	cases := []struct {
		name, ct, body, msg string
		path                string
	}{
		{"broken json", "application/json", `{"a":`, "Invalid JSON body", ""},
		{"json array", "application/json", `[1,2]`, "top-level value must be an object", ""},
		{"json scalar", "application/json", `"x"`, "top-level value must be an object", ""},
		{"trailing data", "application/json", `{"a":1} {"b":2}`, "unexpected data", ""},
		{"syntax error offset", "application/json", `{"a" 1}`, "at byte", ""},
		{"unknown content type", "text/plain", `a=b`, "Unsupported Content-Type", ""},
		{"bad content type", "multipart/form-data; boundary", `x`, "Invalid Content-Type", ""},
		{"missing boundary", "multipart/form-data", `--x\r\n`, "missing boundary", ""},
		{"no content type and not json", "", `a=b`, "Missing Content-Type", ""},
		{"truncated multipart", "multipart/form-data; boundary=XYZ", "--XYZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue", "Malformed multipart body in part \"a\"", "a"},
		{"multipart without closing", "multipart/form-data; boundary=XYZ", "--XYZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XYZ", "Malformed multipart body", ""},
		{"multipart garbage", "multipart/form-data; boundary=XYZ", "not multipart at all", "Malformed multipart body", ""},
		{"bad percent escape", "application/x-www-form-urlencoded", "a=%zz", "Malformed form body", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(tc.body))
			if tc.ct != "" {
				r.Header.Set("Content-Type", tc.ct)
			}
			_, err := ReadBody(r, DefaultLimits)
			requireAPIError(t, err, tc.path, tc.msg)
		})
	}
}

func TestReadBodyLimits(t *testing.T) {
	lim := Limits{MaxBodyBytes: 100, MaxDepth: 3, MaxParams: 5}
	big := `{"a":"` + strings.Repeat("x", 200) + `"}`
	_, err := ReadBody(jsonReq(big), lim)
	requireAPIError(t, err, "", "larger than the limit of 100 bytes")

	_, err = ReadBody(formReq("a="+strings.Repeat("x", 200)), lim)
	requireAPIError(t, err, "", "larger than the limit")

	mp := multipartReq(t, part{name: "files[0]", filename: "a.pdf", data: strings.Repeat("x", 300)})
	_, err = ReadBody(mp, lim)
	requireAPIError(t, err, "", "larger than the limit")

	_, err = ReadBody(jsonReq(`{"a":{"b":{"c":{"d":1}}}}`), lim)
	requireAPIError(t, err, "", "nested more than 3 levels")
	_, err = ReadBody(jsonReq(`{"a":{"b":{"c":1}}}`), lim)
	require.NoError(t, err)

	_, err = ReadBody(formReq("a[b][c][d]=1"), lim)
	requireAPIError(t, err, "a[b][c][d]", "nested more than 3 levels")

	_, err = ReadBody(formReq("a=1&b=2&c=3&d=4&e=5&f=6"), lim)
	requireAPIError(t, err, "", "Too many parameters")

	var parts []part
	for i := 0; i < 7; i++ {
		parts = append(parts, part{name: "p", data: "1"})
	}
	_, err = ReadBody(multipartReq(t, parts...), Limits{MaxBodyBytes: 1 << 20, MaxDepth: 3, MaxParams: 5})
	requireAPIError(t, err, "", "Too many parameters")

	// A JSON string part of a multipart body is bounded by the same depth.
	deep := strings.Repeat("[", DefaultLimits.MaxDepth+2) + strings.Repeat("]", DefaultLimits.MaxDepth+2)
	b, err := ReadBody(multipartReq(t, part{name: "signers", data: deep}), DefaultLimits)
	require.NoError(t, err)
	var req struct {
		Signers []any `json:"signers"`
	}
	requireAPIError(t, Decode(b, &req), "signers", "nested too deeply")
}

func TestReadBodyMultipartFiles(t *testing.T) {
	r := multipartReq(t,
		part{name: "files[1]", filename: "b.pdf", contentType: "application/pdf", data: "B"},
		part{name: "files[0]", filename: "a.pdf", contentType: "application/pdf", data: "A"},
		part{name: "title", data: "T"},
		part{name: "signer_file", filename: "s.png", data: "S"},
		part{name: "test_mode", data: "1"},
	)
	b, err := ReadBody(r, DefaultLimits)
	require.NoError(t, err)
	require.Len(t, b.Files["files"], 2)
	assert.Equal(t, "a.pdf", b.Files["files"][0].Name)
	assert.Equal(t, "b.pdf", b.Files["files"][1].Name)
	assert.Equal(t, "A", string(b.Files["files"][0].Data))
	assert.True(t, b.Has("signer_file"))
	var req struct {
		Files      []File `json:"files"`
		SignerFile File   `json:"signer_file"`
		Title      string `json:"title"`
		TestMode   bool   `json:"test_mode"`
	}
	require.NoError(t, Decode(b, &req))
	assert.Equal(t, "T", req.Title)
	assert.True(t, req.TestMode)
	assert.Equal(t, "S", string(req.SignerFile.Data))

	// file[N] of older clients counts as files[N]; sparse indexes compact.
	b, err = ReadBody(multipartReq(t,
		part{name: "file[3]", filename: "d.pdf", data: "D"},
		part{name: "file[0]", filename: "a.pdf", data: "A"},
	), DefaultLimits)
	require.NoError(t, err)
	require.Len(t, b.Files["files"], 2)
	assert.Equal(t, "A", string(b.Files["files"][0].Data))
	assert.Equal(t, "D", string(b.Files["files"][1].Data))

	// files[] appends; a file part without filename is still a file.
	b, err = ReadBody(multipartReq(t,
		part{name: "files[]", filename: "a.pdf", data: "A"},
		part{name: "files[]", data: "B"},
	), DefaultLimits)
	require.NoError(t, err)
	require.Len(t, b.Files["files"], 2)

	_, err = ReadBody(multipartReq(t,
		part{name: "files[0]", filename: "a.pdf", data: "A"},
		part{name: "files[0]", filename: "b.pdf", data: "B"},
	), DefaultLimits)
	requireAPIError(t, err, "files[0]", "given twice")

	for _, name := range []string{"files[x]", "files[-1]", "files[100000]"} {
		_, err = ReadBody(multipartReq(t, part{name: name, filename: "a.pdf", data: "A"}), DefaultLimits)
		requireAPIError(t, err, name, "Invalid file parameter name")
	}

	b, err = ReadBody(multipartReq(t,
		part{name: "signer_file", filename: "a.png", data: "A"},
		part{name: "signer_file", filename: "b.png", data: "B"},
	), DefaultLimits)
	require.NoError(t, err)
	var one struct {
		SignerFile File `json:"signer_file"`
	}
	requireAPIError(t, Decode(b, &one), "signer_file", "Only one file")
}

func TestQueryTree(t *testing.T) {
	vals, err := url.ParseQuery("page=2&page_size=20&query=title%3ANDA&ids[]=a&ids[]=b&filter[k]=v")
	require.NoError(t, err)
	tree, err := QueryTree(vals, DefaultLimits)
	require.NoError(t, err)
	var q struct {
		Page     int               `json:"page"`
		PageSize int               `json:"page_size"`
		Query    string            `json:"query"`
		IDs      []string          `json:"ids"`
		Filter   map[string]string `json:"filter"`
	}
	require.NoError(t, DecodeTree(tree, &q))
	assert.Equal(t, 2, q.Page)
	assert.Equal(t, 20, q.PageSize)
	assert.Equal(t, "title:NDA", q.Query)
	assert.Equal(t, []string{"a", "b"}, q.IDs)
	assert.Equal(t, map[string]string{"k": "v"}, q.Filter)

	vals, _ = url.ParseQuery("page=1&page=2")
	tree, err = QueryTree(vals, DefaultLimits)
	require.NoError(t, err)
	requireAPIError(t, DecodeTree(tree, &q), "page", "must be an integer, not an array")
}

// TestCanonicalIndexIsTheAtoiRule: a key makes a list index exactly when
// strconv reads it as a non-negative int that it writes back the same way.
func TestCanonicalIndexIsTheAtoiRule(t *testing.T) {
	for _, k := range []string{"", "0", "00", "01", "1", "9", "10", "+1", "-0", "-1", "1_0", " 1", "1 ", "x", "0x1",
		"9223372036854775807", "9223372036854775808", "99999999999999999999", "name", "email_address"} {
		i, err := strconv.Atoi(k)
		want := err == nil && i >= 0 && strconv.Itoa(i) == k
		got, ok := canonicalIndex(k)
		assert.Equal(t, want, ok, "key %q", k)
		if want {
			assert.Equal(t, i, got, "key %q", k)
		}
	}
}
