package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
