package bulk_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// FuzzBulkSendCSV feeds arbitrary signer files to a bulk send with a
// template: every answer is a 200 or a 4xx in the official envelope, never
// a 5xx, whatever the CSV (quotes, BOMs, ragged rows, binary).
func FuzzBulkSendCSV(f *testing.F) {
	for _, s := range []string{
		"name,email_address,company\nGeorge,george@example.com,ABC Corp\nMary,mary@example.com,123 LLC\n",
		"\xef\xbb\xbfname,email_address\r\n\"Quoted, name\",q@example.com\r\n",
		"name,email_address\n\"unterminated,a@example.com\n",
		"name,email_address,company,extra\nA,a@example.com\nB,b@example.com,x,y,z\n",
		"email_address\n" + "a@example.com\n",
		"",
		"\x00\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	srv := sandboxtest.NewServer(fuzzServerTB{f}, sandbox.WithOfflineFiles())
	var once sync.Once
	var tid string
	f.Fuzz(func(t *testing.T, csv []byte) {
		once.Do(func() { tid = apitest.BulkTemplate(t, srv) })
		fields := map[string]any{"template_ids": []string{tid}, "test_mode": true,
			"ccs": []map[string]any{{"role": "Accounting", "email_address": "accounting@example.com"}}}
		r := apitest.BulkSendCSV(t, srv, "bulk_send_with_template", fields, csv)
		if r.Status == http.StatusOK {
			return
		}
		if r.Status < 400 || r.Status > 499 {
			t.Fatalf("status %d for %q: %.300s", r.Status, csv, r.Body)
		}
		name, _, _ := apitest.ErrorParts(t, r.Body)
		if !apierr.Known(apierr.Name(name)) {
			t.Fatalf("error_name %q is not in the vocabulary", name)
		}
	})
}

// fuzzServerTB lets a fuzz target share one test server across its inputs:
// the server's helpers may not call f.Helper inside the fuzz function, so
// Helper does nothing and Fatalf panics (which fails the input).
type fuzzServerTB struct{ f *testing.F }

func (fuzzServerTB) Helper() {}

func (fuzzServerTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

func (b fuzzServerTB) Cleanup(fn func()) { b.f.Cleanup(fn) }
