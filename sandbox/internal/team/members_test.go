package team

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// TestMemberRef: account_id prevails over email_address, one of them is
// required, and an address must be one.
func TestMemberRef(t *testing.T) {
	for _, tc := range []struct {
		ref     MemberRef
		path    string
		errPath string
	}{
		{MemberRef{AccountID: "a1"}, "account_id", ""},
		{MemberRef{AccountID: "a1", EmailAddress: "not an address"}, "account_id", ""},
		{MemberRef{EmailAddress: "x@example.com"}, "email_address", ""},
		{MemberRef{EmailAddress: "not an address"}, "email_address", "email_address"},
		{MemberRef{}, "email_address", "account_id"},
	} {
		assert.Equal(t, tc.path, tc.ref.Path(), "%+v", tc.ref)
		err := tc.ref.Check()
		if tc.errPath == "" {
			assert.NoError(t, err, "%+v", tc.ref)
			continue
		}
		var e *apierr.Error
		if assert.ErrorAs(t, err, &e, "%+v", tc.ref) {
			assert.Equal(t, apierr.BadRequest, e.Name)
			assert.Equal(t, tc.errPath, e.Path)
		}
	}
}

// TestRoles: the role names of the team operations and the role codes of
// AccountResponse map onto each other; an unknown name is refused naming
// the parameter, an unknown code reads as Member.
func TestRoles(t *testing.T) {
	for code, name := range map[string]string{"a": "Admin", "m": "Member", "d": "Developer", "t": "Team Manager"} {
		assert.Equal(t, name, RoleName(code))
		got, err := checkRoleName("role", name)
		assert.NoError(t, err)
		assert.Equal(t, code, got)
	}
	assert.Equal(t, "Member", RoleName(""))
	assert.Equal(t, "Member", RoleName("z"))
	_, err := checkRoleName("new_role", "admin")
	var e *apierr.Error
	if assert.ErrorAs(t, err, &e) {
		assert.Equal(t, "new_role", e.Path, "role names are case-sensitive, as documented")
	}
}
