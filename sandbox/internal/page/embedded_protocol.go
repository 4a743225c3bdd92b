package page

// The hellosign-embedded postMessage protocol, as the sandbox's embedded
// pages (signing, template editor, claim) speak it when an integrator's page
// opens them with the official browser library (HelloSign#open). One script
// for the three pages, so they cannot drift apart:
//
//   - a page where the user can still act posts hellosign:initialize once
//     (the library emits "ready");
//   - the page after the user's final action posts what happened
//     (userSignRequest, userDeclineRequest, userReassignRequest, userSendRequest,
//     userCreateTemplate) and then hellosign:userFinishRequest: the flow is
//     over, and the library emits "finish" and closes the iframe ("close");
//   - a page that cannot be used (an expired, used or unknown link) posts
//     hellosign:error {signatureId, code} (the library emits "error") and
//     never initializes;
//   - the library asks the page with hellosign:userCancelRequest when the
//     user clicks the modal's close button after "ready" and before a sign
//     or send; the page answers hellosign:userCancelRequest while the flow is
//     open (the library emits "cancel" and closes) and
//     hellosign:userFinishRequest once it is over.
//
// Messages are {type, payload} objects (the library ignores strings) posted
// to window.parent; the library accepts them because the page is served from
// the origin of the URL it opened.

import (
	"encoding/json"
	"html/template"
	"strings"
)

// The message types of the protocol (hellosign-embedded's settings.messages).
const (
	msgInitialize     = "hellosign:initialize"
	msgError          = "hellosign:error"
	MsgSign           = "hellosign:userSignRequest"
	MsgDecline        = "hellosign:userDeclineRequest"
	MsgReassign       = "hellosign:userReassignRequest"
	MsgSend           = "hellosign:userSendRequest"
	MsgCreateTemplate = "hellosign:userCreateTemplate"
	msgFinish         = "hellosign:userFinishRequest"
	msgCancel         = "hellosign:userCancelRequest"
)

// embMsg is one message: {type, payload}. Payload keys are the library's
// camelCase names; encoding/json sorts them, so pages are deterministic.
type embMsg struct {
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload,omitempty"`
}

// embeddedScript is the <script> element of a page: inside an iframe it
// posts msgs to the parent in order, and answers the library's cancel
// request (cancel while live, finish otherwise). Outside an iframe it does
// nothing. JSON escapes <, > and &, so user text (a decline reason, a
// title) cannot end the script element.
func embeddedScript(live bool, msgs ...embMsg) template.HTML {
	if msgs == nil {
		msgs = []embMsg{}
	}
	list, err := json.Marshal(msgs)
	if err != nil {
		// Payloads are strings, numbers and string slices, which always
		// encode; a page without messages is the safe fallback.
		list = []byte("[]")
	}
	answer := msgFinish
	if live {
		answer = msgCancel
	}
	var b strings.Builder
	b.WriteString("<script>\n(function(){\n")
	b.WriteString("  if (window.parent === window) return;\n")
	b.WriteString("  var post = function(m){ window.parent.postMessage(m, \"*\"); };\n")
	b.WriteString("  var msgs = " + string(list) + ";\n")
	b.WriteString("  for (var i = 0; i < msgs.length; i++) post(msgs[i]);\n")
	b.WriteString("  window.addEventListener(\"message\", function(e){\n")
	b.WriteString("    if (e.source !== window.parent || !e.data || e.data.type !== \"" + msgCancel + "\") return;\n")
	b.WriteString("    post({type: \"" + answer + "\"});\n")
	b.WriteString("  });\n})();\n</script>")
	return template.HTML(b.String())
}

// EmbeddedError is the script of a page that cannot be used: hellosign:error
// with the page's HTTP-style code and, when known, the signature.
func EmbeddedError(code int, signatureID string) template.HTML {
	p := map[string]any{"code": code}
	if signatureID != "" {
		p["signatureId"] = signatureID
	}
	return embeddedScript(false, embMsg{Type: msgError, Payload: p})
}

// EmbeddedDone is the script of the page after the user's final action:
// the action's message, then finish.
func EmbeddedDone(typ string, payload map[string]any) template.HTML {
	return embeddedScript(false, embMsg{Type: typ, Payload: payload}, embMsg{Type: msgFinish})
}

// EmbeddedLive is the script of a page where the user can act.
func EmbeddedLive(payload map[string]any) template.HTML {
	return embeddedScript(true, embMsg{Type: msgInitialize, Payload: payload})
}
