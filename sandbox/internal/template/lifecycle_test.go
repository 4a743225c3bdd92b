package template_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestTemplateCreatePreparedAsynchronously(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendPDFs(t, srv, srv.APIKey, http.MethodPost, "/v3/template/create", apitest.StandardTemplate(),
		apitest.PDFFile{Name: "nda.pdf", Data: apitest.SamplePDF(t)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var created map[string]map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &created))
	assert.Equal(t, []string{"template_id"}, tplKeys(created["template"]), "TemplateCreateResponse carries only the id")
	id := created["template"]["template_id"].(string)

	// Readable at once, files refused until prepared, no event yet.
	tpl := apitest.GetTemplate(t, srv, srv.APIKey, id)
	assert.Equal(t, "Mutual NDA", tpl["title"])
	for _, p := range []string{"/v3/template/files/", "/v3/template/files_as_data_uri/", "/v3/template/files_as_file_url/"} {
		f := srv.Do(http.MethodGet, p+id, nil)
		assert.Equal(t, http.StatusConflict, f.Status, "%s while preparing: %s", p, f.Body)
		name, _, _ := apitest.ErrorParts(t, f.Body)
		assert.Equal(t, "conflict", name)
	}
	assert.Empty(t, apitest.Events(srv, "template_created", id))

	srv.Advance(apitest.TemplatePrepDelay - 1e9)
	assert.Empty(t, apitest.Events(srv, "template_created", id), "not before the preparation delay")
	srv.Advance(1e9)
	evs := apitest.Events(srv, "template_created", id)
	require.Len(t, evs, 1)
	assert.Equal(t, []string{apitest.OwnerID}, evs[0].AccountIDs)
	var obj map[string]any
	require.NoError(t, json.Unmarshal(evs[0].Object, &obj))
	assert.Equal(t, id, obj["template_id"])

	for _, p := range []string{"/v3/template/files/", "/v3/template/files_as_data_uri/", "/v3/template/files_as_file_url/"} {
		f := srv.Do(http.MethodGet, p+id, nil)
		assert.Equal(t, http.StatusOK, f.Status, "%s when ready: %.300s", p, f.Body)
	}
}

func TestTemplateGetRendersTheOfficialShape(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	tpl := apitest.GetTemplate(t, srv, srv.APIKey, id)

	assert.Equal(t, id, tpl["template_id"])
	assert.Equal(t, "For your signature", tpl["message"])
	assert.Equal(t, true, tpl["is_creator"])
	assert.Equal(t, true, tpl["can_edit"])
	assert.Equal(t, false, tpl["is_embedded"])
	assert.Equal(t, false, tpl["is_locked"])
	assert.Equal(t, map[string]any{"deal": "42", "amount": 1234.5}, tpl["metadata"])
	assert.Equal(t, []any{map[string]any{"name": "Client", "order": 0.0}, map[string]any{"name": "Witness", "order": 1.0}}, tpl["signer_roles"])
	assert.Equal(t, []any{map[string]any{"name": "Manager"}}, tpl["cc_roles"])

	docs := tpl["documents"].([]any)
	require.Len(t, docs, 1)
	doc := docs[0].(map[string]any)
	assert.Equal(t, "nda.pdf", doc["name"])
	assert.EqualValues(t, 0, doc["index"])
	assert.Equal(t, []any{map[string]any{"name": "agree", "rule": map[string]any{"requirement": "require_1", "groupLabel": "Agreement"}}}, doc["field_groups"])

	fields := map[string]map[string]any{}
	for _, f := range doc["form_fields"].([]any) {
		m := f.(map[string]any)
		fields[m["api_id"].(string)] = m
	}
	require.Len(t, fields, 5, "merge fields are custom fields, not form fields")
	assert.Equal(t, "1", fields["sig_client"]["signer"], "signers are role numbers from 1")
	assert.Equal(t, "2", fields["wit_name"]["signer"], "a field may name its role")
	assert.Equal(t, "letters_only", fields["wit_name"]["validation_type"])
	assert.Equal(t, "arial", fields["wit_name"]["fontFamily"])
	assert.EqualValues(t, 12, fields["wit_name"]["originalFontSize"])
	assert.Contains(t, fields["wit_name"], "avg_text_length")
	assert.Contains(t, fields["wit_name"], "isMultiline")
	assert.Equal(t, "agree", fields["agree_a"]["group"])
	assert.Nil(t, fields["sig_client"]["group"])
	assert.NotContains(t, fields["sig_client"], "validation_type", "text-only keys stay on text fields")

	custom := map[string]map[string]any{}
	for _, f := range doc["custom_fields"].([]any) {
		m := f.(map[string]any)
		custom[m["name"].(string)] = m
	}
	require.Len(t, custom, 2)
	assert.Equal(t, "text", custom["Full Name"]["type"])
	assert.Nil(t, custom["Full Name"]["signer"], "merge fields belong to the sender")
	assert.Equal(t, "checkbox", custom["Is Registered"]["type"])
	assert.Equal(t, "merge_reg", custom["Is Registered"]["api_id"])

	require.Len(t, tpl["attachments"], 1)
	att := tpl["attachments"].([]any)[0].(map[string]any)
	assert.Equal(t, "ID card", att["name"])
	assert.Equal(t, "2", att["signer"], "attachments name their role by number")
	assert.Equal(t, map[string]any{"form_view": "enabled"}, tpl["signer_experience"])

	accounts := tpl["accounts"].([]any)
	require.Len(t, accounts, 1)
	acct := accounts[0].(map[string]any)
	assert.Equal(t, "owner@sandbox.example", acct["email_address"])
	assert.EqualValues(t, 99, acct["quotas"].(map[string]any)["templates_left"])
	assert.NotContains(t, acct["quotas"], "documents_left", "unlimited quotas are left out (the schema does not allow null)")
}

func TestTemplateListPagingAndAccounts(t *testing.T) {
	srv := apitest.NewServer(t)
	var ids []string
	for i := 0; i < 5; i++ {
		f := apitest.StandardTemplate()
		f["title"] = "Contract " + strconv.Itoa(i)
		ids = append(ids, apitest.CreateTemplate(t, srv, srv.APIKey, f))
	}
	srv.Advance(apitest.TemplatePrepDelay)

	r := srv.Do(http.MethodGet, "/v3/template/list?page_size=2&page=2", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var out struct {
		Templates []map[string]any `json:"templates"`
		ListInfo  map[string]any   `json:"list_info"`
	}
	require.NoError(t, r.JSON(&out))
	assert.Equal(t, map[string]any{"num_pages": 3.0, "num_results": 5.0, "page": 2.0, "page_size": 2.0}, out.ListInfo)
	require.Len(t, out.Templates, 2)
	assert.Equal(t, ids[2], out.Templates[0]["template_id"], "newest first")
	assert.Equal(t, ids[1], out.Templates[1]["template_id"])

	assert.Equal(t, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""))
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, srv.APIKey, "?page=9"), "a page past the end is empty")
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, ""), "not shared yet")
	assert.Len(t, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, "?account_id=all"), 5, "team-wide list")
	assert.Len(t, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, "?account_id="+apitest.OwnerID), 5, "a team member's list")

	for _, tc := range []struct{ name, query, path string }{
		{"page 0", "?page=0", "page"},
		{"page_size 0", "?page_size=0", "page_size"},
		{"page_size 101", "?page_size=101", "page_size"},
		{"bad query", "?query=to:me", "query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.Do(http.MethodGet, "/v3/template/list"+tc.query, nil)
			assert.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
			_, _, path := apitest.ErrorParts(t, r.Body)
			assert.Equal(t, tc.path, path)
		})
	}
	r = srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/template/list?account_id="+apitest.OwnerID, nil)
	assert.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
}

func TestTemplateListQuery(t *testing.T) {
	srv := apitest.NewServer(t)
	a := apitest.StandardTemplate()
	a["title"], a["message"] = "Field Trip Release", "Bring a lunch"
	idA := apitest.CreateTemplate(t, srv, srv.APIKey, a)
	b := apitest.StandardTemplate()
	b["title"], b["metadata"] = "Employment contract", map[string]any{"department": "sales"}
	idB := apitest.CreateTemplate(t, srv, srv.APIKey, b, apitest.PDFFile{Name: "offer-letter.pdf", Data: apitest.SamplePDF(t)})
	c := apitest.StandardTemplate()
	c["title"], c["test_mode"] = "Test only", true
	idC := apitest.CreateTemplate(t, srv, srv.APIKey, c)
	srv.Advance(apitest.TemplatePrepDelay)

	cases := []struct {
		query string
		want  []string
	}{
		{"title:Field Trip Release", []string{idA}},
		{"title:field AND message:lunch", []string{idA}},
		{"title:Field OR title:Employment", []string{idB, idA}},
		{"metadata:sales", []string{idB}},
		{"filename:offer*", []string{idB}},
		{"test_mode:true", []string{idC}},
		{"contract", []string{idB}},
		{"owner:me", []string{idC, idB, idA}},
		{"created:[2025-01-01 TO 2025-01-01]", []string{idC, idB, idA}},
		{"created:{2025-01-01 TO 2025-01-03}", []string{}},
		{"(title:trip OR title:test) AND test_mode:false", []string{idA}},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			q := "?query=" + url.QueryEscape(tc.query)
			assert.Equal(t, tc.want, apitest.ListTemplateIDs(t, srv, srv.APIKey, q))
		})
	}
	for _, bad := range []string{"(title:a", "title:a)", "*foo", "from:me", "nosuchfield:x", "created:[2020 TO x]", "title:a AND"} {
		r := srv.Do(http.MethodGet, "/v3/template/list?query="+url.QueryEscape(bad), nil)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%q: %s", bad, r.Body)
	}
}

func TestTemplateDelete(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	assert.EqualValues(t, 99, apitest.Quotas(t, srv, srv.APIKey)["templates_left"])

	r := srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/template/delete/"+id, nil)
	assert.Equal(t, http.StatusForbidden, r.Status, "a team member may read but not delete: %s", r.Body)
	r = srv.DoAs(apitest.OutsiderKey, http.MethodPost, "/v3/template/delete/"+id, nil)
	assert.Equal(t, http.StatusNotFound, r.Status, "%s", r.Body)

	r = srv.Do(http.MethodPost, "/v3/template/delete/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body, "empty 200")
	assert.EqualValues(t, 100, apitest.Quotas(t, srv, srv.APIKey)["templates_left"], "the quota unit comes back")

	r = srv.Do(http.MethodGet, "/v3/template/"+id, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	name, _, _ := apitest.ErrorParts(t, r.Body)
	assert.Equal(t, "not_found", name)
	r = srv.Do(http.MethodPost, "/v3/template/delete/"+id, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Empty(t, apitest.ListTemplateIDs(t, srv, srv.APIKey, ""))
}

func TestTemplateOfAnotherWorldIsNotFound(t *testing.T) {
	srv := apitest.NewServer(t)
	id := apitest.ReadyTemplate(t, srv)
	w := srv.NewWorld()
	for _, p := range []string{"/v3/template/" + id, "/v3/template/files/" + id} {
		r := srv.DoAs(w.APIKey, http.MethodGet, p, nil)
		assert.Equal(t, http.StatusNotFound, r.Status, "%s: %s", p, r.Body)
	}
	r := srv.DoAs(w.APIKey, http.MethodPost, "/v3/template/delete/"+id, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = srv.DoAs(w.APIKey, http.MethodPost, "/v3/template/add_user/"+id, map[string]any{"email_address": "owner@sandbox.example"})
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Equal(t, http.StatusOK, srv.Do(http.MethodGet, "/v3/template/"+id, nil).Status, "still there in its own world")
}

func tplKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestTemplateStateRoundTripsThroughExport(t *testing.T) {
	srv := apitest.NewServer(t)
	f := apitest.StandardTemplate()
	f["metadata"] = map[string]any{"big": json.Number("12345678901234567890"), "pi": json.Number("3.14159265358979323846")}
	ready := apitest.CreateTemplate(t, srv, srv.APIKey, f)
	srv.Advance(apitest.TemplatePrepDelay)
	preparing := apitest.CreateTemplate(t, srv, srv.APIKey, apitest.StandardTemplate())
	require.Equal(t, http.StatusOK, srv.Do(http.MethodPost, "/v3/template/add_user/"+ready, map[string]any{"account_id": apitest.TeammateID}).Status)

	export := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	require.Equal(t, http.StatusOK, export.Status)
	before := srv.Do(http.MethodGet, "/v3/template/"+ready, nil).Body
	assert.Contains(t, string(before), `"big":12345678901234567890`, "metadata numbers stay exact")
	assert.Contains(t, string(before), `"pi":3.14159265358979323846`)

	imp := srv.Do(http.MethodPut, "/_sandbox/state", export.Body)
	require.Equal(t, http.StatusOK, imp.Status, "%s", imp.Body)
	again := srv.Do(http.MethodGet, "/_sandbox/state", nil)
	assert.JSONEq(t, string(export.Body), string(again.Body))
	assert.Equal(t, string(before), string(srv.Do(http.MethodGet, "/v3/template/"+ready, nil).Body))
	assert.Equal(t, []string{ready}, apitest.ListTemplateIDs(t, srv, apitest.TeammateKey, ""), "the access index is restored")

	// The imported world still finishes the pending preparation.
	srv.Advance(apitest.TemplatePrepDelay)
	assert.Len(t, apitest.Events(srv, "template_created", preparing), 1)
}
