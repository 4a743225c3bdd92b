package model

// Quotas are an account's remaining allowances. A nil pointer means the
// allowance is unlimited and is shown as null, as the official examples do.
type Quotas struct {
	APISignatureRequestsLeft *int `json:"api_signature_requests_left"`
	DocumentsLeft            *int `json:"documents_left"`
	TemplatesTotal           *int `json:"templates_total"`
	TemplatesLeft            *int `json:"templates_left"`
	SMSVerificationsLeft     *int `json:"sms_verifications_left"`
	NumFaxPagesLeft          *int `json:"num_fax_pages_left"`
}

// AccountSettings mirror AccountResponseSettings.
type AccountSettings struct {
	SignerAccessCodes bool `json:"signer_access_codes"`
	SMSDelivery       bool `json:"sms_delivery"`
	SMSAuthentication bool `json:"sms_authentication"`
}

// Account is a Dropbox Sign account of the world.
type Account struct {
	ID          string          `json:"account_id"`
	Email       string          `json:"email_address"`
	EmailKey    string          `json:"email_key"` // lower-cased, for lookups
	Name        string          `json:"name,omitempty"`
	CallbackURL string          `json:"callback_url,omitempty"`
	Locale      string          `json:"locale"`
	TeamID      string          `json:"team_id,omitempty"`
	RoleCode    string          `json:"role_code,omitempty"` // a, m, d, t as in the official examples
	IsLocked    bool            `json:"is_locked"`
	IsPaidHS    bool            `json:"is_paid_hs"`
	IsPaidHF    bool            `json:"is_paid_hf"`
	Quotas      Quotas          `json:"quotas"`
	FaxPages    int             `json:"fax_pages_sent"`
	Settings    AccountSettings `json:"settings"`
	CreatedAt   int64           `json:"created_at"`
	// Confirmed is false for accounts created through the API until the
	// sandbox (standing in for the user) confirms them.
	Confirmed bool `json:"confirmed"`
	// CreatedByClientID is the API app an account was created through
	// (account_confirmed goes to that app's callback).
	CreatedByClientID string `json:"created_by_client_id,omitempty"`
	// Seq orders accounts by creation.
	Seq uint64 `json:"seq"`
}

// APIKey is one of an account's (up to four) API keys.
type APIKey struct {
	Key       string `json:"key"`
	AccountID string `json:"account_id"`
	Name      string `json:"name"`
	Primary   bool   `json:"primary"`
	CreatedAt int64  `json:"created_at"`
	Seq       uint64 `json:"seq"`
}

// Team is a team of accounts.
type Team struct {
	ID            string   `json:"team_id"`
	Name          string   `json:"name"`
	ParentID      string   `json:"parent_id,omitempty"`
	InvitedEmails []string `json:"invited_emails,omitempty"`
	CreatedAt     int64    `json:"created_at"`
	// Seq orders teams by creation (0 for fixture teams).
	Seq uint64 `json:"seq,omitempty"`
}

// APIApp is an API app (client_id) owned by an account.
type APIApp struct {
	ClientID             string            `json:"client_id"`
	OwnerAccountID       string            `json:"owner_account_id"`
	Name                 string            `json:"name"`
	Domains              []string          `json:"domains"`
	CallbackURL          string            `json:"callback_url,omitempty"`
	IsApproved           bool              `json:"is_approved"`
	CreatedAt            int64             `json:"created_at"`
	OAuth                *APIAppOAuth      `json:"oauth,omitempty"`
	CanInsertEverywhere  bool              `json:"can_insert_everywhere"`
	WhiteLabelingOptions map[string]string `json:"white_labeling_options,omitempty"`
	CustomLogoBlobID     string            `json:"custom_logo_blob_id,omitempty"`
	Seq                  uint64            `json:"seq"`
	// WhiteLabelingSet is true once white_labeling_options were given (the
	// answer then shows every option, defaults included; before, null).
	// WhiteLabelingOptions holds only the values set explicitly, so that
	// hover colours keep inheriting from their base colours.
	WhiteLabelingSet bool `json:"white_labeling_set,omitempty"`
}

// APIAppOAuth is the OAuth configuration of an app.
type APIAppOAuth struct {
	CallbackURL  string   `json:"callback_url"`
	Secret       string   `json:"secret"`
	Scopes       []string `json:"scopes"`
	ChargesUsers bool     `json:"charges_users"`
}

// OAuthToken is an access token issued to an app acting for an account. It
// expires on the world clock.
type OAuthToken struct {
	AccessToken  string   `json:"access_token"`
	RefreshToken string   `json:"refresh_token"`
	AccountID    string   `json:"account_id"`
	ClientID     string   `json:"client_id"`
	Scopes       []string `json:"scopes"`
	ExpiresAt    int64    `json:"expires_at"`
	Revoked      bool     `json:"revoked"`
}

// OAuthCode is an authorization code a user granted to an app; the app
// exchanges it once for tokens.
type OAuthCode struct {
	Code      string   `json:"code"`
	ClientID  string   `json:"client_id"`
	AccountID string   `json:"account_id"`
	State     string   `json:"state"`
	Scopes    []string `json:"scopes"`
	ExpiresAt int64    `json:"expires_at"`
	Used      bool     `json:"used"`
}
