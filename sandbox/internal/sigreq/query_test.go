package sigreq

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

func qReq() *model.SignatureRequest {
	return &model.SignatureRequest{
		ID: "r1", Title: "Field Trip Release", Subject: "Please sign the release", Message: "Bring a lunch",
		RequesterAccountID: "me", RequesterEmail: "owner@sandbox.example", RequesterName: "Sandbox Owner",
		CreatedAt: time.Date(2014, 6, 15, 12, 0, 0, 0, time.UTC).Unix(), Phase: model.PhaseSent, TestMode: true,
		Metadata:    map[string]any{"custom_id": json.Number("1234"), "team": "blue"},
		TemplateIDs: []string{"tpl1"},
		Documents:   []model.Document{{Name: "release-form.pdf"}},
		Signatures:  []model.Signature{{ID: "s", Email: "parent@example.com", Name: "Pat Parent", Status: model.SigAwaiting}},
	}
}

func TestSearchQueryMatching(t *testing.T) {
	me := &model.Account{ID: "me", Email: "owner@sandbox.example"}
	parent := &model.Account{ID: "p", Email: "parent@example.com"}
	cases := []struct {
		q    string
		who  *model.Account
		want bool
	}{
		{"title:Field", me, true},
		{"title:Field Trip Release AND from:me", me, true},
		{"title:Field AND from:me", parent, false},
		{`title:"trip release"`, me, true},
		{"title:Picnic", me, false},
		{"title:Picnic OR subject:release", me, true},
		{"title:Picnic OR subject:nope", me, false},
		{"(title:Picnic OR title:field) AND to:parent", me, true},
		{"to:me", parent, true},
		{"to:me", me, false},
		{"to:Pat", me, true},
		{"from:Owner", me, true},
		{"message:lunch", me, true},
		{"metadata:1234", me, true},
		{"metadata:custom_id:1234", me, true},
		{"metadata:team:red", me, false},
		{"filename:release-form", me, true},
		{"template:tpl1", me, true},
		{"template:tpl2", me, false},
		{"complete:true", me, false},
		{"complete:false", me, true},
		{"declined:false", me, true},
		{"test_mode:true", me, true},
		{"test_mode:false", me, false},
		{"awaiting_my_signature:true", parent, true},
		{"awaiting_my_signature:true", me, false},
		{"created:[2014-01-01 TO 2014-12-31]", me, true},
		{"created:[2014-06-15 TO 2014-06-15]", me, true},
		{"created:{2014-06-15 TO 2014-06-20}", me, false},
		{"created:{2014-06-14 TO 2014-06-16}", me, true},
		{"created:[2015-01-01 TO *]", me, false},
		{"created:[* TO 2014-06-15]", me, true},
		{"created:2014-06-15", me, true},
		{"created:2014-06-16", me, false},
		{"release", me, true},
		{"releas*", me, true},
		{"lunch AND blue", me, true},
		{"lunch blue", me, true},
		{"lunch nothing", me, false},
		{"nothing OR lunch", me, true},
		{"parent@example.com", me, true},
	}
	for _, tc := range cases {
		t.Run(tc.q, func(t *testing.T) {
			q, e := parseSearchQuery(tc.q)
			require.Nil(t, e)
			assert.Equal(t, tc.want, matches(q, qReq(), tc.who))
		})
	}
}

func TestSearchQueryErrors(t *testing.T) {
	for _, q := range []string{
		"nosuchfield:x", "title:", "*release", "title:*x", "AND title:x", "title:x OR", "(title:x", "title:x)",
		`title:"open`, "created:[2014-01-01 TO", "created:[2014-01-01 2014-02-01]", "created:yesterday",
		"complete:maybe",
	} {
		t.Run(q, func(t *testing.T) {
			_, e := parseSearchQuery(q)
			require.NotNil(t, e)
			assert.Equal(t, "query", e.Path)
		})
	}
	q, e := parseSearchQuery("   ")
	require.Nil(t, e)
	assert.Nil(t, q)
	assert.True(t, matches(q, qReq(), nil), "an empty query matches everything")
}
