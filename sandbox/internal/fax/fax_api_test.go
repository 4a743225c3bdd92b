package fax_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
	"github.com/signsandbox/signsandbox/sandbox/internal/pdf/pdftest"
	"github.com/signsandbox/signsandbox/sandbox/sandboxtest"
)

func faxPagesLeft(t *testing.T, srv *sandboxtest.Server, key string) (left, sent float64) {
	t.Helper()
	acct := apitest.Obj(t, srv.DoAs(key, http.MethodGet, "/v3/account", nil).Map(), "account")
	return apitest.Obj(t, acct, "quotas")["num_fax_pages_left"].(float64), apitest.Obj(t, acct, "usage")["fax_pages_sent"].(float64)
}

func TestFaxSendAndTransmit(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendFax(t, srv, srv.APIKey, map[string]string{
		"recipient": "+1 669 000 0001", "title": "This is what the fax is about!",
		"cover_page_to": "Jill Fax", "cover_page_from": "Faxer Faxerson", "cover_page_message": "I'm sending you a fax!",
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	fax := apitest.Obj(t, r.Map(), "fax")
	id := fax["fax_id"].(string)
	assert.Len(t, id, 40)
	assert.Equal(t, "This is what the fax is about!", fax["title"])
	assert.Equal(t, fax["title"], fax["original_title"])
	assert.Nil(t, fax["subject"])
	assert.Equal(t, "I'm sending you a fax!", fax["message"])
	assert.Equal(t, map[string]any{}, fax["metadata"])
	assert.Equal(t, "owner@sandbox.example", fax["sender"])
	assert.Equal(t, srv.URL+"/v3/fax/files/"+id, fax["files_url"])
	assert.Nil(t, fax["final_copy_uri"])
	assert.Equal(t, []any{map[string]any{"recipient": "+1 669 000 0001", "status_code": "transmitting"}}, fax["transmissions"])

	// One page plus the cover page are taken from the quota at once and
	// counted as sent when the transmission succeeded.
	left, sent := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 98.0, left)
	assert.Equal(t, 0.0, sent)

	jobs := srv.Advance(30 * time.Second)
	require.Len(t, jobs, 1)
	assert.Equal(t, "fax.transmit", jobs[0].Kind)
	r = srv.Do(http.MethodGet, "/v3/fax/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	fax = apitest.Obj(t, r.Map(), "fax")
	tr := apitest.List(t, fax, "transmissions")[0]
	assert.Equal(t, "success", tr["status_code"])
	assert.EqualValues(t, srv.Now().Unix(), tr["sent_at"])
	assert.Equal(t, "/v3/fax/files/"+id, fax["final_copy_uri"])
	left, sent = faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 98.0, left)
	assert.Equal(t, 2.0, sent)
}

func TestFaxTransmissionFailuresGiveThePagesBack(t *testing.T) {
	srv := apitest.NewServer(t)
	want := map[string]string{
		"14155550486": "error_busy", "14155550480": "error_no_answer", "14155550404": "error_bad_destination",
		"14155550487": "error_disconnected", "14155550500": "error_unknown", "14155550503": "error_could_not_fax",
	}
	ids := map[string]string{}
	for number := range want {
		r := apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": number})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		ids[number] = apitest.Obj(t, r.Map(), "fax")["fax_id"].(string)
	}
	left, _ := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 94.0, left)
	srv.Advance(time.Minute)
	for number, status := range want {
		r := srv.Do(http.MethodGet, "/v3/fax/"+ids[number], nil)
		fax := apitest.Obj(t, r.Map(), "fax")
		assert.Equal(t, status, apitest.List(t, fax, "transmissions")[0]["status_code"], number)
		assert.Nil(t, fax["final_copy_uri"])
	}
	left, sent := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 100.0, left)
	assert.Equal(t, 0.0, sent)
}

func TestFaxToEmailAndTestMode(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "jill@example.com", "sender": "16690000000", "test_mode": "true"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	warnings := apitest.List(t, r.Map(), "warnings")
	require.Len(t, warnings, 1)
	assert.Equal(t, "parameter_ignored", warnings[0]["warning_name"], "sender is only used with a fax number")
	fax := apitest.Obj(t, r.Map(), "fax")
	assert.Equal(t, "contract.pdf", fax["title"], "the title defaults to the first file's name")
	left, _ := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 100.0, left, "test_mode faxes are free")

	srv.Advance(time.Minute)
	mails := apitest.Emails(t, srv, "kind=fax")
	require.Len(t, mails, 1)
	assert.Equal(t, "jill@example.com", mails[0]["to"])
	assert.Equal(t, fax["files_url"], mails[0]["link"])
	_, sent := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 0.0, sent)

	// The sender number is shown when the recipient is a number.
	r = apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "16690000001", "sender": "16690000000", "test_mode": "1"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "16690000000", apitest.Obj(t, r.Map(), "fax")["sender"])
}

func TestFaxFilesMergesTheDocuments(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendParts(t, srv, srv.APIKey, http.MethodPost, "/v3/fax/send",
		apitest.FilePart("files[0]", "a.pdf", "application/pdf", apitest.PDF(1)),
		apitest.FilePart("files[1]", "b.pdf", "application/pdf", apitest.PDF(2)),
		apitest.Field("recipient", "16690000001"), apitest.Field("test_mode", "true"))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := apitest.Obj(t, r.Map(), "fax")["fax_id"].(string)
	r = srv.Do(http.MethodGet, "/v3/fax/files/"+id, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	info, err := pdf.Inspect(r.Body)
	require.NoError(t, err)
	assert.Len(t, info.Pages, 3, "one PDF with the pages of both documents")
	r2 := srv.Do(http.MethodGet, "/v3/fax/files/"+id, nil)
	assert.Equal(t, r.Body, r2.Body, "the same bytes every time")
}

func TestFaxPagesComeFromTheDocuments(t *testing.T) {
	srv := apitest.NewServer(t)
	r := apitest.SendParts(t, srv, srv.APIKey, http.MethodPost, "/v3/fax/send",
		apitest.FilePart("files[0]", "three.pdf", "application/pdf", apitest.PDF(3)), apitest.Field("recipient", "16690000001"))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	left, _ := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 97.0, left, "three pages, no cover page")

	// A file that cannot be read is accepted, and the transmission fails.
	r = apitest.SendParts(t, srv, srv.APIKey, http.MethodPost, "/v3/fax/send",
		apitest.FilePart("files[0]", "broken.pdf", "application/pdf", []byte("%PDF-1.4 truncated")), apitest.Field("recipient", "16690000001"))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := apitest.Obj(t, r.Map(), "fax")["fax_id"].(string)
	srv.Advance(time.Minute)
	fax := apitest.Obj(t, srv.Do(http.MethodGet, "/v3/fax/"+id, nil).Map(), "fax")
	assert.Equal(t, "error_could_not_fax", apitest.List(t, fax, "transmissions")[0]["status_code"])
	left, sent := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 97.0, left, "the failed fax's page is given back")
	assert.Equal(t, 3.0, sent)
}

func TestFaxSendWithFileURLs(t *testing.T) {
	pdf := apitest.PDF(1)
	fileServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(pdf)
	}))
	defer fileServer.Close()
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/fax/send", map[string]any{
		"file_urls": []string{fileServer.URL + "/nda.pdf"}, "test_mode": "true", "recipient": "16690000001", "title": "NDA",
	})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "NDA", apitest.Obj(t, r.Map(), "fax")["title"])
}

func TestFaxSendValidation(t *testing.T) {
	srv := apitest.NewServer(t)
	pdf := apitest.FilePart("files[0]", "a.pdf", "application/pdf", apitest.PDF(1))
	cases := []struct {
		name   string
		key    string
		parts  []apitest.Part
		status int
		err    string
		path   string
	}{
		{"missing recipient", "", []apitest.Part{pdf}, 400, "bad_request", "recipient"},
		{"recipient is neither", "", []apitest.Part{pdf, apitest.Field("recipient", "call me")}, 400, "bad_request", "recipient"},
		{"recipient too short", "", []apitest.Part{pdf, apitest.Field("recipient", "12345")}, 400, "bad_request", "recipient"},
		{"bad email recipient", "", []apitest.Part{pdf, apitest.Field("recipient", "a@b")}, 400, "bad_request", "recipient"},
		{"bad sender", "", []apitest.Part{pdf, apitest.Field("recipient", "16690000001"), apitest.Field("sender", "me")}, 400, "bad_request", "sender"},
		{"no files", "", []apitest.Part{apitest.Field("recipient", "16690000001")}, 400, "bad_request", "files"},
		{"files and file_urls", "", []apitest.Part{pdf, apitest.Field("recipient", "16690000001"), apitest.Field("file_urls", `["https://example.com/a.pdf"]`)}, 400, "bad_request", "file_urls"},
		{"no fax pages left", apitest.TeammateKey, []apitest.Part{pdf, apitest.Field("recipient", "16690000001")}, 402, "payment_required", ""},
		{"test_mode is not a boolean", "", []apitest.Part{pdf, apitest.Field("recipient", "16690000001"), apitest.Field("test_mode", "maybe")}, 400, "bad_request", "test_mode"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := tc.key
			if key == "" {
				key = srv.APIKey
			}
			apitest.WantErrorMsg(t, apitest.SendParts(t, srv, key, http.MethodPost, "/v3/fax/send", tc.parts...), tc.status, tc.err, tc.path)
		})
	}
	t.Run("test_mode needs no pages", func(t *testing.T) {
		r := apitest.SendParts(t, srv, apitest.TeammateKey, http.MethodPost, "/v3/fax/send", pdf, apitest.Field("recipient", "16690000001"), apitest.Field("test_mode", "true"))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	})
}

func TestFaxGetListDeleteFiles(t *testing.T) {
	srv := apitest.NewServer(t)
	var ids []string
	for i := range 3 {
		r := apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "1669000000" + strconv.Itoa(i), "title": "Fax " + strconv.Itoa(i)})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		ids = append(ids, apitest.Obj(t, r.Map(), "fax")["fax_id"].(string))
		srv.Advance(time.Second)
	}

	r := srv.Do(http.MethodGet, "/v3/fax/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	faxes := apitest.List(t, r.Map(), "faxes")
	require.Len(t, faxes, 3)
	assert.Equal(t, ids[2], faxes[0]["fax_id"], "newest first")
	r = srv.Do(http.MethodGet, "/v3/fax/list?page=2&page_size=2", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, ids[0], apitest.List(t, r.Map(), "faxes")[0]["fax_id"])
	assert.Equal(t, map[string]any{"num_pages": 2.0, "num_results": 3.0, "page": 2.0, "page_size": 2.0}, r.Map()["list_info"])
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax/list?page_size=101", nil), http.StatusBadRequest, "bad_request", "page_size")
	assert.Empty(t, apitest.List(t, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/fax/list", nil).Map(), "faxes"))

	apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/fax/"+ids[0], nil), http.StatusForbidden, "forbidden", "fax_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax/0000000000000000000000000000000000000000", nil), http.StatusNotFound, "not_found", "fax_id")

	r = srv.Do(http.MethodGet, "/v3/fax/files/"+ids[0], nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "application/pdf", r.Header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(string(r.Body), "%PDF-"), "a PDF")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/fax/files/"+ids[0], nil), http.StatusForbidden, "forbidden", "fax_id")

	// Deleting a fax still being transmitted stops it and gives its page back.
	left, _ := faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 97.0, left)
	r = srv.Do(http.MethodDelete, "/v3/fax/"+ids[2], nil)
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body)
	left, _ = faxPagesLeft(t, srv, srv.APIKey)
	assert.Equal(t, 98.0, left)
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax/"+ids[2], nil), http.StatusNotFound, "not_found", "fax_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax/files/"+ids[2], nil), http.StatusGone, "deleted", "")
	apitest.WantErrorMsg(t, srv.Do(http.MethodDelete, "/v3/fax/"+ids[2], nil), http.StatusNotFound, "not_found", "fax_id")
	assert.Len(t, apitest.List(t, srv.Do(http.MethodGet, "/v3/fax/list", nil).Map(), "faxes"), 2)
	for _, j := range srv.Advance(time.Hour) {
		assert.NotEqual(t, ids[2], j.Subject, "the deleted fax is not transmitted")
	}
}

func TestFaxSendRefusesTooManyPendingFaxes(t *testing.T) {
	srv := apitest.NewServer(t)
	for i := range 50 {
		r := apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "16690000001", "test_mode": "true"})
		require.Equal(t, http.StatusOK, r.Status, "fax %d: %s", i, r.Body)
	}
	apitest.WantErrorMsg(t, apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "16690000001", "test_mode": "true"}),
		http.StatusTooManyRequests, "max_faxes", "")
	srv.Advance(time.Minute)
	r := apitest.SendFax(t, srv, srv.APIKey, map[string]string{"recipient": "16690000001", "test_mode": "true"})
	assert.Equal(t, http.StatusOK, r.Status, "transmitted faxes no longer count: %s", r.Body)
}

// TestFaxCoverPageIsTheFirstPage pins that the cover page charged for is in
// the PDF: the fax's file has as many pages as were taken from the quota,
// the cover page first with cover_page_to, cover_page_from and
// cover_page_message.
func TestFaxCoverPageIsTheFirstPage(t *testing.T) {
	srv := apitest.NewServer(t)
	for name, tc := range map[string]struct {
		fields map[string]string
		pages  int
	}{
		"with cover page": {map[string]string{"recipient": "+1 669 000 0001", "title": "Signed lease",
			"cover_page_to": "Jill Fax", "cover_page_from": "Faxer Faxerson", "cover_page_message": "I'm sending you a fax!"}, 2},
		"message only":  {map[string]string{"recipient": "+1 669 000 0001", "cover_page_message": "Two pages"}, 2},
		"no cover page": {map[string]string{"recipient": "+1 669 000 0001"}, 1},
	} {
		t.Run(name, func(t *testing.T) {
			before, _ := faxPagesLeft(t, srv, srv.APIKey)
			r := apitest.SendFax(t, srv, srv.APIKey, tc.fields)
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			after, _ := faxPagesLeft(t, srv, srv.APIKey)
			assert.Equal(t, float64(tc.pages), before-after, "pages charged")
			r = srv.Do(http.MethodGet, "/v3/fax/files/"+apitest.Obj(t, r.Map(), "fax")["fax_id"].(string), nil)
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			assert.Equal(t, tc.pages, pdftest.Validate(t, r.Body), "pages in the PDF")
			if tc.pages == 2 && pdftest.HavePdftoppm() {
				first := strings.Split(pdftest.Text(t, r.Body), "\f")[0]
				for _, k := range []string{"cover_page_to", "cover_page_from", "cover_page_message"} {
					if v := tc.fields[k]; v != "" {
						assert.Contains(t, first, v)
					}
				}
				assert.Contains(t, first, "2 (this cover page included)")
			}
		})
	}
}
