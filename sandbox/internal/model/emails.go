package model

// Email is one e-mail the real service would have sent.
type Email struct {
	ID  string `json:"id"`
	Seq uint64 `json:"seq"`
	// Kind says what the e-mail is (signature_request, reminder, completed,
	// declined, canceled, ...).
	Kind    string `json:"kind"`
	To      string `json:"to"`
	Name    string `json:"name,omitempty"`
	Subject string `json:"subject"`
	Message string `json:"message,omitempty"`
	// SignatureRequestID and SignatureID name what the e-mail is about.
	SignatureRequestID string `json:"signature_request_id,omitempty"`
	SignatureID        string `json:"signature_id,omitempty"`
	TemplateID         string `json:"template_id,omitempty"`
	// Link is the URL the e-mail carries (signing page, download), if any.
	Link   string `json:"link,omitempty"`
	SentAt int64  `json:"sent_at"`
	// Bounced is set when a scenario or the control plane bounced it.
	Bounced bool `json:"bounced,omitempty"`

	// What the message is composed of besides the fields above (package
	// mail composes it whenever it is read, so the outbox keeps this
	// record, not the message), fixed when it was sent: a later change
	// of an app's colours or a requester's name does not rewrite it.
	// FromName is the party it comes from ("FromName via Dropbox Sign"),
	// ReplyTo the address replies go to (the requester, an inviter),
	// Title what it is about (a request's title, a template's, a team's
	// name), Actor who acted (the signer who declined, the new signer of
	// a reassignment) and Note what they said (a decline reason).
	FromName string `json:"from_name,omitempty"`
	ReplyTo  string `json:"reply_to,omitempty"`
	Title    string `json:"title,omitempty"`
	Actor    string `json:"actor,omitempty"`
	Note     string `json:"note,omitempty"`
	// Brand is the white labeling of the API app a request was sent
	// through, as it stood then (nil: the service's own look).
	Brand *EmailBrand `json:"brand,omitempty"`
	// Read is set once someone read it in the outbox (a mail client's
	// unread mark, turned off and on through the control plane).
	Read bool `json:"read,omitempty"`
}

// EmailBrand is what an e-mail shows of an API app's white labeling: the
// app's name as the logo's text, and the colours of the elements an
// e-mail has (each a #rrggbb value: customized, inherited or default).
type EmailBrand struct {
	ClientID              string `json:"client_id"`
	AppName               string `json:"app_name"`
	HeaderBackgroundColor string `json:"header_background_color"`
	PageBackgroundColor   string `json:"page_background_color"`
	TextColor2            string `json:"text_color2"`
	LinkColor             string `json:"link_color"`
	PrimaryButtonColor    string `json:"primary_button_color"`
	// PrimaryButtonTextColor is the text of the button.
	PrimaryButtonTextColor string `json:"primary_button_text_color"`
	// LogoURL is where the sandbox serves the app's logo for the object the
	// e-mail is about ("" when the app had none): the e-mail shows it in
	// place of the logo's text, as it stands when the e-mail is read.
	LogoURL string `json:"logo_url,omitempty"`
}
