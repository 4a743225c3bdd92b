package wire

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// fuzzLimits are small enough for the fuzzer to reach every limit.
var fuzzLimits = Limits{MaxBodyBytes: 1 << 16, MaxDepth: 8, MaxParams: 200}

// checkErr is the decoder's contract: an error is always an API error with a
// 4xx status, never anything that would become a 5xx.
func checkErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("error is not an *apierr.Error: %T %v", err, err)
	}
	if s := e.Status(); s < 400 || s > 499 {
		t.Fatalf("error status %d is not 4xx: %v", s, e)
	}
}

// seedBodies adds the captured SDK requests (when present) and typical
// bodies of every format to a fuzz corpus.
func seedBodies(f *testing.F, add func(ct string, body []byte)) {
	add("application/json", []byte(`{"signers":[{"email_address":"a@x.com","order":0}],"test_mode":"1","metadata":{"k":1}}`))
	add("application/x-www-form-urlencoded", []byte("signers[0][email_address]=a%40x.com&cc_email_addresses[]=b&metadata[k]=v&signing_options[draw]=1"))
	add("multipart/form-data; boundary=XYZ", []byte("--XYZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.pdf\"\r\n\r\n%PDF\r\n--XYZ\r\nContent-Disposition: form-data; name=\"signers\"\r\n\r\n[{\"name\":\"A\"}]\r\n--XYZ--\r\n"))
	add("", []byte(`{"a":[[[[1]]]]}`))
	add("text/plain", []byte("x"))
	raw, err := os.ReadFile(referencePathF("dropbox-sign/node-sdk-captured-requests.json"))
	if err != nil {
		return
	}
	for _, c := range parseCaptures(raw) {
		add(c.Headers["content-type"], []byte(strings.Replace(c.Body, "<PDF BYTES ELIDED>", elidedPDF+"\r\n", 1)))
	}
}

func FuzzReadBody(f *testing.F) {
	seedBodies(f, func(ct string, body []byte) { f.Add(ct, body) })
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		r := httptest.NewRequest("POST", "/v3/x", bytes.NewReader(body))
		if ct != "" {
			r.Header["Content-Type"] = []string{ct}
		}
		b, err := ReadBody(r, fuzzLimits)
		checkErr(t, err)
		if err != nil {
			return
		}
		var v typed
		checkErr(t, Decode(b, &v))
	})
}

// FuzzDecode feeds arbitrary JSON and form bodies to a struct that has every
// kind of field the handlers use.
func FuzzDecode(f *testing.F) {
	f.Add(true, `{"s":1,"b":"1","i":"2","l":"[\"a\"]","m":"{\"a\":\"b\"}","signers":[{"order":"1","opts":{"draw":"true"}}]}`)
	f.Add(false, "signers[0][order]=1&signers[1][opts][draw]=0&l[]=a&m[k]=v&li[]=1&u=3")
	f.Add(false, `signers=[{"email_address":"a","order":"x"}]`)
	f.Add(true, `{"f":"1e999","i8":300,"u":-1,"raw":{"a":[1]},"any":null}`)
	f.Fuzz(func(t *testing.T, isJSON bool, body string) {
		r := formReq(body)
		if isJSON {
			r = jsonReq(body)
		}
		b, err := ReadBody(r, fuzzLimits)
		checkErr(t, err)
		if err != nil {
			return
		}
		var v typed
		checkErr(t, Decode(b, &v))
		var q typed
		tree, err := QueryTree(r.URL.Query(), fuzzLimits)
		checkErr(t, err)
		if err == nil {
			checkErr(t, DecodeTree(tree, &q))
		}
	})
}

// FuzzFormKeys feeds arbitrary bracket-notation keys (and values) to the
// form reader: every answer is a tree or a 4xx, and a key the reader takes
// never nests deeper than the limit (plus the list a repeated key makes).
func FuzzFormKeys(f *testing.F) {
	f.Add("signers[0][email_address]", "a@x.com", "cc[]")
	f.Add("a[b][c][d][e][f][g][h][i]", "1", "a[b]")
	f.Add("a[", "1", "]")
	f.Add("a[0]", "x", "a[]")
	f.Add("a[01]", "x", "a[1]")
	f.Fuzz(func(t *testing.T, k1, v, k2 string) {
		vals := url.Values{}
		vals.Add(k1, v)
		vals.Add(k2, v)
		tree, err := QueryTree(vals, fuzzLimits)
		checkErr(t, err)
		// A repeated key becomes a list: one level more than its segments.
		if err == nil && treeDepth(tree) > fuzzLimits.MaxDepth+1 {
			t.Fatalf("tree of %q and %q is deeper than %d", k1, k2, fuzzLimits.MaxDepth+1)
		}
		body := url.Values{}
		body.Add(k1, v)
		body.Add(k2, v)
		_, err = ReadBody(formReq(body.Encode()), fuzzLimits)
		checkErr(t, err)
	})
}

// FuzzScanJSON checks the scan against the decoder: whatever the scan lets
// through decodes to a tree no deeper than the scan's limit.
func FuzzScanJSON(f *testing.F) {
	f.Add([]byte(`{"a":[[["\"]"]]]}`))
	f.Add([]byte(`[[[[[[[[[[1]]]]]]]]]]`))
	f.Add([]byte(`{"a":"\\"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if ScanJSON(raw, 4, 0) != nil {
			return
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return
		}
		if d := treeDepth(v); d > 4 {
			t.Fatalf("scan let %q through, %d levels deep", raw, d)
		}
	})
}

// treeDepth is the nesting of a decoded value (a scalar is 0).
func treeDepth(v any) int {
	d := 0
	switch t := v.(type) {
	case map[string]any:
		for _, c := range t {
			d = max(d, treeDepth(c))
		}
		return d + 1
	case []any:
		for _, c := range t {
			d = max(d, treeDepth(c))
		}
		return d + 1
	}
	return 0
}
