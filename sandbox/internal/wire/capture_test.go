package wire

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// capturedRequest is one entry of node-sdk-captured-requests.json: a real
// request the official Node SDK (@dropbox/sign) sent.
type capturedRequest struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// referencePathF finds a file of ../shared/reference beside the repository
// ("" when there is no repository root above the working directory).
func referencePathF(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "reference", rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// parseCaptures keeps the request entries of the capture file (it also
// holds an SDK error entry without a method).
func parseCaptures(raw []byte) []capturedRequest {
	var all []capturedRequest
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil
	}
	var out []capturedRequest
	for _, c := range all {
		if c.Method != "" {
			out = append(out, c)
		}
	}
	return out
}

// loadCaptures reads the captured SDK requests, or skips the test.
func loadCaptures(t testing.TB) []capturedRequest {
	t.Helper()
	p := referencePathF("dropbox-sign/node-sdk-captured-requests.json")
	raw, err := os.ReadFile(p)
	if p == "" || err != nil {
		t.Skipf("captured Node SDK requests not available at %q (%v): put ../shared/reference beside the repository", p, err)
	}
	out := parseCaptures(raw)
	require.NotEmpty(t, out, "no requests in %s", p)
	return out
}

// elidedPDF stands in for the bytes the capture left out. The capture also
// dropped the CRLF that ends the file part, so it is put back.
const elidedPDF = "%PDF-1.4\n%stand-in\n%%EOF\n"

// toRequest rebuilds an *http.Request from a capture.
func (c capturedRequest) toRequest() *http.Request {
	body := strings.Replace(c.Body, "<PDF BYTES ELIDED>", elidedPDF+"\r\n", 1)
	r := httptest.NewRequest(c.Method, c.URL, strings.NewReader(body))
	for k, v := range c.Headers {
		if strings.EqualFold(k, "content-length") {
			continue
		}
		r.Header.Set(k, v)
	}
	return r
}

// sendRequest is the part of SignatureRequestSendRequest the captures use,
// typed as the signature request handlers type it.
type sendRequest struct {
	Files            []File   `json:"files"`
	FileURLs         []string `json:"file_urls"`
	Signers          []signer `json:"signers"`
	CCEmailAddresses []string `json:"cc_email_addresses"`
	FormFields       []struct {
		DocumentIndex int    `json:"document_index"`
		APIID         string `json:"api_id"`
		Height        int    `json:"height"`
		Required      bool   `json:"required"`
		Signer        string `json:"signer"`
		Type          string `json:"type"`
		Width         int    `json:"width"`
		X             int    `json:"x"`
		Y             int    `json:"y"`
		Page          *int   `json:"page"`
	} `json:"form_fields_per_document"`
	Message        string         `json:"message"`
	Metadata       map[string]any `json:"metadata"`
	SigningOptions *struct {
		DefaultType string `json:"default_type"`
		Draw        bool   `json:"draw"`
		Phone       bool   `json:"phone"`
		Type        bool   `json:"type"`
		Upload      bool   `json:"upload"`
	} `json:"signing_options"`
	Subject   string `json:"subject"`
	TestMode  bool   `json:"test_mode"`
	Title     string `json:"title"`
	ExpiresAt *int64 `json:"expires_at"`
}

type signer struct {
	Name         string `json:"name"`
	EmailAddress string `json:"email_address"`
	Order        *int   `json:"order"`
}

// checkCapturedSend asserts what both captured sends (JSON and multipart)
// carry; only the document differs (file_urls or files[0]).
func checkCapturedSend(t *testing.T, req sendRequest) {
	t.Helper()
	require.Len(t, req.Signers, 2)
	assert.Equal(t, "Jack", req.Signers[0].Name)
	assert.Equal(t, "jack@example.com", req.Signers[0].EmailAddress)
	require.NotNil(t, req.Signers[1].Order)
	assert.Equal(t, 1, *req.Signers[1].Order)
	assert.Equal(t, []string{"lawyer@example.com"}, req.CCEmailAddresses)
	require.Len(t, req.FormFields, 1)
	ff := req.FormFields[0]
	assert.Equal(t, "f1", ff.APIID)
	assert.Equal(t, "0", ff.Signer, "signer is a string in the SDK's JSON")
	assert.True(t, ff.Required)
	assert.Equal(t, []int{16, 100, 112, 328}, []int{ff.Height, ff.Width, ff.X, ff.Y})
	require.NotNil(t, ff.Page)
	assert.Equal(t, 1, *ff.Page)
	assert.Equal(t, "M", req.Message)
	assert.Equal(t, "S", req.Subject)
	assert.Equal(t, "NDA", req.Title)
	assert.True(t, req.TestMode)
	require.NotNil(t, req.ExpiresAt)
	assert.Equal(t, int64(1700000000), *req.ExpiresAt)
	assert.Equal(t, json.Number("1234"), req.Metadata["custom_id"], "numbers in metadata stay exact")
	assert.Equal(t, "NDA #9", req.Metadata["custom_text"])
	require.NotNil(t, req.SigningOptions)
	assert.Equal(t, "draw", req.SigningOptions.DefaultType)
	assert.True(t, req.SigningOptions.Draw)
	assert.False(t, req.SigningOptions.Phone)
}

func TestCapturedNodeSDKRequests(t *testing.T) {
	caps := loadCaptures(t)
	var sawJSON, sawMultipart, sawQuery, sawRefresh bool
	for _, c := range caps {
		r := c.toRequest()
		ct := r.Header.Get("Content-Type")
		switch {
		case c.URL == "/v3/signature_request/send" && strings.HasPrefix(ct, "application/json"):
			sawJSON = true
			b, err := ReadBody(r, DefaultLimits)
			require.NoError(t, err)
			assert.False(t, b.Form)
			var req sendRequest
			require.NoError(t, Decode(b, &req))
			checkCapturedSend(t, req)
			assert.Equal(t, []string{"https://example.com/a.pdf"}, req.FileURLs)
			assert.Empty(t, req.Files)
		case c.URL == "/v3/signature_request/send" && strings.HasPrefix(ct, "multipart/form-data"):
			sawMultipart = true
			b, err := ReadBody(r, DefaultLimits)
			require.NoError(t, err)
			assert.True(t, b.Form)
			var req sendRequest
			require.NoError(t, Decode(b, &req))
			checkCapturedSend(t, req)
			require.Len(t, req.Files, 1)
			f := req.Files[0]
			assert.Equal(t, "files[0]", f.Field)
			assert.Equal(t, "pdf-sample.pdf", f.Name)
			assert.Equal(t, "application/pdf", f.ContentType)
			assert.Equal(t, elidedPDF, string(f.Data))
			assert.Empty(t, req.FileURLs)
		case strings.HasPrefix(c.URL, "/v3/account?"):
			sawQuery = true
			tree, err := QueryTree(r.URL.Query(), DefaultLimits)
			require.NoError(t, err)
			var q struct {
				AccountID    string `json:"account_id"`
				EmailAddress string `json:"email_address"`
			}
			require.NoError(t, DecodeTree(tree, &q))
			assert.Equal(t, "a@b.com", q.EmailAddress)
			assert.Empty(t, q.AccountID)
		case strings.HasPrefix(c.URL, "/v3/oauth/token"):
			sawRefresh = true
			assert.True(t, r.URL.Query().Has("refresh"), "the SDK marks refreshes with a bare ?refresh")
			b, err := ReadBody(r, DefaultLimits)
			require.NoError(t, err)
			var req struct {
				GrantType    string `json:"grant_type"`
				RefreshToken string `json:"refresh_token"`
			}
			require.NoError(t, Decode(b, &req))
			assert.Equal(t, "refresh_token", req.GrantType)
			assert.Equal(t, "rt", req.RefreshToken)
		default:
			// Bodiless GETs with a JSON content type: the decoder must accept
			// the empty body the SDK sends with Content-Type set.
			b, err := ReadBody(r, DefaultLimits)
			require.NoError(t, err, c.URL)
			assert.Empty(t, b.Tree)
		}
	}
	assert.True(t, sawJSON && sawMultipart && sawQuery && sawRefresh, "the capture file should hold a JSON send, a multipart send, a query and a refresh")
}
