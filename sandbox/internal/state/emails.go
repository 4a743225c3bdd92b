package state

import (
	"math"

	memdb "github.com/hashicorp/go-memdb"
)

// TableEmails is the world's e-mail outbox.
const TableEmails = "emails"

// IndexEmailRequest orders the e-mails about one signature request by Seq
// (the outbox's signature_request_id filter; a signer's newest e-mail,
// LastEmailAbout).
const IndexEmailRequest = "request_seq"

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

// BrandOf is the branding e-mails about a request sent through an app
// show, as the app stands now: nil for no app, an unknown one, or an app
// that customized neither its white labeling nor its logo (e-mails then
// look like the service's own). logoURL is where the sandbox serves the
// app's logo for the e-mail's object; it is kept when the app has one.
func BrandOf(tx *Txn, clientID, logoURL string) *EmailBrand {
	if clientID == "" {
		return nil
	}
	app, err := Get[APIApp](tx, TableAPIApps, clientID)
	if err != nil || (!app.WhiteLabelingSet && app.CustomLogoBlobID == "") {
		return nil
	}
	wl := EffectiveWhiteLabels(app.WhiteLabelingOptions)
	if app.CustomLogoBlobID == "" {
		logoURL = ""
	}
	return &EmailBrand{LogoURL: logoURL,
		ClientID: app.ClientID, AppName: app.Name,
		HeaderBackgroundColor: wl["header_background_color"], PageBackgroundColor: wl["page_background_color"],
		TextColor2: wl["text_color2"], LinkColor: wl["link_color"],
		PrimaryButtonColor: wl["primary_button_color"], PrimaryButtonTextColor: wl["primary_button_text_color"],
	}
}

// registerEmails adds the outbox, bucketed, with its compact indexes.
func registerEmails() {
	Register[Email](&memdb.TableSchema{
		Name: TableEmails,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("ID", func(e *Email) string { return e.ID })},
		},
	})
	// The e-mails are bucketed (bucket_rows.go) and frozen when no write
	// touches them (bucket_rows_frozen.go): a world keeps up to its log
	// limit of them, and each was a memdb entry of about 450 bytes and a
	// row of a dozen pointers for the collector to walk.
	registerBucketed(freezable[Email](fieldBuckets(TableEmails, "email", func(e *Email) string { return e.ID })))
	registerCompact(logSeqIndex(TableEmails, "email.seq/", func(row any) uint64 { return row.(*Email).Seq }))
	// The lookup of the e-mails about a request is a compact index (a
	// memdb entry an e-mail cost 450 bytes); e-mails about none (team
	// invitations, reports, ...) are left out. 256 buckets
	// (logBucketBits). The e-mails about a signature are found among
	// those of its request (LastEmailAbout).
	registerCompact(&compactIndex{table: TableEmails, name: IndexEmailRequest, tag: "email.request/",
		bits: logBucketBits, churns: true, unique: true, keys: func(row any, dst []compactKey) []compactKey {
			if e := row.(*Email); e.SignatureRequestID != "" {
				dst = append(dst, compactKey{e.SignatureRequestID, e.Seq})
			}
			return dst
		}})
}

// LastEmailAbout returns the newest e-mail about a signature of a request
// that match accepts (nil when there is none). It reads the request's
// e-mails, newest first: a signature's e-mails are its request's, and
// only reminders and bounces look for them, while an index of their own
// cost every e-mail sent and every one the full outbox dropped a change
// of one more bucket.
func LastEmailAbout(tx *Txn, requestID, signatureID string, match func(*Email) bool) (*Email, error) {
	if requestID == "" || signatureID == "" {
		return nil, nil
	}
	ix := compactIndexNamed(TableEmails, IndexEmailRequest)
	var found *Email
	err := tx.compactRows(ix, requestID, math.MaxUint64, true, func(raw any) bool {
		if e := raw.(*Email); e.SignatureID == signatureID && match(e) {
			found = e
			return false
		}
		return true
	})
	return found, err
}

// ClearEmails empties the outbox (DELETE /_sandbox/emails) and answers how
// many e-mails it held.
func ClearEmails(tx *Txn) (int, error) {
	n, err := tx.DeleteAll(TableEmails, IndexID)
	if err != nil {
		return n, err
	}
	u := tx.pendingUsage()
	inPlace := u != nil
	if !inPlace {
		u = getUsage(tx)
	}
	u.Emails, u.EmailsTrimAt = 0, 0
	return n, storeUsage(tx, u, inPlace)
}

// SetEmailRead marks an e-mail read or unread and answers it as stored
// (ErrNotFound for an e-mail the outbox does not hold).
func SetEmailRead(tx *Txn, id string, read bool) (*Email, error) {
	cur, err := Get[Email](tx, TableEmails, id)
	if err != nil {
		return nil, err
	}
	if cur.Read == read {
		return cur, nil
	}
	e := Clone(cur)
	e.Read = read
	return e, Put(tx, TableEmails, e)
}
