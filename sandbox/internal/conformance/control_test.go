package conformance_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/console"
)

// TestControlSpecRefusesWrongAnswers: the check the test servers run on
// control answers refuses a wrong shape, an undescribed status and an error
// outside the envelope, and leaves undescribed calls alone, so a green
// suite means the description holds.
func TestControlSpecRefusesWrongAnswers(t *testing.T) {
	spec, err := conformance.LoadControl(console.ControlPlaneDescription().Body)
	require.NoError(t, err)
	json := http.Header{"Content-Type": []string{"application/json"}}
	clock := httptest.NewRequest(http.MethodGet, "/_sandbox/clock", nil)

	id, err := spec.Validate(clock, http.StatusOK, json, []byte(`{"now":1,"time":"2026-01-01T00:00:00Z","mode":"fake"}`))
	assert.Equal(t, "clockGet", id)
	assert.NoError(t, err)

	_, err = spec.Validate(clock, http.StatusOK, json, []byte(`{"now":"soon","time":"2026-01-01T00:00:00Z","mode":"fake"}`))
	assert.Error(t, err, "a wrong type")
	_, err = spec.Validate(clock, http.StatusTeapot, json, []byte(`{}`))
	assert.Error(t, err, "an undescribed status")
	_, err = spec.Validate(clock, http.StatusBadRequest, json, []byte(`{"message":"no"}`))
	assert.Error(t, err, "an error outside the envelope")

	key := httptest.NewRequest(http.MethodDelete, "/_sandbox/api_keys/abc", nil)
	id, err = spec.Validate(key, http.StatusOK, json, []byte(`{"api_keys":[{"key":"k","account_id":"a","name":"n","primary":true,"created_at":1}]}`))
	assert.Equal(t, "apiKeyDelete", id, "a templated path matches")
	assert.NoError(t, err)

	page := httptest.NewRequest(http.MethodGet, "/_sandbox/w/w1/nothing/tok", nil)
	id, err = spec.Validate(page, http.StatusOK, http.Header{"Content-Type": []string{"text/html"}}, []byte(`<html>`))
	assert.Equal(t, "", id, "undescribed paths are not checked")
	assert.NoError(t, err)

	// A file URL is described: a PDF passes, a page where the PDF should be
	// does not.
	file := httptest.NewRequest(http.MethodGet, "/_sandbox/w/w1/files/tok", nil)
	id, err = spec.Validate(file, http.StatusOK, http.Header{"Content-Type": []string{"application/pdf"}}, []byte(`%PDF-1.7`))
	assert.Equal(t, "pageFileURL", id)
	assert.NoError(t, err)
	_, err = spec.Validate(file, http.StatusOK, http.Header{"Content-Type": []string{"text/html"}}, []byte(`<html>`))
	assert.Error(t, err, "a file URL answers a PDF")

	// The signing page is described: its statuses are checked too.
	sign := httptest.NewRequest(http.MethodGet, "/_sandbox/w/w1/sign/tok", nil)
	html := http.Header{"Content-Type": []string{"text/html; charset=utf-8"}}
	id, err = spec.Validate(sign, http.StatusOK, html, []byte(`<html>`))
	assert.Equal(t, "pageSign", id)
	assert.NoError(t, err)
	_, err = spec.Validate(sign, http.StatusTeapot, html, []byte(`<html>`))
	assert.Error(t, err, "an undescribed status of a page")
}
