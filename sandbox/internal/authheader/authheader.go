package authheader

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// Credentials are what an Authorization header carries.
type Credentials struct {
	APIKey string
	Token  string
}

// Parse reads the Authorization header: HTTP Basic with the API
// key as user name (clients that put the key in the URL's user-info send the
// same header), or Bearer with an OAuth access token. ok is false when no
// header was sent.
func Parse(r *http.Request) (creds Credentials, ok bool, err *apierr.Error) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return Credentials{}, false, nil
	}
	scheme, rest, _ := strings.Cut(h, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(scheme) {
	case "basic":
		raw, decErr := base64.StdEncoding.DecodeString(rest)
		if decErr != nil {
			return Credentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. The Authorization header is not valid HTTP Basic credentials.").
				Because("the Basic credentials are not base64")
		}
		user, _, _ := strings.Cut(string(raw), ":")
		if user == "" {
			return Credentials{}, true, apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedNoCredentials).
				Because("the Basic credentials carry no API key (an empty user name)")
		}
		return Credentials{APIKey: user}, true, nil
	case "bearer":
		if rest == "" {
			return Credentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. The Bearer token is empty.").
				Because("the Bearer token is empty")
		}
		return Credentials{Token: rest}, true, nil
	}
	return Credentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. Use HTTP Basic with your API key or a Bearer access token.").
		Because("wrong scheme: the Authorization header is neither Basic nor Bearer")
}
