package sigreq

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/search"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
)

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
		for name, res := range map[string]*search.Resource{"signature requests": requestSearch, "templates": template.Search} {
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
	assert.True(t, matches(q, req, nil))
}
