package bulk

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// TestParseSignerCSV reads the documented form: a header (any case,
// spaces ignored, a byte order mark allowed), one row per request, blank
// rows skipped, <name>_field columns as custom fields, each row keeping
// its line for error messages.
func TestParseSignerCSV(t *testing.T) {
	data := "\ufeffName, EMAIL_ADDRESS, pin, sms_phone_number, Company_field\n" +
		"George, george@example.com, d79a3td, +14155550100, ABC Corp\n" +
		" , , , , \n" +
		`"Mary, Jr.", mary@example.com, , , "123 ""LLC"""` + "\n"
	got, err := parseSignerCSV([]byte(data), 250)
	require.Nil(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, 2, got[0].row)
	assert.Equal(t, 4, got[1].row, "the blank line 3 is skipped, lines still count")
	g := got[0].Signers[0]
	assert.Equal(t, []string{"George", "george@example.com", "d79a3td", "+14155550100"}, []string{g.Name, g.EmailAddress, g.PIN, g.SMSPhoneNumber})
	assert.Equal(t, "Mary, Jr.", got[1].Signers[0].Name)
	require.Len(t, got[1].CustomFields, 1)
	assert.Equal(t, "Company", got[1].CustomFields[0].Name, "the field name keeps its case")
	assert.Equal(t, `123 "LLC"`, *got[1].CustomFields[0].Value)
	assert.Equal(t, "signer_file", got[1].path("[signers]"))
	assert.Equal(t, "signer_file line 4: bad", got[1].fail("", "bad").Msg)
}

// TestParseSignerCSVLimit keeps one row past the limit, so the caller can
// refuse an oversized file without reading it all.
func TestParseSignerCSVLimit(t *testing.T) {
	data := "name,email_address\n" + strings.Repeat("a,a@example.com\n", 10)
	got, err := parseSignerCSV([]byte(data), 3)
	require.Nil(t, err)
	assert.Len(t, got, 4)
}

// TestParseSignerCSVErrors name signer_file and say what is wrong.
func TestParseSignerCSVErrors(t *testing.T) {
	for _, tc := range []struct{ data, msg string }{
		{"", "The signer file is empty"},
		{"name,email,pin\n", `Unknown column "email"`},
		{"name,email_address,Name\n", `The column "Name" appears twice`},
		{"name,email_address,x_field,X_field\n", ""},
		{"email_address,pin\n", "no name column"},
		{"name\n", "no email_address column"},
		{"name,email_address,_field\n", `Unknown column "_field"`},
		{"name,email_address\n\"a,b@example.com\n", "not valid CSV (line 2)"},
		{"name,email_address\na,b@example.com,extra\n", "not valid CSV (line 2)"},
	} {
		_, err := parseSignerCSV([]byte(tc.data), 250)
		if tc.msg == "" {
			assert.Nil(t, err, "custom field names are case-sensitive: %q", tc.data)
			continue
		}
		if assert.NotNil(t, err, "%q", tc.data) {
			assert.Equal(t, apierr.BadRequest, err.Name)
			assert.Equal(t, "signer_file", err.Path)
			assert.Contains(t, err.Msg, tc.msg, "%q", tc.data)
		}
	}
}

// TestEntryPaths: signer_list entries name their index.
func TestEntryPaths(t *testing.T) {
	e := bulkEntry{index: 3}
	assert.Equal(t, "signer_list[3][signers][0][email_address]", e.path("[signers][0][email_address]"))
	err := e.fail("[custom_fields]", "bad %s", "value")
	assert.Equal(t, "signer_list[3][custom_fields]", err.Path)
	assert.Equal(t, "bad value", err.Msg)
}
