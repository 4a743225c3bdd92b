package sandbox_test

// Helpers of the team, API app, fax, fax line and report tests.

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// Fixture accounts of the default world (fixtures/world.json).
const (
	orgTeamID      = "d25187dc137f35c88bc80ec8c3ffbdb17b5eb873"
	orgOwnerID     = "4dc1d0601aba5f470c97af030a257f883daf663d"
	orgTeammateID  = "6ff46ba9ed6e43517c09f9b4d2db2a081f1d5ab0"
	orgOutsiderID  = "9bebb60aeacd74239d65616bbe584509cb5ea24a"
	orgTeammateKey = "2ab813278759db81e3e1be162c230d3c32d49629a29e0545c2ffc8708e6e00db"
	orgOutsiderKey = "015dd024c558991375ddaaba75d97325af798a76720da2e21864f705e7153115"
	orgAppClientID = "7d1043473d55bfa90e8530d35801d4e3"
)

// orgPart is one part of a multipart body: a file when filename is set.
type orgPart struct {
	name, value     string
	filename, ctype string
	data            []byte
	isFile          bool
}

func orgField(name, value string) orgPart { return orgPart{name: name, value: value} }

func orgFile(name, filename, ctype string, data []byte) orgPart {
	return orgPart{name: name, filename: filename, ctype: ctype, data: data, isFile: true}
}

// orgMultipart sends a multipart/form-data request as the official SDKs do
// (through sendMultipart: the fields in key order, then the files).
func orgMultipart(t *testing.T, srv *sandboxtest.Server, key, method, path string, parts ...orgPart) *sandboxtest.Response {
	t.Helper()
	fields := map[string]any{}
	var files []mpFile
	for _, p := range parts {
		if p.isFile {
			files = append(files, mpFile{Field: p.name, Name: p.filename, ContentType: p.ctype, Data: p.data})
			continue
		}
		fields[p.name] = p.value
	}
	return sendMultipart(t, srv, key, method, path, fields, files...)
}

// orgWantError checks an error answer: status, error_name and (when not
// "") error_path.
func orgWantError(t *testing.T, r *sandboxtest.Response, status int, name, path string) string {
	t.Helper()
	srErr(t, r, status, name, path)
	_, msg, _ := errorOf(t, r.Body)
	require.NotEmpty(t, msg)
	return msg
}

// orgEmails lists the outbox, filtered by a query string such as
// "kind=report".
func orgEmails(t *testing.T, srv *sandboxtest.Server, query string) []map[string]any {
	t.Helper()
	var out struct {
		Emails []map[string]any `json:"emails"`
	}
	srv.Control(http.MethodGet, "/emails?"+query, nil, &out)
	return out.Emails
}

// orgPNG is a small PNG image.
func orgPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// orgObj reads a nested object of a decoded JSON answer.
func orgObj(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	require.True(t, ok, "%s is not an object in %v", key, m)
	return v
}

// orgList reads a nested array of objects of a decoded JSON answer.
func orgList(t *testing.T, m map[string]any, key string) []map[string]any {
	t.Helper()
	raw, ok := m[key].([]any)
	require.True(t, ok, "%s is not an array in %v", key, m)
	out := make([]map[string]any, len(raw))
	for i, v := range raw {
		out[i] = v.(map[string]any)
	}
	return out
}
