package param

import (
	"net/mail"
	"testing"
)

// fullEmailCheck is ValidEmail without its shortcut.
func fullEmailCheck(v string) bool {
	if len(v) > 254 || !emailPattern.MatchString(v) {
		return false
	}
	a, err := mail.ParseAddress(v)
	return err == nil && a.Address == v
}

// FuzzCommonEmail: every address the shortcut accepts is one the full
// check accepts, so the shortcut never changes ValidEmail's answer.
func FuzzCommonEmail(f *testing.F) {
	for _, v := range []string{"jack@example.com", "Jack.Smith+tag@sub.example.co.uk", "a@b.c", "a@b", "a@-b.com", "a@b-.com",
		"a@b..com", "a@b.com.", "a@.b.com", ".a@b.com", "a.@b.com", "a..b@c.com", "a@@b.com", "@b.com", "a@", "a b@c.com",
		"a_b-c@x-y.z1", "jack@exämple.com", "jäck@example.com", "a@b.c-", "a@1.2", "a@b.c@d.e", "x!y@z.com"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if len(v) <= 254 && commonEmail(v) && !fullEmailCheck(v) {
			t.Fatalf("%q passes the shortcut but not the full check", v)
		}
		if got, want := ValidEmail(v), fullEmailCheck(v); got != want {
			t.Fatalf("ValidEmail(%q) = %v, the full check %v", v, got, want)
		}
	})
}

// TestCommonEmailTakesTheUsualAddresses: the shortcut covers the addresses
// sends carry.
func TestCommonEmailTakesTheUsualAddresses(t *testing.T) {
	for _, v := range []string{"jack@example.com", "jill@example.com", "Jack.Smith+tag@sub.example.co.uk", "a_b-c@x-y.z1"} {
		if !commonEmail(v) {
			t.Errorf("%q is not taken by the shortcut", v)
		}
	}
}
