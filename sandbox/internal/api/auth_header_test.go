package api

// The Authorization header: HTTP Basic with the API key as user name, or
// Bearer with an OAuth access token, refusing anything else in the official
// error envelope. Reading it knows nothing of worlds or accounts;
// Host.authenticate looks the credentials up.

import (
	"encoding/base64"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// TestParse: each form of the header the official clients send gives its
// credential, and every other form is a 401 unauthorized naming what is
// wrong, never a credential.
func TestParseAuthHeader(t *testing.T) {
	basic := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, tc := range []struct {
		name   string
		header string
		want   headerCredentials
		sent   bool
		errMsg string // "" when the header is accepted
	}{
		{name: "absent", header: "", sent: false},
		{name: "blank", header: "   ", sent: false},
		{name: "basic key and empty password", header: basic("key123:"), want: headerCredentials{APIKey: "key123"}, sent: true},
		{name: "basic key without colon", header: basic("key123"), want: headerCredentials{APIKey: "key123"}, sent: true},
		{name: "basic scheme in any case", header: "bAsIc " + base64.StdEncoding.EncodeToString([]byte("k:")), want: headerCredentials{APIKey: "k"}, sent: true},
		{name: "basic password ignored", header: basic("k:secret"), want: headerCredentials{APIKey: "k"}, sent: true},
		{name: "bearer", header: "Bearer tok-1", want: headerCredentials{Token: "tok-1"}, sent: true},
		{name: "bearer padded", header: "  Bearer   tok-1  ", want: headerCredentials{Token: "tok-1"}, sent: true},
		{name: "basic not base64", header: "Basic ***", sent: true, errMsg: "not valid HTTP Basic"},
		{name: "basic empty user", header: basic(":password"), sent: true, errMsg: apierr.MsgUnauthorizedNoCredentials},
		{name: "bearer empty", header: "Bearer", sent: true, errMsg: "Bearer token is empty"},
		{name: "other scheme", header: "Digest abc", sent: true, errMsg: "HTTP Basic with your API key or a Bearer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/v3/account", nil)
			if tc.header != "" {
				r.Header.Set("Authorization", tc.header)
			}
			creds, sent, err := parseAuthHeader(r)
			assert.Equal(t, tc.sent, sent)
			if tc.errMsg == "" {
				assert.Nil(t, err)
				assert.Equal(t, tc.want, creds)
				return
			}
			if assert.NotNil(t, err) {
				assert.Equal(t, apierr.Unauthorized, err.Name)
				assert.Equal(t, 401, err.Name.Status())
				assert.Contains(t, err.Msg, tc.errMsg)
			}
			assert.Zero(t, creds)
		})
	}
}
