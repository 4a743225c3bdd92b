package account

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/conformance"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// TestViewShape: an account renders as the official AccountResponse, with
// null (not "") for the optional strings it does not have, and the usage
// and quotas of the stored row.
func TestViewShape(t *testing.T) {
	bare := &model.Account{ID: "a1", Email: "a@example.com", Quotas: NewQuotas()}
	full := &model.Account{ID: "a2", Email: "b@example.com", CallbackURL: "https://example.com/cb", RoleCode: "a",
		TeamID: "t1", Locale: "en-US", IsPaidHS: true, FaxPages: 3, Settings: model.AccountSettings{SMSDelivery: true}}
	spec := conformance.LoadIfPresent()
	for _, tc := range []struct {
		a    *model.Account
		want string
	}{
		{bare, `{"account_id":"a1","email_address":"a@example.com","is_locked":false,"is_paid_hs":false,"is_paid_hf":false,` +
			`"quotas":{"api_signature_requests_left":0,"documents_left":3,"templates_total":0,"templates_left":0,"sms_verifications_left":0,"num_fax_pages_left":0},` +
			`"callback_url":null,"role_code":null,"team_id":null,"locale":null,"usage":{"fax_pages_sent":0},` +
			`"settings":{"signer_access_codes":false,"sms_delivery":false,"sms_authentication":false}}`},
		{full, `{"account_id":"a2","email_address":"b@example.com","is_locked":false,"is_paid_hs":true,"is_paid_hf":false,` +
			`"quotas":{"api_signature_requests_left":null,"documents_left":null,"templates_total":null,"templates_left":null,"sms_verifications_left":null,"num_fax_pages_left":null},` +
			`"callback_url":"https://example.com/cb","role_code":"a","team_id":"t1","locale":"en-US","usage":{"fax_pages_sent":3},` +
			`"settings":{"signer_access_codes":false,"sms_delivery":true,"sms_authentication":false}}`},
	} {
		b, err := json.Marshal(View(tc.a))
		require.NoError(t, err)
		assert.JSONEq(t, tc.want, string(b))
		if spec != nil {
			assert.NoError(t, spec.ValidateSchema("AccountResponse", b))
		}
	}
}
