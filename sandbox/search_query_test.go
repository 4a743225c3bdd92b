package sandbox

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/search"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

func qTemplate() *state.Template {
	return &state.Template{
		ID: "t1", OwnerID: "me", Title: "Field Trip Release", Message: "Bring a lunch", TestMode: true,
		CreatedAt: time.Date(2014, 6, 15, 12, 0, 0, 0, time.UTC).Unix(),
		Metadata:  json.RawMessage(`{"custom_id":1234.50,"team":"blue","nested":{"k":"deep"}}`),
		Documents: []state.Document{{Name: "release-form.pdf"}},
	}
}

// TestTemplateSearchMatching: templates follow the shared syntax, with the
// edges that used to differ from signature requests now the same: a quoted
// phrase after a field, 1/0 and any case for booleans, key:value metadata,
// exclusive time bounds, Unix seconds.
func TestTemplateSearchMatching(t *testing.T) {
	cases := []struct {
		q    string
		want bool
	}{
		{"title:Field", true},
		{`title:"trip release"`, true},
		{`title:"trip lunch"`, false},
		{"title:Field Trip Release", true},
		{"title:Field Picnic", false},
		{"message:lunch", true},
		{"metadata:blue", true},
		{"metadata:team:blue", true},
		{"metadata:team:red", false},
		{"metadata:custom_id:1234.50", true},
		{"metadata:deep", true},
		{"filename:release-form", true},
		{"filename:rel*", true},
		{"test_mode:true", true},
		{"test_mode:1", true},
		{"test_mode:TRUE", true},
		{"test_mode:0", false},
		{"owner:me", true},
		{"created:2014-06-15", true},
		{"created:[2014-06-15T11:00:00 TO 2014-06-15T13:00]", true},
		{"created:{2014-06-15T12:00:00Z TO *}", false},
		{"created:[2014-06-15T12:00:00Z TO *]", true},
		{"created:{1402833600 TO *]", false},
		{"created:{2014-06-14 TO 2014-06-16}", true},
		{"lunch OR nothing", true},
		{"(lunch AND nothing) OR blue", true},
		{"nothing", false},
	}
	for _, tc := range cases {
		t.Run(tc.q, func(t *testing.T) {
			f, err := template.ParseQuery(tc.q)
			require.NoError(t, err)
			assert.Equal(t, tc.want, f.Match(nil, qTemplate(), "me"))
		})
	}
	f, err := template.ParseQuery("")
	require.NoError(t, err)
	assert.True(t, f.Match(nil, qTemplate(), "other"), "an empty query matches everything")
}

// TestSearchFieldsPerList: each list refuses the other's fields with a
// message naming the list, and both refuse unknown fields, ranges on
// fields that are not dates and the same syntax errors, on query.
func TestSearchFieldsPerList(t *testing.T) {
	_, e := parseSearchQuery("owner:me")
	require.NotNil(t, e)
	assert.Contains(t, e.Msg, "applies to templates only")
	_, e = template.Search.Parse("from:me")
	require.NotNil(t, e)
	assert.Contains(t, e.Msg, "applies to signature requests only")

	for _, q := range []string{
		"nosuchfield:x", "title:", "*release", "title:*x", "AND title:x", "title:x OR", "(title:x", "title:x)",
		`title:"open`, "created:[2014-01-01 TO", "created:[2014-01-01 2014-02-01]", "created:yesterday",
		"test_mode:maybe", "title:[a TO b]", "message:{a TO b}",
	} {
		for name, res := range map[string]*search.Resource{"signature requests": sigreqSearch, "templates": template.Search} {
			t.Run(name+"/"+q, func(t *testing.T) {
				_, e := res.Parse(q)
				require.NotNil(t, e)
				assert.Equal(t, "query", e.Path)
				assert.Contains(t, e.Msg, "Invalid search query")
			})
		}
	}
}

// TestSearchTextValuesWithBrackets: a bracketed value that is not a range
// is plain text.
func TestSearchTextValuesWithBrackets(t *testing.T) {
	q, e := parseSearchQuery("title:[draft]")
	require.Nil(t, e)
	req := qReq()
	req.Title = "[DRAFT] Field Trip"
	assert.True(t, requestMatches(q, req, nil))
}
