package wire

import (
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
