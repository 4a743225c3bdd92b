package template

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

func qTemplate() *model.Template {
	return &model.Template{
		ID: "t1", OwnerID: "me", Title: "Field Trip Release", Message: "Bring a lunch", TestMode: true,
		CreatedAt: time.Date(2014, 6, 15, 12, 0, 0, 0, time.UTC).Unix(),
		Metadata:  json.RawMessage(`{"custom_id":1234.50,"team":"blue","nested":{"k":"deep"}}`),
		Documents: []model.Document{{Name: "release-form.pdf"}},
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
			f, err := ParseQuery(tc.q)
			require.NoError(t, err)
			assert.Equal(t, tc.want, f.Match(nil, qTemplate(), "me"))
		})
	}
	f, err := ParseQuery("")
	require.NoError(t, err)
	assert.True(t, f.Match(nil, qTemplate(), "other"), "an empty query matches everything")
}
