package sigreq_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

// ttRequestID is the id of the request in a response body.
func ttRequestID(body map[string]any) string {
	return body["signature_request"].(map[string]any)["signature_request_id"].(string)
}

// ttWarnings lists the warning names of a response body.
func ttWarnings(body map[string]any) []string {
	var out []string
	ws, _ := body["warnings"].([]any)
	for _, w := range ws {
		out = append(out, w.(map[string]any)["warning_name"].(string))
	}
	return out
}

// ttProcessed advances past processing and answers the request.
func ttProcessed(t *testing.T, srv *sandboxtest.Server, id string) map[string]any {
	t.Helper()
	srv.Advance(10 * time.Second)
	return apitest.GetRequestOK(t, srv, id)
}

// ttPDF downloads a request's merged PDF once it is prepared.
func ttPDF(t *testing.T, srv *sandboxtest.Server, id string) []byte {
	t.Helper()
	srv.Advance(time.Minute)
	r := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=pdf", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return r.Body
}

// ttTxt is a .txt upload.
func ttTxt(name, text string) apitest.File {
	return apitest.File{Name: name, ContentType: "text/plain", Data: []byte(text)}
}
