package testvalues

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSignerAction(t *testing.T) {
	for email, want := range map[string]Action{
		"jack@sign.signsandbox.test":        Sign,
		"x@SIGN.SIGNSANDBOX.TEST":           Sign,
		"x@Decline.SignSandbox.Test":        Decline,
		"a+b.c@view.signsandbox.test":       View,
		"x@reassign.signsandbox.test":       Reassign,
		"x@bounce.signsandbox.test":         Bounce,
		"x@expire.signsandbox.test":         Expire,
		"x@invalid.signsandbox.test":        Invalid,
		"jack@example.com":                  None,
		"x@sign.signsandbox.test.example":   None,
		"x@notsign.signsandbox.test":        None,
		"x@a.sign.signsandbox.test":         None,
		"x@signsandbox.test":                None,
		"x@.signsandbox.test":               None,
		"x@sign-signsandbox.test":           None,
		"sign.signsandbox.test":             None,
		"sign.signsandbox.test@example.com": None,
		"":                                  None,
	} {
		assert.Equal(t, want, SignerAction(email), email)
	}
	for _, a := range Actions {
		assert.Equal(t, a, SignerAction(Address(a, "someone")))
	}
}

func TestReassignTo(t *testing.T) {
	email, name := ReassignTo("jack@reassign.signsandbox.test", "Jack")
	assert.Equal(t, "jack@sign.signsandbox.test", email)
	assert.Equal(t, "Jack (reassigned)", name)
	assert.Equal(t, Sign, SignerAction(email), "the new signer signs")
}

func TestFileFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want string
	}{
		{"error_file.signsandbox-test.pdf", "", ErrorFile},
		{"Contract.ERROR_TEXT_TAG.SignSandbox-Test.docx", "", ErrorTextTag},
		{"x-error_component_position.signsandbox-test.pdf", "", ErrorComponentPosition},
		{"error_unknown.signsandbox-test", "", ErrorUnknown},
		{"error_file.pdf", "", ""},
		{"signsandbox-test.pdf", "", ""},
		{"contract.pdf", "", ""},
		{"contract.pdf", "BT (SIGNSANDBOX_TEST:error_file) Tj ET", ErrorFile},
		{"contract.pdf", "SIGNSANDBOX_TEST:nothing SIGNSANDBOX_TEST:error_text_tag", ErrorTextTag},
		{"contract.pdf", "SIGNSANDBOX_TEST:error_files", ""},
		{"contract.pdf", "SIGNSANDBOX_TEST:error_file9", ""},
		{"contract.pdf", "SIGNSANDBOX_TEST:error_file", ErrorFile},
		{"contract.pdf", "signsandbox_test:error_file", ""},
		{"contract.pdf", "SIGNSANDBOX_TEST:", ""},
		{"error_unknown.signsandbox-test.pdf", "SIGNSANDBOX_TEST:error_file", ErrorUnknown},
	} {
		assert.Equal(t, tc.want, FileFailure(tc.name, []byte(tc.data)), "%s %q", tc.name, tc.data)
	}
	for _, f := range FileFailures {
		assert.Equal(t, f, FileFailure(FileName(f), nil))
	}
}

func FuzzSignerAction(f *testing.F) {
	f.Add("x@sign.signsandbox.test")
	f.Add("@")
	f.Fuzz(func(t *testing.T, email string) {
		a := SignerAction(email)
		if a != None && SignerAction(Address(a, "x")) != a {
			t.Fatalf("%q: %q", email, a)
		}
		_ = FileFailure(email, []byte(email))
	})
}
