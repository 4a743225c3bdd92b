package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarningsFollowTheSchemaShape pins that warnings take the shape each
// operation's official response schema declares.
func TestWarningsFollowTheSchemaShape(t *testing.T) {
	ws := []Warning{{WarningMsg: "m1", WarningName: "parameter_ignored"}, {WarningMsg: "m2", WarningName: "empty_value"}}
	body := []byte(`{"a":1}`)
	assert.JSONEq(t, `{"a":1,"warnings":[{"warning_msg":"m1","warning_name":"parameter_ignored"},{"warning_msg":"m2","warning_name":"empty_value"}]}`,
		string(spliceWarnings(body, ws, warningShapeOf("signatureRequestSend"))))
	assert.JSONEq(t, `{"a":1,"warnings":{"warning_msg":"m1","warning_name":"parameter_ignored"}}`,
		string(spliceWarnings(body, ws, warningShapeOf("faxLineCreate"))))
	assert.JSONEq(t, `{"a":1}`, string(spliceWarnings(body, ws, warningShapeOf("templateUpdateFiles"))))
	assert.JSONEq(t, `{"warnings":[{"warning_msg":"m1","warning_name":"parameter_ignored"},{"warning_msg":"m2","warning_name":"empty_value"}]}`,
		string(spliceWarnings([]byte(`{}`), ws, warningsArray)))
}

// TestWarningsAreMarshalBytes: the spliced warnings are json.Marshal's
// bytes for them (escapes included), and the body passed in is unchanged.
func TestWarningsAreMarshalBytes(t *testing.T) {
	ws := []Warning{{WarningMsg: "Field <x> & \"y\"\u2028", WarningName: "parameter_ignored"}, {WarningMsg: "\xff", WarningName: "empty_value"}}
	all, err := json.Marshal(ws)
	require.NoError(t, err)
	first, err := json.Marshal(ws[0])
	require.NoError(t, err)
	body := make([]byte, 0, 64)
	body = append(body, `{"a":1}`...)
	assert.Equal(t, `{"a":1,"warnings":`+string(all)+`}`, string(spliceWarnings(body, ws, warningsArray)))
	assert.Equal(t, `{"a":1,"warnings":`+string(first)+`}`, string(spliceWarnings(body, ws, warningsObject)))
	assert.Equal(t, `{"a":1}`, string(body), "the encoder's buffer is left as it was")
}
