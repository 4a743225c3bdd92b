package api

// The Authorization header: HTTP Basic with the API key as user name, or
// Bearer with an OAuth access token, refusing anything else in the official
// error envelope. Reading it knows nothing of worlds or accounts;
// Host.authenticate looks the credentials up.

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// headerCredentials are what an Authorization header carries.
type headerCredentials struct {
	APIKey string
	Token  string
}

// parseAuthHeader reads the Authorization header: HTTP Basic with the API
// key as user name (clients that put the key in the URL's user-info send the
// same header), or Bearer with an OAuth access token. ok is false when no
// header was sent.
func parseAuthHeader(r *http.Request) (creds headerCredentials, ok bool, err *apierr.Error) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return headerCredentials{}, false, nil
	}
	scheme, rest, _ := strings.Cut(h, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(scheme) {
	case "basic":
		raw, decErr := base64.StdEncoding.DecodeString(rest)
		if decErr != nil {
			return headerCredentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. The Authorization header is not valid HTTP Basic credentials.").
				Because("the Basic credentials are not base64")
		}
		user, _, _ := strings.Cut(string(raw), ":")
		if user == "" {
			return headerCredentials{}, true, apierr.New(apierr.Unauthorized, apierr.MsgUnauthorizedNoCredentials).
				Because("the Basic credentials carry no API key (an empty user name)")
		}
		return headerCredentials{APIKey: user}, true, nil
	case "bearer":
		if rest == "" {
			return headerCredentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. The Bearer token is empty.").
				Because("the Bearer token is empty")
		}
		return headerCredentials{Token: rest}, true, nil
	}
	return headerCredentials{}, true, apierr.New(apierr.Unauthorized, "Unauthorized user. Use HTTP Basic with your API key or a Bearer access token.").
		Because("wrong scheme: the Authorization header is neither Basic nor Bearer")
}
