package wire

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// MaxCallbackURLBytes bounds a callback URL. Browsers and servers commonly
// stop at 2,048 characters, and a callback URL is stored, exported and sent
// to with every event, so a longer one is refused rather than kept.
const MaxCallbackURLBytes = 2048

// CheckCallbackURL returns why v cannot be a callback URL, or "": it must
// be an absolute http or https URL with a host, a port (when given) between
// 1 and 65535, and at most MaxCallbackURLBytes long.
func CheckCallbackURL(v string) string {
	if len(v) > MaxCallbackURLBytes {
		return fmt.Sprintf("a callback URL is at most %d characters (got %d)", MaxCallbackURLBytes, len(v))
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return "a callback URL must be an absolute http or https URL"
	}
	if strings.HasSuffix(u.Host, ":") {
		return "the port of a callback URL must be a number between 1 and 65535"
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return "the port of a callback URL must be a number between 1 and 65535"
		}
	}
	return ""
}
