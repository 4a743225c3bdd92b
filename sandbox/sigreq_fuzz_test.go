package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzSignatureRequestSend: whatever the body, send answers 200 or a 4xx in
// the official error shape, never a panic (the recoverer would answer its
// generic 400) or a 5xx.
func FuzzSignatureRequestSend(f *testing.F) {
	seeds := []string{
		`{"signers":[{"name":"A","email_address":"a@example.com"}],"file_urls":["https://example.com/a.pdf"],"test_mode":true}`,
		`{"signers":[{"name":"A","email_address":"a@example.com","order":0}],"file_urls":["https://example.com/a.pdf"],"test_mode":1,
		  "form_fields_per_document":[{"api_id":"x","type":"text","document_index":0,"x":1,"y":1,"width":1,"height":1,"required":true,"signer":0,"page":1}],
		  "form_field_groups":[{"group_id":"g","group_label":"G","requirement":"require_1"}],
		  "form_field_rules":[{"id":"r","trigger_operator":"AND","triggers":[{"id":"x","operator":"match","value":"("}],"actions":[{"field_id":"x","hidden":1,"type":"change-field-visibility"}]}],
		  "metadata":{"a":1.5e300},"expires_at":"soon","signing_options":{"default_type":"draw"}}`,
		`{"grouped_signers":[{"group":"g","signers":[{}]}],"form_fields_per_document":[[{"api_id":1}]],"file_urls":"x"}`,
		`{"signers":"[{\"name\":1}]","metadata":"{}","form_fields_per_document":"[[]]"}`,
		`{"signers":[null],"cc_email_addresses":[null,{}],"attachments":[{"signer_index":-1}],"custom_fields":[{"required":true}]}`,
		`[]`, `null`, `{"title":{"a":[1,2,{"b":null}]}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	s, err := New(WithFakeClock(sigreqTestStart), WithOfflineFiles())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	key := s.DefaultAPIKey()
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, path := range []string{"/v3/signature_request/send", "/v3/signature_request/create_embedded", "/v3/signature_request/send_with_template"} {
			req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.SetBasicAuth(key, "")
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			checkFuzzAnswer(t, path, rec)
		}
	})
}

func checkFuzzAnswer(t *testing.T, path string, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code >= 500 {
		t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
	}
	if rec.Code < 400 {
		return
	}
	var e struct {
		Error struct {
			Msg  string `json:"error_msg"`
			Name string `json:"error_name"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Name == "" {
		t.Fatalf("%s: %d not in the error envelope: %s", path, rec.Code, rec.Body)
	}
	if e.Error.Msg == "The request could not be processed." || strings.HasPrefix(e.Error.Msg, "The request could not be processed: ") {
		t.Fatalf("%s: a panic or an unexpected error: %s", path, rec.Body)
	}
}
