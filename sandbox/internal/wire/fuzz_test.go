package wire

import (
	"bytes"
	"net/http/httptest"
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
