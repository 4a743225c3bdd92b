package legacy_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/legacy"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// FuzzNormalize: whatever form body a client sends, Normalize never panics
// and refuses only with an API error (a 4xx in the official envelope).
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{
		"signers[Client][name]=A&signers[0][name]=B",
		"signers[0][group]=G&signers[0][0][name]=A&signers[1][group]=H&signers[1][x]=1",
		"signers[A]=x&ccs[B][email_address]=b&custom_fields[C]=1&custom_fields[D][x]=2",
		`signer_list=[{"signers":{"A":{"name":"x"}},"custom_fields":{"c":"1"}},{"signers":[1]}]`,
		`signer_list=[{"signers":{"A":1}}]&signer_list_x=[[[[`,
		"signer_list[0][signers][A][name]=x&signer_list[1][signers][0][name]=y",
		"file_url=a&file_url[x]=b&template_id=t&domain=d&oauth[scopes]=a,,b",
		"oauth=x&domain[]=1&domains[]=2",
	} {
		f.Add(seed)
	}
	ops := []string{"signatureRequestSend", "signatureRequestSendWithTemplate", "signatureRequestBulkSendWithTemplate", "apiAppCreate"}
	f.Fuzz(func(t *testing.T, body string) {
		for _, op := range ops {
			r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			b, err := wire.ReadBody(r, wire.DefaultLimits)
			if err != nil {
				return
			}
			if err := legacy.Normalize(op, b); err != nil {
				if e, ok := apierr.As(err); !ok || e.Status() != http.StatusBadRequest {
					t.Fatalf("%s: %v is not a 400 API error", op, err)
				}
			}
		}
	})
}
