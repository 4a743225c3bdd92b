package legacy_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

// lgSignersByRole maps each signature's role to its signer's address.
func lgSignersByRole(sr map[string]any) map[string]string {
	out := map[string]string{}
	for _, s := range apitest.Signatures(sr) {
		role, _ := s["signer_role"].(string)
		out[role], _ = s["signer_email_address"].(string)
	}
	return out
}

// A template send in the old API reference's form: signers and CCs keyed by
// role name (with spaces), custom fields by name, metadata by key.
func TestLegacySendWithTemplateRoleKeyed(t *testing.T) {
	for enc, send := range lgEncodings {
		t.Run(enc, func(t *testing.T) {
			srv := apitest.NewServer(t)
			f := apitest.StandardTemplate()
			f["signer_roles"] = []map[string]any{{"name": "Client Party", "order": 0}, {"name": "Witness", "order": 1}}
			f["cc_roles"] = []string{"Account Manager"}
			f["form_fields_per_document"].([]map[string]any)[1]["signer"] = "Witness"
			id := apitest.CreateTemplate(t, srv, srv.APIKey, f)
			srv.Advance(apitest.TemplatePrepDelay)

			r := send(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send_with_template",
				lgField{Name: "test_mode", Value: "1"},
				lgField{Name: "template_id", Value: id},
				lgField{Name: "signers[Witness][name]", Value: "Wendy"},
				lgField{Name: "signers[Witness][email_address]", Value: "wendy@example.com"},
				lgField{Name: "signers[Client Party][name]", Value: "Carl"},
				lgField{Name: "signers[Client Party][email_address]", Value: "carl@example.com"},
				lgField{Name: "ccs[Account Manager][email_address]", Value: "manager@example.com"},
				lgField{Name: "custom_fields[Full Name]", Value: "Carl Client"},
				lgField{Name: "metadata[deal]", Value: "42"},
			)
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			sr := r.Map()["signature_request"].(map[string]any)
			assert.Equal(t, map[string]string{"Client Party": "carl@example.com", "Witness": "wendy@example.com"}, lgSignersByRole(sr))
			assert.Equal(t, []any{"manager@example.com"}, sr["cc_email_addresses"])
			assert.Equal(t, map[string]any{"deal": "42"}, sr["metadata"])
			var custom []string
			for _, cf := range sr["custom_fields"].([]any) {
				m := cf.(map[string]any)
				if v, ok := m["value"].(string); ok {
					custom = append(custom, m["name"].(string)+"="+v)
				}
			}
			assert.Contains(t, custom, "Full Name=Carl Client")
		})
	}
}

// Sends with file_url[N], file[N] and the old signer groups.
func TestLegacySendFilesAndGroups(t *testing.T) {
	srv := apitest.NewServer(t)
	signer := []lgField{{Name: "signers[0][name]", Value: "Jack"}, {Name: "signers[0][email_address]", Value: "jack@example.com"}, {Name: "test_mode", Value: "1"}}
	for enc, send := range lgEncodings {
		r := send(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send",
			append([]lgField{{Name: "file_url[0]", Value: "https://example.com/a.pdf"}, {Name: "file_url[1]", Value: "https://example.com/b.pdf"}}, signer...)...)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", enc, r.Body)
	}
	r := lgMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send",
		append([]lgField{{Name: "file[0]", File: apitest.PDF(1)}, {Name: "file[1]", File: apitest.PDF(2)}}, signer...)...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["signature_request"].(map[string]any)["signature_request_id"].(string)
	srv.Advance(apitest.TemplatePrepDelay)
	files := srv.Do(http.MethodGet, "/v3/signature_request/files/"+id+"?file_type=pdf", nil)
	require.Equal(t, http.StatusOK, files.Status, "%s", files.Body)

	r = lgMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send",
		lgField{Name: "file[0]", File: apitest.PDF(1)}, lgField{Name: "test_mode", Value: "1"},
		lgField{Name: "signers[0][group]", Value: "Parents"},
		lgField{Name: "signers[0][0][name]", Value: "Ma"}, lgField{Name: "signers[0][0][email_address]", Value: "ma@example.com"},
		lgField{Name: "signers[0][1][name]", Value: "Pa"}, lgField{Name: "signers[0][1][email_address]", Value: "pa@example.com"},
		lgField{Name: "signers[1][group]", Value: "Kid"},
		lgField{Name: "signers[1][0][name]", Value: "Kid"}, lgField{Name: "signers[1][0][email_address]", Value: "kid@example.com"},
	)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var addresses []string
	for _, s := range apitest.Signatures(r.Map()["signature_request"].(map[string]any)) {
		addresses = append(addresses, s["signer_email_address"].(string))
	}
	assert.ElementsMatch(t, []string{"ma@example.com", "pa@example.com", "kid@example.com"}, addresses)
}

// An embedded template draft in the older SDKs' form: indexed signer roles,
// CC roles and attachments, merge fields as a JSON string, file[0].
func TestLegacyEmbeddedTemplateDraft(t *testing.T) {
	srv := apitest.NewServer(t)
	r := lgMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create_embedded_draft",
		lgField{Name: "client_id", Value: apitest.ClientID}, lgField{Name: "test_mode", Value: "1"},
		lgField{Name: "file[0]", File: apitest.PDF(1)},
		lgField{Name: "signer_roles[0][name]", Value: "Client"}, lgField{Name: "signer_roles[0][order]", Value: "0"},
		lgField{Name: "signer_roles[1][name]", Value: "Witness"}, lgField{Name: "signer_roles[1][order]", Value: "1"},
		lgField{Name: "cc_roles[0]", Value: "Manager"},
		lgField{Name: "attachments[0][name]", Value: "ID card"}, lgField{Name: "attachments[0][instructions]", Value: "Front"},
		lgField{Name: "attachments[0][signer_index]", Value: "1"}, lgField{Name: "attachments[0][required]", Value: "1"},
		lgField{Name: "merge_fields", Value: `[{"name":"Full Name","type":"text"}]`},
	)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := r.Map()["template"].(map[string]any)["template_id"].(string)
	tpl := apitest.GetTemplate(t, srv, srv.APIKey, id)
	assert.Equal(t, []any{map[string]any{"name": "Client", "order": float64(0)}, map[string]any{"name": "Witness", "order": float64(1)}}, tpl["signer_roles"])
	assert.Equal(t, []any{map[string]any{"name": "Manager"}}, tpl["cc_roles"])
}

// A body that gives one parameter in its older and its current shape is
// refused with a 400 naming both.
func TestLegacyMixedShapesAreRefused(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := []struct {
		name, path string
		fields     []lgField
		param      string
		names      []string
	}{
		{"file_url with file_urls", "/v3/signature_request/send",
			[]lgField{{Name: "file_url[0]", Value: "https://example.com/a.pdf"}, {Name: "file_urls[0]", Value: "https://example.com/b.pdf"}, {Name: "signers[0][email_address]", Value: "a@example.com"}},
			"file_urls", []string{"file_url", "file_urls"}},
		{"role-keyed and indexed signers", "/v3/signature_request/send_with_template",
			[]lgField{{Name: "template_ids[0]", Value: "0123456789012345678901234567890123456789"}, {Name: "signers[Client][email_address]", Value: "c@example.com"}, {Name: "signers[0][role]", Value: "Witness"}, {Name: "signers[0][email_address]", Value: "w@example.com"}},
			"signers", []string{"signers[Client]", "signers[0]"}},
		{"old groups with grouped_signers", "/v3/signature_request/send",
			[]lgField{{Name: "signers[0][group]", Value: "G"}, {Name: "signers[0][0][email_address]", Value: "a@example.com"}, {Name: "grouped_signers[0][group]", Value: "H"}},
			"grouped_signers", []string{"signers[0][group]", "grouped_signers"}},
	}
	for enc, send := range lgEncodings {
		for _, tc := range cases {
			t.Run(enc+"/"+tc.name, func(t *testing.T) {
				r := send(t, srv, srv.APIKey, http.MethodPost, tc.path, tc.fields...)
				apitest.WantError(t, r, http.StatusBadRequest, "bad_request", tc.param)
				_, msg, _ := apitest.ErrorParts(t, r.Body)
				for _, n := range tc.names {
					assert.True(t, strings.Contains(msg, n), "%q names %s", msg, n)
				}
			})
		}
	}
	r := lgMultipart(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/send",
		lgField{Name: "file[0]", File: apitest.PDF(1)}, lgField{Name: "files[1]", File: apitest.PDF(1)}, lgField{Name: "signers[0][email_address]", Value: "a@example.com"})
	apitest.WantError(t, r, http.StatusBadRequest, "bad_request", "files")
}

// A bulk send in the old form: signer_list entries with signers keyed by
// role and custom fields by name (JSON text, as the Ruby and PHP SDKs send
// it), CCs keyed by role.
func TestLegacyBulkSendSignerList(t *testing.T) {
	for enc, send := range lgEncodings {
		t.Run(enc, func(t *testing.T) {
			srv := apitest.NewServer(t)
			tid := apitest.BulkTemplate(t, srv)
			r := send(t, srv, srv.APIKey, http.MethodPost, "/v3/signature_request/bulk_send_with_template",
				lgField{Name: "template_ids[0]", Value: tid}, lgField{Name: "test_mode", Value: "1"},
				lgField{Name: "signer_list", Value: `[{"signers":{"Client":{"name":"George","email_address":"george@example.com"}},"custom_fields":{"company":"ABC Corp"}},` +
					`{"signers":{"Client":{"name":"Mary","email_address":"mary@example.com"}}}]`},
				lgField{Name: "ccs[Accounting][email_address]", Value: "accounting@example.com"},
			)
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			job := r.Map()["bulk_send_job"].(map[string]any)
			assert.EqualValues(t, 2, job["total"])
		})
	}
}
