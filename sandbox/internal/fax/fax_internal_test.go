package fax

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// TestFaxNumberDigits reads E.164 numbers and the usual separators, and
// nothing else.
func TestFaxNumberDigits(t *testing.T) {
	for in, want := range map[string]string{
		"+14155550123":       "14155550123",
		" +1 (415) 555-0123": "14155550123",
		"1.415.555.0123":     "14155550123",
		"1234567":            "1234567",
		"123456":             "",
		"1234567890123456":   "",
		"+1 415 555 O123":    "",
		"call me":            "",
		"":                   "",
	} {
		assert.Equal(t, want, faxNumberDigits(in), "%q", in)
	}
}

// TestFaxOutcome: the last three digits of a number choose its failure;
// every other number and every e-mail succeeds; a document that could not
// be read fails the fax.
func TestFaxOutcome(t *testing.T) {
	for recipient, want := range map[string]string{
		"+16690000404":       model.FaxErrorBadDestination,
		"+16690000480":       model.FaxErrorNoAnswer,
		"+16690000486":       model.FaxErrorBusy,
		"+16690000487":       model.FaxErrorDisconnected,
		"+16690000500":       model.FaxErrorUnknown,
		"+16690000503":       model.FaxErrorCouldNotFax,
		"+16690000001":       model.FaxSuccess,
		"fax404@example.com": model.FaxSuccess,
	} {
		assert.Equal(t, want, faxOutcome(&model.Fax{Recipient: recipient}), recipient)
	}
	bad := &model.Fax{Recipient: "+16690000001", Documents: []model.Document{{Error: "unreadable"}}}
	assert.Equal(t, model.FaxErrorCouldNotFax, faxOutcome(bad))
}

// TestAreaCodes: by country, region and city, sorted without repeats and
// never nil; an unknown city has none.
func TestAreaCodes(t *testing.T) {
	us := areaCodes("US", "", "")
	assert.NotEmpty(t, us)
	assert.IsIncreasing(t, us)
	ca := areaCodes("US", "CA", "")
	assert.Subset(t, us, ca)
	assert.Less(t, len(ca), len(us))
	assert.Equal(t, []int{1223}, areaCodes("UK", "", "cambridge"))
	assert.Equal(t, []int{}, areaCodes("US", "", "Atlantis"))
	assert.Equal(t, []int{}, areaCodes("FR", "", ""))
}

// TestAreaCodeQueryChecks name the parameter at fault.
func TestAreaCodeQueryChecks(t *testing.T) {
	path := func(err error) string {
		if e, ok := err.(*apierr.Error); ok {
			return e.Path
		}
		return ""
	}
	assert.Equal(t, "country", path(checkFaxCountry("")))
	assert.Equal(t, "country", path(checkFaxCountry("FR")))
	assert.NoError(t, checkFaxCountry("UK"))
	for _, tc := range []struct {
		q          faxLineAreaCodeQuery
		region, at string
	}{
		{faxLineAreaCodeQuery{Country: "US", State: "NY"}, "NY", ""},
		{faxLineAreaCodeQuery{Country: "CA", Province: "ON"}, "ON", ""},
		{faxLineAreaCodeQuery{Country: "UK"}, "", ""},
		{faxLineAreaCodeQuery{Country: "CA", State: "NY"}, "", "state"},
		{faxLineAreaCodeQuery{Country: "US", State: "XX"}, "", "state"},
		{faxLineAreaCodeQuery{Country: "US", Province: "ON"}, "", "province"},
		{faxLineAreaCodeQuery{Country: "CA", Province: "XX"}, "", "province"},
	} {
		got, err := tc.q.region()
		assert.Equal(t, tc.region, got, "%+v", tc.q)
		assert.Equal(t, tc.at, path(err), "%+v", tc.q)
	}
}
