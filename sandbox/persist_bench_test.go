package sandbox_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signsandbox/signsandbox/sandbox"
)

// BenchmarkJournaledWrite measures an API write (POST /v3/api_app,
// in-process) without a data directory and with each fsync policy.
func BenchmarkJournaledWrite(b *testing.B) {
	for _, c := range []struct {
		name string
		opts func(b *testing.B) []sandbox.Option
	}{
		{"memory", func(*testing.B) []sandbox.Option { return nil }},
		{"interval", func(b *testing.B) []sandbox.Option {
			return []sandbox.Option{sandbox.WithDataDir(b.TempDir(), "interval")}
		}},
		{"always", func(b *testing.B) []sandbox.Option {
			return []sandbox.Option{sandbox.WithDataDir(b.TempDir(), "always")}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s, err := sandbox.New(c.opts(b)...)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			key := s.DefaultAPIKey()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest(http.MethodPost, "/v3/api_app", strings.NewReader(fmt.Sprintf(`{"name":"app %d","domains":["example.com"]}`, i)))
				req.Header.Set("Content-Type", "application/json")
				req.SetBasicAuth(key, "")
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != http.StatusCreated {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
