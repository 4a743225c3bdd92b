package apitest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Accounts, teams, API apps and faxes: the outbox, images, JSON walking.

// Emails lists the outbox, filtered by a query string such as
// "kind=report".
func Emails(t *testing.T, srv *sandboxtest.Server, query string) []map[string]any {
	t.Helper()
	var out struct {
		Emails []map[string]any `json:"emails"`
	}
	srv.Control(http.MethodGet, "/emails?"+query, nil, &out)
	return out.Emails
}

// PNG is a small PNG image.
func PNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// Obj reads a nested object of a decoded JSON answer.
func Obj(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	require.True(t, ok, "%s is not an object in %v", key, m)
	return v
}

// List reads a nested array of objects of a decoded JSON answer.
func List(t *testing.T, m map[string]any, key string) []map[string]any {
	t.Helper()
	raw, ok := m[key].([]any)
	require.True(t, ok, "%s is not an array in %v", key, m)
	out := make([]map[string]any, len(raw))
	for i, v := range raw {
		out[i] = v.(map[string]any)
	}
	return out
}

// SendFax sends a one-page PDF as the official SDKs do (multipart, files[0])
// with the given extra fields.
func SendFax(t *testing.T, srv *sandboxtest.Server, key string, fields map[string]string) *sandboxtest.Response {
	t.Helper()
	parts := []Part{FilePart("files[0]", "contract.pdf", "application/pdf", PDF(1))}
	for _, k := range []string{"recipient", "sender", "test_mode", "title", "cover_page_to", "cover_page_from", "cover_page_message"} {
		if v, ok := fields[k]; ok {
			parts = append(parts, Field(k, v))
		}
	}
	return SendParts(t, srv, key, http.MethodPost, "/v3/fax/send", parts...)
}

// BrandedApp creates an API app with white labeling (and a logo when
// logo is set) and returns its client_id.
func BrandedApp(t *testing.T, srv *sandboxtest.Server, name, options string, logo bool) string {
	t.Helper()
	parts := []Part{Field("name", name), Field("domains", `["example.com"]`), Field("white_labeling_options", options)}
	if logo {
		parts = append(parts, FilePart("custom_logo_file", "logo.png", "image/png", PNG(t)))
	}
	r := SendParts(t, srv, srv.APIKey, http.MethodPost, "/v3/api_app", parts...)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	return Obj(t, r.Map(), "api_app")["client_id"].(string)
}

// FetchCSV downloads a report link without credentials and returns the
// status and, on 200, the CSV rows.
func FetchCSV(t *testing.T, link string) (int, [][]string) {
	t.Helper()
	resp, err := http.Get(link)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	assert.Equal(t, "text/csv; charset=utf-8", resp.Header.Get("Content-Type"))
	rows, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	require.NoError(t, err)
	return resp.StatusCode, rows
}

// AccountOf decodes the account object of an account answer.
func AccountOf(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var out struct {
		Account map[string]any `json:"account"`
	}
	require.NoError(t, json.Unmarshal(body, &out), "%s", body)
	require.NotNil(t, out.Account, "%s", body)
	return out.Account
}

// APIKey is one key of GET /_sandbox/api_keys.
type APIKey struct {
	Key       string `json:"key"`
	AccountID string `json:"account_id"`
	Name      string `json:"name"`
	Primary   bool   `json:"primary"`
	CreatedAt int64  `json:"created_at"`
}

// APIKeys lists the API keys of the caller's account.
func APIKeys(t *testing.T, srv *sandboxtest.Server, key string) []APIKey {
	t.Helper()
	r := srv.DoAs(key, http.MethodGet, "/_sandbox/api_keys", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		APIKeys []APIKey `json:"api_keys"`
	}
	require.NoError(t, r.JSON(&out))
	return out.APIKeys
}

// PrimaryKey is the primary key among keys ("" without one).
func PrimaryKey(keys []APIKey) string {
	for _, k := range keys {
		if k.Primary {
			return k.Key
		}
	}
	return ""
}
