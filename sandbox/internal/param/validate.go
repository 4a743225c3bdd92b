package param

import (
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// locales are the supported locale values; they are case-sensitive.
var locales = []string{
	"en-US", "en-GB", "da-DK", "de-DE", "es-LA", "es-ES", "fr-FR", "id-ID", "it-IT", "ja-JP", "ko-KR",
	"ms-MY", "nb-NO", "nl-NL", "pl-PL", "pt-BR", "ru-RU", "sv-SE", "th-TH", "uk-UA", "zh-CN", "zh-TW",
}

// CheckLocale refuses a locale the real API does not know, naming path and
// listing the ones it does.
func CheckLocale(path, v string) error {
	if !slices.Contains(locales, v) {
		return apierr.Badf(path, "Invalid locale %q: use one of %s (case-sensitive).", v, strings.Join(locales, ", "))
	}
	return nil
}

// emailPattern is what the sandbox accepts as an e-mail address: one @, a
// dotted domain, no spaces. net/mail alone accepts display names and
// addresses without a domain dot.
var emailPattern = regexp.MustCompile(`^[^@\s<>(),;:"\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$`)

// ValidEmail reports whether v is a plain e-mail address.
func ValidEmail(v string) bool {
	if len(v) <= 254 && commonEmail(v) {
		return true
	}
	if len(v) > 254 || !emailPattern.MatchString(v) {
		return false
	}
	a, err := mail.ParseAddress(v)
	return err == nil && a.Address == v
}

// CheckEmail requires an e-mail address at path: missing when blank,
// invalid when ValidEmail refuses it.
func CheckEmail(path, v string) error {
	if strings.TrimSpace(v) == "" {
		return apierr.Missing(path)
	}
	if !ValidEmail(v) {
		return apierr.Badf(path, "Invalid email address: %s", v)
	}
	return nil
}

// CheckCallbackURL refuses anything but an absolute http(s) URL with a host,
// a valid port and a bounded length (wire.CheckCallbackURL).
func CheckCallbackURL(path, v string) error {
	if why := wire.CheckCallbackURL(v); why != "" {
		return apierr.Badf(path, "Invalid URL %q: %s.", Shorten(v), why)
	}
	return nil
}

// Shorten keeps a value echoed in an error message short.
func Shorten(v string) string {
	if len(v) > 200 {
		return v[:200] + "..."
	}
	return v
}

// CheckMaxLen refuses a string longer than max characters.
func CheckMaxLen(path, v string, max int) error {
	if n := len([]rune(v)); n > max {
		return apierr.Badf(path, "%s must be at most %d characters (got %d).", path, max, n)
	}
	return nil
}

// CheckRedirectURL accepts an absolute http(s) URL, or nothing: the
// redirect parameters (signing_redirect_url, requesting_redirect_url) are
// optional.
func CheckRedirectURL(path, v string) *apierr.Error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apierr.Badf(path, "%s must be an absolute http or https URL.", path)
	}
	return nil
}
