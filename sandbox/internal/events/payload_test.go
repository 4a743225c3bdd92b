package events

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildPayloadShape(t *testing.T) {
	ev := Event{Time: 1348177752, Type: "signature_request_sent", Hash: "h",
		Metadata: Metadata{RelatedSignatureID: "sig", ReportedForAccountID: "acct"}}
	b, err := Build(ev, ObjectSignatureRequest, json.RawMessage(`{"signature_request_id":"x","files_url":"http://a/?b=1&c=2"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"event":{"event_time":"1348177752","event_type":"signature_request_sent","event_hash":"h",`+
		`"event_metadata":{"related_signature_id":"sig","reported_for_account_id":"acct","reported_for_app_id":null}},`+
		`"signature_request":{"signature_request_id":"x","files_url":"http://a/?b=1&c=2"}}`, string(b))

	b, err = Build(Event{Time: 1, Type: "callback_test", Hash: "h", Metadata: Metadata{ReportedForAppID: "app", EventMessage: "m"}}, "", nil)
	require.NoError(t, err)
	assert.Equal(t, `{"event":{"event_time":"1","event_type":"callback_test","event_hash":"h",`+
		`"event_metadata":{"related_signature_id":null,"reported_for_account_id":null,"reported_for_app_id":"app","event_message":"m"}}}`, string(b))

	_, err = Build(ev, ObjectTemplate, nil)
	assert.Error(t, err, "an object type without its object")
	_, err = Build(ev, "fax", json.RawMessage(`{}`))
	assert.Error(t, err)
}

func TestMultipartEnvelope(t *testing.T) {
	payload := []byte(`{"event":{"event_type":"callback_test"}}`)
	ct, body, err := Multipart(payload, Boundary("d1"))
	require.NoError(t, err)
	_, again, _ := Multipart(payload, Boundary("d1"))
	assert.Equal(t, body, again, "same delivery, same bytes")
	mt, params, err := mime.ParseMediaType(ct)
	require.NoError(t, err)
	assert.Equal(t, "multipart/form-data", mt)
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	p, err := r.NextPart()
	require.NoError(t, err)
	assert.Equal(t, FormField, p.FormName())
	got, _ := io.ReadAll(p)
	assert.Equal(t, payload, got)
	_, err = r.NextPart()
	assert.Equal(t, io.EOF, err, "exactly one field")
}

func TestBackoffScheduleSpansAboutThreeDays(t *testing.T) {
	s := Schedule()
	require.Len(t, s, MaxAttempts)
	assert.Equal(t, time.Duration(0), s[0])
	assert.Equal(t, time.Minute, s[1])
	for i := 2; i < len(s); i++ {
		assert.Equal(t, 2*(s[i-1]-s[i-2]), s[i]-s[i-1], "delays double (attempt %d)", i)
	}
	last := s[len(s)-1]
	assert.Equal(t, 68*time.Hour+15*time.Minute, last)
	assert.True(t, last > 60*time.Hour && last < 84*time.Hour, "about three days")
	_, ok := Offset(MaxAttempts)
	assert.False(t, ok)
}
