package legacy_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/legacy"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// field is one form field, in the order a client writes it.
type field struct{ name, value string }

// encodings send the same ordered fields urlencoded and as multipart text
// parts (file fields, named file or files, as file parts).
var encodings = map[string]func(t *testing.T, fields []field) *http.Request{
	"urlencoded": func(t *testing.T, fields []field) *http.Request {
		parts := make([]string, len(fields))
		for i, f := range fields {
			parts[i] = url.QueryEscape(f.name) + "=" + url.QueryEscape(f.value)
		}
		r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(strings.Join(parts, "&")))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return r
	},
	"multipart": func(t *testing.T, fields []field) *http.Request {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		for _, f := range fields {
			if base, _, _ := strings.Cut(f.name, "["); base == "file" || base == "files" {
				w, err := mw.CreateFormFile(f.name, "doc.pdf")
				require.NoError(t, err)
				_, _ = w.Write([]byte(f.value))
				continue
			}
			require.NoError(t, mw.WriteField(f.name, f.value))
		}
		require.NoError(t, mw.Close())
		r := httptest.NewRequest(http.MethodPost, "/v3/x", &body)
		r.Header.Set("Content-Type", mw.FormDataContentType())
		return r
	},
}

// normalized decodes fields in one encoding and normalizes them for op.
func normalized(t *testing.T, enc func(*testing.T, []field) *http.Request, op string, fields []field) (*wire.Body, error) {
	t.Helper()
	b, err := wire.ReadBody(enc(t, fields), wire.DefaultLimits)
	require.NoError(t, err)
	return b, legacy.Normalize(op, b)
}

// asJSON renders a tree as JSON, so expectations read as the current form.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}

const sendWithTemplate = "signatureRequestSendWithTemplate"

func TestNormalizeMapsOlderForms(t *testing.T) {
	cases := []struct {
		name   string
		op     string
		fields []field
		// want is the current form of the parameters named in it, as JSON.
		want map[string]string
		// gone are the older parameters that must not be left behind.
		gone []string
	}{
		{"file_url list", "signatureRequestSend",
			[]field{{"file_url[0]", "https://example.com/a.pdf"}, {"file_url[1]", "https://example.com/b.pdf"}},
			map[string]string{"file_urls": `["https://example.com/a.pdf","https://example.com/b.pdf"]`}, []string{"file_url"}},
		{"single file_url", "signatureRequestSend",
			[]field{{"file_url", "https://example.com/a.pdf"}},
			map[string]string{"file_urls": `"https://example.com/a.pdf"`}, []string{"file_url"}},
		{"template_id of a template operation", "unclaimedDraftCreateEmbeddedWithTemplate",
			[]field{{"template_id", "0123456789012345678901234567890123456789"}},
			map[string]string{"template_ids": `"0123456789012345678901234567890123456789"`}, []string{"template_id"}},
		{"role-keyed signers in body order, roles with spaces", sendWithTemplate,
			[]field{
				{"template_id", "t1"},
				{"signers[Witness One][name]", "Wendy"}, {"signers[Witness One][email_address]", "wendy@example.com"},
				{"signers[Client][name]", "Carl"}, {"signers[Client][email_address]", "carl@example.com"}, {"signers[Client][pin]", "1234"},
				{"signers[Witness One][sms_phone_number]", "+14155550100"},
			},
			map[string]string{"signers": `[{"email_address":"wendy@example.com","name":"Wendy","role":"Witness One","sms_phone_number":"+14155550100"},` +
				`{"email_address":"carl@example.com","name":"Carl","pin":"1234","role":"Client"}]`}, nil},
		{"role-keyed signers, other order", sendWithTemplate,
			[]field{{"signers[Client][name]", "Carl"}, {"signers[Client][email_address]", "carl@example.com"}, {"signers[A Witness][name]", "Wendy"}, {"signers[A Witness][email_address]", "wendy@example.com"}},
			map[string]string{"signers": `[{"email_address":"carl@example.com","name":"Carl","role":"Client"},{"email_address":"wendy@example.com","name":"Wendy","role":"A Witness"}]`}, nil},
		{"role-keyed CCs", "signatureRequestCreateEmbeddedWithTemplate",
			[]field{{"ccs[Legal Team][email_address]", "legal@example.com"}, {"ccs[Accounting][email_address]", "acct@example.com"}},
			map[string]string{"ccs": `[{"email_address":"legal@example.com","role":"Legal Team"},{"email_address":"acct@example.com","role":"Accounting"}]`}, nil},
		{"role-keyed CCs of a bulk send", "signatureRequestBulkSendWithTemplate",
			[]field{{"ccs[Manager][email_address]", "m@example.com"}},
			map[string]string{"ccs": `[{"email_address":"m@example.com","role":"Manager"}]`}, nil},
		{"current template signers stay", sendWithTemplate,
			[]field{{"signers[0][role]", "Client"}, {"signers[0][name]", "Carl"}, {"signers[0][email_address]", "carl@example.com"}},
			map[string]string{"signers": `[{"email_address":"carl@example.com","name":"Carl","role":"Client"}]`}, nil},
		{"old signer groups", "signatureRequestSend",
			[]field{
				{"signers[0][group]", "Parents"}, {"signers[0][0][name]", "Ma"}, {"signers[0][0][email_address]", "ma@example.com"},
				{"signers[0][1][name]", "Pa"}, {"signers[0][1][email_address]", "pa@example.com"},
				{"signers[1][group]", "Kids"}, {"signers[1][order]", "1"}, {"signers[1][0][name]", "Kid"}, {"signers[1][0][email_address]", "kid@example.com"},
			},
			map[string]string{"grouped_signers": `[{"group":"Parents","signers":[{"email_address":"ma@example.com","name":"Ma"},{"email_address":"pa@example.com","name":"Pa"}]},` +
				`{"group":"Kids","order":"1","signers":[{"email_address":"kid@example.com","name":"Kid"}]}]`}, []string{"signers"}},
		{"custom_fields as a JSON string stays for the decoder", sendWithTemplate,
			[]field{{"custom_fields", `[{"name":"Cost","value":"$20,000"}]`}},
			map[string]string{"custom_fields": `"[{\"name\":\"Cost\",\"value\":\"$20,000\"}]"`}, nil},
		{"custom_fields keyed by name, in body order", sendWithTemplate,
			[]field{{"custom_fields[Cost]", "$20,000"}, {"custom_fields[Account Number]", "42"}},
			map[string]string{"custom_fields": `[{"name":"Cost","value":"$20,000"},{"name":"Account Number","value":"42"}]`}, nil},
		{"merge_fields as a JSON string stays for the decoder", "templateCreateEmbeddedDraft",
			[]field{{"merge_fields", `[{"name":"Full Name","type":"text"}]`}},
			map[string]string{"merge_fields": `"[{\"name\":\"Full Name\",\"type\":\"text\"}]"`}, nil},
		{"metadata keys", "signatureRequestSend",
			[]field{{"metadata[custom_id]", "1234"}, {"metadata[custom text]", "NDA #9"}},
			map[string]string{"metadata": `{"custom text":"NDA #9","custom_id":"1234"}`}, nil},
		{"signer_roles, cc_roles and attachments by index", "templateCreateEmbeddedDraft",
			[]field{
				{"signer_roles[0][name]", "Client"}, {"signer_roles[0][order]", "0"}, {"signer_roles[1][name]", "Witness"}, {"signer_roles[1][order]", "1"},
				{"cc_roles[0]", "Manager"}, {"cc_roles[1]", "Legal"},
				{"attachments[0][name]", "ID"}, {"attachments[0][instructions]", "Front"}, {"attachments[0][signer_index]", "1"}, {"attachments[0][required]", "true"},
			},
			map[string]string{
				"signer_roles": `[{"name":"Client","order":"0"},{"name":"Witness","order":"1"}]`,
				"cc_roles":     `["Manager","Legal"]`,
				"attachments":  `[{"instructions":"Front","name":"ID","required":"true","signer_index":"1"}]`,
			}, nil},
		{"old signer_list as JSON text, in written order", "signatureRequestBulkSendWithTemplate",
			[]field{{"signer_list", `[{"signers":{"Client":{"name":"George","email_address":"g@example.com","pin":"1234"}},"custom_fields":{"Zip":"10001","Address":"100 Grand"}},` +
				`{"signers":{"Client":{"name":"Mary","email_address":"m@example.com"}}}]`}},
			map[string]string{"signer_list": `[{"signers":[{"role":"Client","name":"George","email_address":"g@example.com","pin":"1234"}],` +
				`"custom_fields":[{"name":"Zip","value":"10001"},{"name":"Address","value":"100 Grand"}]},` +
				`{"signers":[{"role":"Client","name":"Mary","email_address":"m@example.com"}]}]`}, nil},
		{"old signer_list as fields, in body order", "signatureRequestBulkCreateEmbeddedWithTemplate",
			[]field{{"signer_list[0][signers][Client Party][name]", "George"}, {"signer_list[0][signers][Client Party][email_address]", "g@example.com"},
				{"signer_list[0][custom_fields][Zip]", "10001"}, {"signer_list[0][custom_fields][Address]", "100 Grand"}},
			map[string]string{"signer_list": `[{"signers":[{"role":"Client Party","name":"George","email_address":"g@example.com"}],` +
				`"custom_fields":[{"name":"Zip","value":"10001"},{"name":"Address","value":"100 Grand"}]}]`}, nil},
		{"current signer_list JSON text stays for the decoder", "signatureRequestBulkSendWithTemplate",
			[]field{{"signer_list", `[{"signers":[{"role":"Client","name":"G","email_address":"g@example.com"}]}]`}},
			map[string]string{"signer_list": `"[{\"signers\":[{\"role\":\"Client\",\"name\":\"G\",\"email_address\":\"g@example.com\"}]}]"`}, nil},
		{"API app domain and comma-separated scopes", "apiAppUpdate",
			[]field{{"domain", "example.com"}, {"oauth[callback_url]", "https://example.com/cb"}, {"oauth[scopes]", "basic_account_info, request_signature"}},
			map[string]string{"domains": `"example.com"`, "oauth": `{"callback_url":"https://example.com/cb","scopes":["basic_account_info","request_signature"]}`},
			[]string{"domain"}},
	}
	for encName, enc := range encodings {
		for _, tc := range cases {
			t.Run(encName+"/"+tc.name, func(t *testing.T) {
				b, err := normalized(t, enc, tc.op, tc.fields)
				require.NoError(t, err)
				for param, want := range tc.want {
					assert.JSONEq(t, want, asJSON(t, b.Tree[param]), param)
				}
				for _, param := range tc.gone {
					assert.NotContains(t, b.Tree, param)
				}
			})
		}
	}
}

func TestNormalizeFileParts(t *testing.T) {
	enc := encodings["multipart"]
	b, err := normalized(t, enc, "signatureRequestSend", []field{{"file[0]", "%PDF a"}, {"file[1]", "%PDF b"}})
	require.NoError(t, err)
	require.Len(t, b.Files["files"], 2)
	assert.Equal(t, "file[1]", b.Files["files"][1].Field)

	_, err = normalized(t, enc, "signatureRequestSend", []field{{"file[0]", "%PDF a"}, {"files[1]", "%PDF b"}})
	wantMixed(t, err, "files", "file[0]", "files[1]")
}

func TestNormalizeRefusesMixedShapes(t *testing.T) {
	cases := []struct {
		name   string
		op     string
		fields []field
		path   string
		names  []string
	}{
		{"file_url with file_urls", "signatureRequestSend",
			[]field{{"file_url[0]", "https://example.com/a.pdf"}, {"file_urls[0]", "https://example.com/b.pdf"}},
			"file_urls", []string{"file_url", "file_urls"}},
		{"template_id with template_ids", sendWithTemplate,
			[]field{{"template_id", "a"}, {"template_ids[0]", "b"}},
			"template_ids", []string{"template_id", "template_ids"}},
		{"role-keyed with indexed signers", sendWithTemplate,
			[]field{{"signers[0][role]", "Client"}, {"signers[0][email_address]", "c@example.com"}, {"signers[Witness][email_address]", "w@example.com"}},
			"signers", []string{"signers[Witness]", "signers[0]"}},
		{"role-keyed with indexed CCs", sendWithTemplate,
			[]field{{"ccs[Legal][email_address]", "l@example.com"}, {"ccs[0][role]", "Boss"}, {"ccs[0][email_address]", "b@example.com"}},
			"ccs", []string{"ccs[Legal]", "ccs[0]"}},
		{"old groups with grouped_signers", "signatureRequestSend",
			[]field{{"signers[0][group]", "G"}, {"signers[0][0][name]", "A"}, {"signers[0][0][email_address]", "a@example.com"},
				{"grouped_signers[0][group]", "H"}, {"grouped_signers[0][signers][0][name]", "B"}},
			"grouped_signers", []string{"signers[0][group]", "grouped_signers"}},
		{"custom_fields by name and by index", sendWithTemplate,
			[]field{{"custom_fields[Cost]", "1"}, {"custom_fields[0][name]", "Other"}},
			"custom_fields", []string{"custom_fields[Cost]", "custom_fields[0]"}},
		{"old and current signer_list entries", "signatureRequestBulkSendWithTemplate",
			[]field{{"signer_list", `[{"signers":[{"role":"Client","email_address":"a@example.com"}]},{"signers":{"Client":{"email_address":"b@example.com"}}}]`}},
			"signer_list", []string{"signer_list[1]", "signer_list[0]"}},
		{"role-keyed and indexed signers of a signer_list entry", "signatureRequestBulkSendWithTemplate",
			[]field{{"signer_list[0][signers][Client][email_address]", "a@example.com"}, {"signer_list[0][signers][0][email_address]", "b@example.com"}},
			"signer_list", []string{"signer_list[0][signers][Client]", "signer_list[0][signers][0]"}},
		{"domain with domains", "apiAppCreate",
			[]field{{"domain", "a.example"}, {"domains[0]", "b.example"}},
			"domains", []string{"domain", "domains"}},
	}
	for encName, enc := range encodings {
		for _, tc := range cases {
			t.Run(encName+"/"+tc.name, func(t *testing.T) {
				_, err := normalized(t, enc, tc.op, tc.fields)
				wantMixed(t, err, tc.path, tc.names...)
			})
		}
	}
}

func TestNormalizeRefusesBadLegacyShapes(t *testing.T) {
	cases := []struct {
		name   string
		op     string
		fields []field
		path   string
	}{
		{"group mixed with a single signer", "signatureRequestSend",
			[]field{{"signers[0][group]", "G"}, {"signers[0][0][name]", "A"}, {"signers[1][name]", "B"}}, "signers"},
		{"role-keyed signer that is not an object", sendWithTemplate,
			[]field{{"signers[Client]", "carl@example.com"}}, "signers[Client]"},
		{"role-keyed signer naming another role", sendWithTemplate,
			[]field{{"signers[Client][role]", "Witness"}, {"signers[Client][name]", "C"}}, "signers[Client][role]"},
		{"custom field given as an object", sendWithTemplate,
			[]field{{"custom_fields[Cost][value]", "1"}}, "custom_fields[Cost]"},
		{"unknown field in a signer group", "signatureRequestSend",
			[]field{{"signers[0][group]", "G"}, {"signers[0][0][name]", "A"}, {"signers[0][colour]", "red"}}, "signers"},
	}
	for encName, enc := range encodings {
		for _, tc := range cases {
			t.Run(encName+"/"+tc.name, func(t *testing.T) {
				_, err := normalized(t, enc, tc.op, tc.fields)
				e, ok := apierr.As(err)
				require.True(t, ok, "want an API error, got %v", err)
				assert.Equal(t, apierr.BadRequest, e.Name)
				assert.Equal(t, tc.path, e.Path, e.Msg)
			})
		}
	}
}

// Outside template operations role-keyed signers are left to the decoder,
// which refuses an object where a list belongs; JSON bodies are never
// rewritten.
func TestNormalizeLeavesOtherBodiesAlone(t *testing.T) {
	b, err := normalized(t, encodings["urlencoded"], "signatureRequestSend", []field{{"signers[Client][name]", "C"}})
	require.NoError(t, err)
	assert.IsType(t, map[string]any{}, b.Tree["signers"])

	r := httptest.NewRequest(http.MethodPost, "/v3/x", strings.NewReader(`{"file_url":["https://example.com/a.pdf"]}`))
	r.Header.Set("Content-Type", "application/json")
	b, err = wire.ReadBody(r, wire.DefaultLimits)
	require.NoError(t, err)
	require.NoError(t, legacy.Normalize(sendWithTemplate, b))
	assert.Contains(t, b.Tree, "file_url")
	assert.NotContains(t, b.Tree, "file_urls")
	require.NoError(t, legacy.Normalize(sendWithTemplate, nil))
}

// wantMixed checks the refusal of a parameter given in two shapes: a 400
// bad_request naming both.
func wantMixed(t *testing.T, err error, path string, names ...string) {
	t.Helper()
	e, ok := apierr.As(err)
	require.True(t, ok, "want an API error, got %v", err)
	assert.Equal(t, apierr.BadRequest, e.Name)
	assert.Equal(t, http.StatusBadRequest, e.Status())
	assert.Equal(t, path, e.Path)
	for _, n := range names {
		assert.Contains(t, e.Msg, n)
	}
}

// A GET alias of an operation that takes a body hands it the query string as
// a form body; other aliases pass the request through as it is.
func TestAliasHandlerReadsGETQueryAsForm(t *testing.T) {
	var seen *http.Request
	var body string
	h := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		seen = r
		b, _ := wire.ReadBody(r, wire.DefaultLimits)
		body = asJSON(t, b.Tree)
	})
	get := legacy.Alias{Method: http.MethodGet, Path: "/embedded/edit_url/{template_id}", OperationID: "embeddedEditUrl"}
	get.Handler(http.MethodPost, h).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v3/embedded/edit_url/t?cc_roles%5B0%5D=A&test_mode=1", nil))
	assert.JSONEq(t, `{"cc_roles":["A"],"test_mode":"1"}`, body)

	post := legacy.Alias{Method: http.MethodPost, Path: "/embedded/sign_url/{signature_id}", OperationID: "embeddedSignUrl"}
	req := httptest.NewRequest(http.MethodPost, "/v3/embedded/sign_url/s", nil)
	post.Handler(http.MethodGet, h).ServeHTTP(httptest.NewRecorder(), req)
	assert.Same(t, req, seen)
}
