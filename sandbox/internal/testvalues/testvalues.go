// Package testvalues is the vocabulary of the reserved test values: signer
// e-mail addresses on the reserved domain signsandbox.test (the .test
// top-level domain is reserved for testing by RFC 2606, so no real mailbox
// has one) whose signers act by themselves, and file names and text that
// make a document's processing fail. Like a payment provider's test card
// numbers, they drive the other parties from any client, on any clock,
// without a control call. The signature request code carries them out
// through the same transitions as the control plane's signer actions and
// processing failures; this package only says what a value means.
// docs/test-values.md is the table for people.
package testvalues

import (
	"bytes"
	"strings"
)

// Domain is the reserved domain: a signer at <action>.Domain acts.
const Domain = "signsandbox.test"

// Action is what a reserved signer does when their turn comes.
type Action string

// The actions, one per subdomain of Domain.
const (
	// None: an ordinary address.
	None Action = ""
	// Sign: the signer views, then signs, filling their fields with valid
	// values.
	Sign Action = "sign"
	// View: the signer views and does nothing more.
	View Action = "view"
	// Decline: the signer views, then declines with DeclineReason (the
	// request must allow_decline).
	Decline Action = "decline"
	// Reassign: the signer views, then reassigns to the same local part at
	// sign.Domain (ReassignTo), who then signs (the request must
	// allow_reassign).
	Reassign Action = "reassign"
	// Bounce: the signing e-mail bounces.
	Bounce Action = "bounce"
	// Expire: the request expires.
	Expire Action = "expire"
	// Invalid: the address is undeliverable, error_invalid_email.
	Invalid Action = "invalid"
)

// Actions are the actions in the order the documentation lists them.
var Actions = []Action{Sign, View, Decline, Reassign, Bounce, Expire, Invalid}

// Reasons a reserved signer gives.
const (
	DeclineReason  = "Declined by a signsandbox test value."
	ReassignReason = "Reassigned by a signsandbox test value."
)

// Address is the reserved address of an action for a local part.
func Address(a Action, local string) string { return local + "@" + string(a) + "." + Domain }

// SignerAction is what the signer at email does: None unless the address's
// domain is exactly <action>.signsandbox.test. Domains compare without
// regard to case, as mail domains do; the local part is free.
func SignerAction(email string) Action {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return None
	}
	sub, ok := cutSuffixFold(email[at+1:], "."+Domain)
	if !ok {
		return None
	}
	for _, a := range Actions {
		if strings.EqualFold(sub, string(a)) {
			return a
		}
	}
	return None
}

// ReassignTo is the signer a Reassign signer hands over to: the same
// local part at sign.signsandbox.test, named after them.
func ReassignTo(email, name string) (newEmail, newName string) {
	local := email
	if at := strings.LastIndexByte(email, '@'); at >= 0 {
		local = email[:at]
	}
	return Address(Sign, local), strings.TrimSpace(name + " (reassigned)")
}

func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) < len(suffix) || !strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return "", false
	}
	return s[:len(s)-len(suffix)], true
}

// The processing failures a document can ask for, as signature error
// status codes (a template fails with template_error whichever it is).
const (
	ErrorFile              = "error_file"
	ErrorTextTag           = "error_text_tag"
	ErrorComponentPosition = "error_component_position"
	ErrorUnknown           = "error_unknown"
)

// FileFailures are the failures in the order the documentation lists them.
var FileFailures = []string{ErrorFile, ErrorTextTag, ErrorComponentPosition, ErrorUnknown}

// Markers of a failing document: a file name that contains
// <status>NameMarker ("contract.error_file.signsandbox-test.pdf"; case
// does not matter), or a file whose bytes contain TextMarker<status>
// ("SIGNSANDBOX_TEST:error_file"; exactly so: in a text file, or in a
// PDF whose text is stored uncompressed).
const (
	NameMarker = ".signsandbox-test"
	TextMarker = "SIGNSANDBOX_TEST:"
)

// FileName is a file name that asks for a failure ("error_file" gives
// "error_file.signsandbox-test.pdf").
func FileName(status string) string { return status + NameMarker + ".pdf" }

// FileFailure is the failure a document asks for by its name or bytes, ""
// for none. A name wins over the bytes; the first marker in the bytes
// wins over later ones.
func FileFailure(name string, data []byte) string {
	lower := strings.ToLower(name)
	for _, f := range FileFailures {
		if strings.Contains(lower, f+NameMarker) {
			return f
		}
	}
	for rest := data; ; {
		i := bytes.Index(rest, []byte(TextMarker))
		if i < 0 {
			return ""
		}
		rest = rest[i+len(TextMarker):]
		for _, f := range FileFailures {
			if bytes.HasPrefix(rest, []byte(f)) && !wordByteAt(rest, len(f)) {
				return f
			}
		}
	}
}

// wordByteAt reports whether b has a letter, digit or underscore at i: a
// marker must end where its status code does.
func wordByteAt(b []byte, i int) bool {
	if i >= len(b) {
		return false
	}
	c := b[i]
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
