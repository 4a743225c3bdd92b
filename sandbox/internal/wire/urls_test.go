package wire

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckCallbackURL(t *testing.T) {
	for _, ok := range []string{
		"https://example.com/cb", "http://127.0.0.1:8080/x?y=1", "http://[::1]:1/", "https://h:65535",
		"https://example.com/" + strings.Repeat("a", MaxCallbackURLBytes-len("https://example.com/")),
	} {
		assert.Empty(t, CheckCallbackURL(ok), ok)
	}
	for bad, why := range map[string]string{
		"ftp://example.com/x":       "absolute http or https",
		"/relative":                 "absolute http or https",
		"http://":                   "absolute http or https",
		"http://:80/":               "absolute http or https",
		"mailto:a@example.com":      "absolute http or https",
		"http://example.com:99999/": "between 1 and 65535",
		"http://example.com:0/":     "between 1 and 65535",
		"http://example.com:/":      "between 1 and 65535",
		"https://example.com/" + strings.Repeat("a", MaxCallbackURLBytes): "at most 2048 characters",
	} {
		assert.Contains(t, CheckCallbackURL(bad), why, bad)
	}
}

// FuzzCheckCallbackURL: whatever the check accepts is an absolute http(s)
// URL with a host, a port of 1..65535 when one is given, and within the
// length limit.
func FuzzCheckCallbackURL(f *testing.F) {
	for _, s := range []string{"https://example.com/cb", "http://[::1]:99999/", "http://a:0", "http://%zz", "javascript:alert(1)", "http://a:+80/", "http:///x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckCallbackURL(s) != "" {
			return
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || len(s) > MaxCallbackURLBytes {
			t.Fatalf("accepted %q", s)
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				t.Fatalf("accepted port %q in %q", p, s)
			}
		}
	})
}
