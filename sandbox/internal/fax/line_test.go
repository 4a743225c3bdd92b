package fax_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apitest"
)

func TestFaxLineAreaCodes(t *testing.T) {
	srv := apitest.NewServer(t)
	codes := func(q string) []any {
		t.Helper()
		r := srv.Do(http.MethodGet, "/v3/fax_line/area_codes?"+q, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", q, r.Body)
		return r.Map()["area_codes"].([]any)
	}
	// California's codes are those of the official example.
	assert.Equal(t, []any{209.0, 213.0, 310.0, 323.0, 408.0, 415.0, 424.0, 510.0, 530.0, 559.0, 562.0, 619.0, 626.0, 650.0, 657.0,
		661.0, 669.0, 707.0, 714.0, 747.0, 760.0, 805.0, 818.0, 831.0, 858.0, 909.0, 916.0, 925.0, 949.0, 951.0}, codes("country=US&state=CA"))
	assert.Equal(t, []any{415.0}, codes("country=US&state=CA&city=san%20francisco"))
	assert.Equal(t, []any{212.0, 347.0, 646.0, 718.0, 917.0, 929.0}, codes("country=US&city=New+York"))
	assert.Equal(t, []any{416.0, 437.0, 647.0}, codes("country=CA&province=ON&city=Toronto"))
	assert.Equal(t, []any{20.0}, codes("country=UK&city=London"))
	assert.Empty(t, codes("country=US&city=Atlantis"))
	assert.Empty(t, codes("country=US&state=NY&city=Chicago"))
	us := codes("country=US")
	assert.Greater(t, len(us), 100)
	for i := 1; i < len(us); i++ {
		assert.Less(t, us[i-1].(float64), us[i].(float64), "sorted and unique")
	}

	for _, tc := range []struct{ q, path string }{
		{"", "country"}, {"country=FR", "country"}, {"country=us", "country"},
		{"country=CA&state=CA", "state"}, {"country=US&state=XX", "state"},
		{"country=US&province=ON", "province"}, {"country=CA&province=ZZ", "province"},
	} {
		apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax_line/area_codes?"+tc.q, nil), http.StatusBadRequest, "bad_request", tc.path)
	}
}

var nanpNumber = regexp.MustCompile(`^1415555\d{4}$`)

func createFaxLine(t *testing.T, key string, srvDo func(key, method, path string, body any) (int, map[string]any), body map[string]any) map[string]any {
	t.Helper()
	status, m := srvDo(key, http.MethodPost, "/v3/fax_line/create", body)
	require.Equal(t, http.StatusOK, status, "%v", m)
	return m["fax_line"].(map[string]any)
}

func TestFaxLineCreateGetDelete(t *testing.T) {
	srv := apitest.NewServer(t)
	do := func(key, method, path string, body any) (int, map[string]any) {
		r := srv.DoAs(key, method, path, body)
		return r.Status, r.Map()
	}
	line := createFaxLine(t, srv.APIKey, do, map[string]any{"area_code": 415, "country": "US", "city": "San Francisco"})
	number := line["number"].(string)
	assert.Regexp(t, nanpNumber, number)
	assert.EqualValues(t, srv.Now().Unix(), line["created_at"])
	assert.Equal(t, line["created_at"], line["updated_at"])
	accounts := line["accounts"].([]any)
	require.Len(t, accounts, 1)
	assert.Equal(t, map[string]any{"account_id": apitest.OwnerID, "email_address": "owner@sandbox.example",
		"is_locked": false, "is_paid_hs": true, "is_paid_hf": false}, accounts[0], "the fields of the official example")

	// The number is found however it is written.
	for _, n := range []string{number, "+" + number, "(" + number[1:4] + ") " + number[4:7] + "-" + number[7:]} {
		r := srv.Do(http.MethodGet, "/v3/fax_line?number="+url.QueryEscape(n), nil)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", n, r.Body)
		assert.Equal(t, number, apitest.Obj(t, r.Map(), "fax_line")["number"])
	}
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax_line", nil), http.StatusBadRequest, "bad_request", "number")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax_line?number=10000000000", nil), http.StatusNotFound, "not_found", "number")
	apitest.WantErrorMsg(t, srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/fax_line?number="+number, nil), http.StatusForbidden, "forbidden", "number")
	// A teammate sees the line but cannot delete it.
	require.Equal(t, http.StatusOK, srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/fax_line?number="+number, nil).Status)
	apitest.WantErrorMsg(t, srv.DoAs(apitest.TeammateKey, http.MethodDelete, "/v3/fax_line", map[string]any{"number": number}), http.StatusForbidden, "forbidden", "number")

	r := srv.Do(http.MethodDelete, "/v3/fax_line", map[string]any{"number": number})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Body)
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax_line?number="+number, nil), http.StatusNotFound, "not_found", "number")
	apitest.WantErrorMsg(t, srv.Do(http.MethodDelete, "/v3/fax_line", map[string]any{}), http.StatusBadRequest, "bad_request", "number")
}

func TestFaxLineCreateValidation(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := []struct {
		name   string
		body   map[string]any
		status int
		err    string
		path   string
	}{
		{"missing area_code", map[string]any{"country": "US"}, 400, "bad_request", "area_code"},
		{"area_code not a number", map[string]any{"country": "US", "area_code": "abc"}, 400, "bad_request", "area_code"},
		{"missing country", map[string]any{"area_code": 415}, 400, "bad_request", "country"},
		{"unknown country", map[string]any{"area_code": 415, "country": "DE"}, 400, "bad_request", "country"},
		{"area code of another country", map[string]any{"area_code": 416, "country": "US"}, 400, "bad_request", "area_code"},
		{"area code not in the city", map[string]any{"area_code": 212, "country": "US", "city": "Chicago"}, 400, "bad_request", "city"},
		{"account of another team", map[string]any{"area_code": 415, "country": "US", "account_id": apitest.OutsiderID}, 403, "forbidden", "account_id"},
		{"unknown account", map[string]any{"area_code": 415, "country": "US", "account_id": "0000000000000000000000000000000000000000"}, 404, "not_found", "account_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			apitest.WantErrorMsg(t, srv.Do(http.MethodPost, "/v3/fax_line/create", tc.body), tc.status, tc.err, tc.path)
		})
	}

	t.Run("for a teammate, and in the UK", func(t *testing.T) {
		r := srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": "212", "country": "US", "account_id": apitest.TeammateID})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		accounts := apitest.Obj(t, r.Map(), "fax_line")["accounts"].([]any)
		assert.Equal(t, apitest.TeammateID, accounts[0].(map[string]any)["account_id"])
		r = srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": 20, "country": "UK"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		assert.Regexp(t, `^44207946\d{4}$`, apitest.Obj(t, r.Map(), "fax_line")["number"])
		r = srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": 1865, "country": "UK"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		assert.Regexp(t, `^441865496\d{3}$`, apitest.Obj(t, r.Map(), "fax_line")["number"])
	})
}

func TestFaxLineUsers(t *testing.T) {
	srv := apitest.NewServer(t)
	r := srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": 415, "country": "US"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	number := apitest.Obj(t, r.Map(), "fax_line")["number"].(string)
	created := apitest.Obj(t, r.Map(), "fax_line")["created_at"].(float64)
	srv.Advance(time.Minute)

	r = srv.Do(http.MethodPut, "/v3/fax_line/add_user", map[string]any{"number": number, "email_address": "teammate@sandbox.example"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	line := apitest.Obj(t, r.Map(), "fax_line")
	require.Len(t, line["accounts"], 2)
	assert.Equal(t, created+60, line["updated_at"])
	r = srv.Do(http.MethodPut, "/v3/fax_line/add_user", map[string]any{"number": number, "account_id": apitest.TeammateID})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, apitest.Obj(t, r.Map(), "fax_line")["accounts"], 2, "adding twice changes nothing")

	// The teammate now lists the line without show_team_lines.
	r = srv.DoAs(apitest.TeammateKey, http.MethodGet, "/v3/fax_line/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, r.Map()["fax_lines"], 1)

	for _, tc := range []struct {
		name   string
		key    string
		path   string
		body   map[string]any
		status int
		err    string
		epath  string
	}{
		{"outsider cannot be added", "", "add_user", map[string]any{"number": number, "account_id": apitest.OutsiderID}, 403, "forbidden", "account_id"},
		{"unknown address", "", "add_user", map[string]any{"number": number, "email_address": "nobody@example.com"}, 404, "not_found", "email_address"},
		{"invalid address", "", "add_user", map[string]any{"number": number, "email_address": "nobody"}, 400, "bad_request", "email_address"},
		{"no user", "", "add_user", map[string]any{"number": number}, 400, "bad_request", "account_id"},
		{"no number", "", "add_user", map[string]any{"account_id": apitest.TeammateID}, 400, "bad_request", "number"},
		{"members cannot manage the owner's line", apitest.TeammateKey, "add_user", map[string]any{"number": number, "account_id": apitest.TeammateID}, 403, "forbidden", "number"},
		{"the owner stays", "", "remove_user", map[string]any{"number": number, "account_id": apitest.OwnerID}, 400, "bad_request", "account_id"},
		{"not on the line", "", "remove_user", map[string]any{"number": number, "email_address": "outsider@elsewhere.example"}, 400, "bad_request", "email_address"},
		{"unknown line", "", "remove_user", map[string]any{"number": "19999999999", "account_id": apitest.TeammateID}, 404, "not_found", "number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := tc.key
			if key == "" {
				key = srv.APIKey
			}
			apitest.WantErrorMsg(t, srv.DoAs(key, http.MethodPut, "/v3/fax_line/"+tc.path, tc.body), tc.status, tc.err, tc.epath)
		})
	}

	r = srv.Do(http.MethodPut, "/v3/fax_line/remove_user", map[string]any{"number": number, "account_id": apitest.TeammateID})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Len(t, apitest.Obj(t, r.Map(), "fax_line")["accounts"], 1)
}

func TestFaxLineList(t *testing.T) {
	srv := apitest.NewServer(t)
	var mine []string
	for _, code := range []int{415, 212, 206} {
		r := srv.Do(http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": code, "country": "US"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		mine = append(mine, apitest.Obj(t, r.Map(), "fax_line")["number"].(string))
	}
	r := srv.DoAs(apitest.TeammateKey, http.MethodPost, "/v3/fax_line/create", map[string]any{"area_code": 312, "country": "US"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	mate := apitest.Obj(t, r.Map(), "fax_line")["number"].(string)

	numbers := func(r2 map[string]any) []string {
		var out []string
		for _, l := range apitest.List(t, r2, "fax_lines") {
			out = append(out, l["number"].(string))
		}
		return out
	}
	r = srv.Do(http.MethodGet, "/v3/fax_line/list", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, []string{mine[2], mine[1], mine[0]}, numbers(r.Map()), "newest first")
	r = srv.Do(http.MethodGet, "/v3/fax_line/list?show_team_lines=true", nil)
	assert.Equal(t, []string{mate, mine[2], mine[1], mine[0]}, numbers(r.Map()))
	r = srv.Do(http.MethodGet, "/v3/fax_line/list?account_id="+apitest.TeammateID, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, []string{mate}, numbers(r.Map()))
	r = srv.Do(http.MethodGet, "/v3/fax_line/list?page=2&page_size=2", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, []string{mine[0]}, numbers(r.Map()))
	assert.Equal(t, map[string]any{"num_pages": 2.0, "num_results": 3.0, "page": 2.0, "page_size": 2.0}, r.Map()["list_info"])

	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax_line/list?account_id="+apitest.OutsiderID, nil), http.StatusForbidden, "forbidden", "account_id")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax_line/list?page_size=0", nil), http.StatusBadRequest, "bad_request", "page_size")
	apitest.WantErrorMsg(t, srv.Do(http.MethodGet, "/v3/fax_line/list?show_team_lines=maybe", nil), http.StatusBadRequest, "bad_request", "show_team_lines")
	r = srv.DoAs(apitest.OutsiderKey, http.MethodGet, "/v3/fax_line/list?show_team_lines=1", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Empty(t, r.Map()["fax_lines"])
}

func TestFaxLineRequiresAPIKey(t *testing.T) {
	srv := apitest.NewServer(t)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v3/fax_line/list", nil)
	req.Header.Set("Authorization", "Bearer whatever")
	r := srv.Send(req)
	assert.Equal(t, http.StatusUnauthorized, r.Status, "%s", r.Body)
}
