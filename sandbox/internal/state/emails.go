package state

import (
	"math"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// TableEmails is the world's e-mail outbox.
const TableEmails = "emails"

// IndexEmailRequest orders the e-mails about one signature request by Seq
// (the outbox's signature_request_id filter; a signer's newest e-mail,
// LastEmailAbout).
const IndexEmailRequest = "request_seq"

// BrandOf is the branding e-mails about a request sent through an app
// show, as the app stands now: nil for no app, an unknown one, or an app
// that customized neither its white labeling nor its logo (e-mails then
// look like the service's own). logoURL is where the sandbox serves the
// app's logo for the e-mail's object; it is kept when the app has one.
func BrandOf(tx *Txn, clientID, logoURL string) *model.EmailBrand {
	if clientID == "" {
		return nil
	}
	app, err := Get[model.APIApp](tx, TableAPIApps, clientID)
	if err != nil || (!app.WhiteLabelingSet && app.CustomLogoBlobID == "") {
		return nil
	}
	wl := EffectiveWhiteLabels(app.WhiteLabelingOptions)
	if app.CustomLogoBlobID == "" {
		logoURL = ""
	}
	return &model.EmailBrand{LogoURL: logoURL,
		ClientID: app.ClientID, AppName: app.Name,
		HeaderBackgroundColor: wl["header_background_color"], PageBackgroundColor: wl["page_background_color"],
		TextColor2: wl["text_color2"], LinkColor: wl["link_color"],
		PrimaryButtonColor: wl["primary_button_color"], PrimaryButtonTextColor: wl["primary_button_text_color"],
	}
}

// registerEmails adds the outbox, bucketed, with its compact indexes.
func registerEmails() {
	Register[model.Email](&memdb.TableSchema{
		Name: TableEmails,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: fieldIndex("ID", func(e *model.Email) string { return e.ID })},
		},
	})
	// The e-mails are bucketed (bucket_rows.go) and frozen when no write
	// touches them (bucket_rows_frozen.go): a world keeps up to its log
	// limit of them, and each was a memdb entry of about 450 bytes and a
	// row of a dozen pointers for the collector to walk.
	registerBucketed(freezable[model.Email](fieldBuckets(TableEmails, "email", func(e *model.Email) string { return e.ID })))
	registerCompact(logSeqIndex(TableEmails, "email.seq/", func(row any) uint64 { return row.(*model.Email).Seq }))
	// The lookup of the e-mails about a request is a compact index (a
	// memdb entry an e-mail cost 450 bytes); e-mails about none (team
	// invitations, reports, ...) are left out. 256 buckets
	// (logBucketBits). The e-mails about a signature are found among
	// those of its request (LastEmailAbout).
	registerCompact(&compactIndex{table: TableEmails, name: IndexEmailRequest, tag: "email.request/",
		bits: logBucketBits, churns: true, unique: true, keys: func(row any, dst []compactKey) []compactKey {
			if e := row.(*model.Email); e.SignatureRequestID != "" {
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
func LastEmailAbout(tx *Txn, requestID, signatureID string, match func(*model.Email) bool) (*model.Email, error) {
	if requestID == "" || signatureID == "" {
		return nil, nil
	}
	ix := compactIndexNamed(TableEmails, IndexEmailRequest)
	var found *model.Email
	err := tx.compactRows(ix, requestID, math.MaxUint64, true, func(raw any) bool {
		if e := raw.(*model.Email); e.SignatureID == signatureID && match(e) {
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
func SetEmailRead(tx *Txn, id string, read bool) (*model.Email, error) {
	cur, err := Get[model.Email](tx, TableEmails, id)
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
