package console

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// ErrBadCursor is answered for a cursor the console did not hand out.
var ErrBadCursor = errors.New("console: cursor is not a sequence number from a previous page")

// Reader answers the console's reads of one world, in one read
// transaction each: pages walk an index from a cursor, so a page costs its
// own rows (plus those a search skips), whatever the world holds.
type Reader struct {
	Catalog *catalog.Catalog
	// Search parses a request search (sigreq.ConsoleSearch: the list API's
	// query, as me sees the requests) into a filter, nil for a blank one.
	Search func(q string, me *model.Account) (func(*model.SignatureRequest) bool, error)
	// SignerActions says which signer actions the control plane would take
	// now for a signature of req (sigreq.SignerActions, through the facade).
	SignerActions func(req *model.SignatureRequest, sigID string, now time.Time) []Action
}

// KindCount is how many objects of a kind a world holds.
type KindCount struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// Counts counts every catalog kind, plus OAuth tokens, the outbox and the
// callback log, in that order (kinds by name).
func (r Reader) Counts(tx *state.Txn) ([]KindCount, error) {
	out := []KindCount{}
	for _, name := range r.Catalog.Kinds() {
		n, err := r.Catalog.Count(tx, name)
		if err != nil {
			return nil, err
		}
		out = append(out, KindCount{Kind: name, Count: n})
	}
	for _, t := range []struct{ kind, table string }{
		{"oauth_token", state.TableOAuthToken}, {"email", state.TableEmails}, {"event", state.TableEvents},
	} {
		n, err := state.CountRows(tx, t.table)
		if err != nil {
			return nil, err
		}
		out = append(out, KindCount{Kind: t.kind, Count: n})
	}
	return out, nil
}

// TokenSummary is an OAuth access token as the console lists it: the
// tokens themselves are credentials, so only their first characters show.
type TokenSummary struct {
	AccessToken string   `json:"access_token"`
	AccountID   string   `json:"account_id"`
	ClientID    string   `json:"client_id"`
	Scopes      []string `json:"scopes"`
	ExpiresAt   int64    `json:"expires_at"`
	Revoked     bool     `json:"revoked"`
}

// OAuthTokens lists the world's access tokens in token order.
func (r Reader) OAuthTokens(tx *state.Txn) ([]TokenSummary, error) {
	rows, err := state.All[model.OAuthToken](tx, state.TableOAuthToken, state.IndexID)
	if err != nil {
		return nil, err
	}
	out := []TokenSummary{}
	for _, t := range rows {
		out = append(out, TokenSummary{AccessToken: mask(t.AccessToken), AccountID: t.AccountID, ClientID: t.ClientID,
			Scopes: t.Scopes, ExpiresAt: t.ExpiresAt, Revoked: t.Revoked})
	}
	return out, nil
}

func mask(secret string) string {
	if len(secret) <= 6 {
		return "…"
	}
	return secret[:6] + "…"
}

// PageOf is one page of a newest-first list: Next is the cursor of the
// following (older) page, "" after the last.
type PageOf[T any] struct {
	Items []T    `json:"items"`
	Next  string `json:"next"`
}

// seqCursor reads a newest-first cursor: the sequence number of the last
// row shown ("" starts at the newest).
func seqCursor(cursor string) (uint64, bool, error) {
	if cursor == "" {
		return 0, false, nil
	}
	n, err := strconv.ParseUint(cursor, 10, 64)
	if err != nil || n == 0 {
		return 0, false, ErrBadCursor
	}
	return n, true, nil
}

// newest walks table in the order of its seq (state.WalkSeq) from the
// newest row (or the one before cursor), keeping rows keep accepts, and
// collects at most limit of them.
func newest[T any](tx *state.Txn, table, cursor string, limit int, seq func(*T) uint64, keep func(*T) bool) ([]*T, string, error) {
	limit = clampLimit(limit)
	from, ok, err := seqCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	start := uint64(math.MaxUint64)
	if ok {
		start = from - 1
	}
	var rows []*T
	next := ""
	err = state.WalkSeq(tx, table, start, true, func(raw any) bool {
		row := raw.(*T)
		if ok && seq(row) >= from {
			return true
		}
		if keep != nil && !keep(row) {
			return true
		}
		if len(rows) == limit {
			next = strconv.FormatUint(seq(rows[len(rows)-1]), 10)
			return false
		}
		rows = append(rows, row)
		return true
	})
	if err != nil {
		return nil, "", err
	}
	return rows, next, nil
}

func clampLimit(limit int) int {
	switch {
	case limit <= 0:
		return catalog.DefaultLimit
	case limit > catalog.MaxLimit:
		return catalog.MaxLimit
	}
	return limit
}

// RequestSummary is a signature request as the console's list shows it.
type RequestSummary struct {
	ID        string          `json:"signature_request_id"`
	Title     string          `json:"title"`
	Requester string          `json:"requester_email_address"`
	CreatedAt int64           `json:"created_at"`
	Status    string          `json:"status"`
	Signers   []SignerSummary `json:"signers"`
	TestMode  bool            `json:"test_mode"`
}

// SignerSummary is one signer in a list row.
type SignerSummary struct {
	Name   string `json:"name"`
	Email  string `json:"email_address"`
	Status string `json:"status_code"`
}

// Requests lists signature requests newest first; q is a search as the
// list API takes it (see Reader.Search), as the account accountID sees
// the requests.
func (r Reader) Requests(tx *state.Txn, q, accountID, cursor string, limit int) (PageOf[RequestSummary], error) {
	me, _ := state.Get[model.Account](tx, state.TableAccounts, accountID)
	var keep func(*model.SignatureRequest) bool
	if r.Search != nil {
		k, err := r.Search(q, me)
		if err != nil {
			return PageOf[RequestSummary]{}, err
		}
		keep = k
	}
	rows, next, err := newest(tx, state.TableSignatureRequests, cursor, limit,
		func(req *model.SignatureRequest) uint64 { return req.Seq }, keep)
	if err != nil {
		return PageOf[RequestSummary]{}, err
	}
	page := PageOf[RequestSummary]{Items: []RequestSummary{}, Next: next}
	for _, req := range rows {
		s := RequestSummary{ID: req.ID, Title: req.Title, Requester: req.RequesterEmail, CreatedAt: req.CreatedAt,
			Status: requestStatus(req), Signers: []SignerSummary{}, TestMode: req.TestMode}
		for _, sig := range req.Signatures {
			s.Signers = append(s.Signers, SignerSummary{Name: sig.Name, Email: sig.Email, Status: sig.Status})
		}
		page.Items = append(page.Items, s)
	}
	return page, nil
}

// requestStatus is one word for a request's state: its phase, or error.
func requestStatus(req *model.SignatureRequest) string {
	if req.Error != "" {
		return "error"
	}
	if req.Phase == "" {
		return "pending"
	}
	return req.Phase
}

// RequestDetail is everything the console shows of one request: the view
// the API gives its owner, plus what only the sandbox knows (its audit
// trail on the world clock, its form fields as given, its documents).
type RequestDetail struct {
	Request    any                `json:"signature_request"`
	Status     string             `json:"status"`
	Audit      []model.AuditEntry `json:"audit"`
	FormFields []model.FormField  `json:"form_fields"`
	// FieldGroups are the checkbox and radio groups of the form fields.
	FieldGroups []model.FieldGroup `json:"field_groups"`
	// FieldRules are their conditional logic.
	FieldRules []model.FieldRule `json:"field_rules"`
	Documents  []string          `json:"documents"`
	CreatedAt  int64             `json:"created_at"`
	Signers    []SignerDetail    `json:"signers"`
	// AllowDecline and AllowReassign say which of those actions a signer
	// may take; DateFormat is how date_signed fields show.
	AllowDecline  bool   `json:"allow_decline"`
	AllowReassign bool   `json:"allow_reassign"`
	DateFormat    string `json:"date_format,omitempty"`
}

// SignerDetail is a signer with the ids the control plane's actions take.
type SignerDetail struct {
	ID     string `json:"signature_id"`
	Slot   int    `json:"slot"`
	Name   string `json:"name"`
	Email  string `json:"email_address"`
	Role   string `json:"role,omitempty"`
	Order  *int   `json:"order,omitempty"`
	Status string `json:"status_code"`
	// Actions are the control plane's signer actions, each with whether it
	// would be taken now and, if not, why (the control plane's own error).
	Actions []Action `json:"actions"`
}

// Action is one action the console offers, as the control plane would
// answer it now: a refused one carries the control plane's message.
type Action struct {
	Name    string `json:"name"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason,omitempty"`
}

// ActionOf is the action name with the control plane's refusal of it (the
// error it would answer, whose message is the reason), or nil when it
// would take it.
func ActionOf(name string, refusal *apierr.Error) Action {
	if refusal == nil {
		return Action{Name: name, Allowed: true}
	}
	return Action{Name: name, Reason: refusal.Msg}
}

// Request shows one request (state.ErrNotFound for an unknown id).
func (r Reader) Request(tx *state.Txn, id string) (RequestDetail, error) {
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
	if err != nil {
		return RequestDetail{}, err
	}
	view, err := r.Catalog.Get(tx, "signature_request", id)
	if err != nil {
		return RequestDetail{}, err
	}
	d := RequestDetail{Request: view, Status: requestStatus(req), Audit: req.Audit, FormFields: req.FormFields,
		FieldGroups: append([]model.FieldGroup{}, req.FieldGroups...), FieldRules: append([]model.FieldRule{}, req.FieldRules...),
		Documents: []string{}, CreatedAt: req.CreatedAt, Signers: []SignerDetail{},
		AllowDecline: req.AllowDecline, AllowReassign: req.AllowReassign, DateFormat: req.DateFormat}
	if d.Audit == nil {
		d.Audit = []model.AuditEntry{}
	}
	if d.FormFields == nil {
		d.FormFields = []model.FormField{}
	}
	for _, doc := range req.Documents {
		d.Documents = append(d.Documents, doc.Name)
	}
	for _, sig := range req.Signatures {
		sd := SignerDetail{ID: sig.ID, Slot: sig.Slot, Name: sig.Name, Email: sig.Email, Role: sig.Role, Order: sig.Order, Status: sig.Status, Actions: []Action{}}
		if r.SignerActions != nil {
			sd.Actions = append(sd.Actions, r.SignerActions(req, sig.ID, tx.Now())...)
		}
		d.Signers = append(d.Signers, sd)
	}
	return d, nil
}

// Emails lists the outbox newest first, all of it or one request's, the
// e-mails a search q keeps (mail.Query: a page walks past those it does
// not, so a search costs the e-mails it looks at).
func (r Reader) Emails(tx *state.Txn, requestID, q, cursor string, limit int) (PageOf[*model.Email], error) {
	var keep func(*model.Email) bool
	if search := mail.ParseQuery(q); requestID != "" || !search.Empty() {
		keep = func(e *model.Email) bool {
			return (requestID == "" || e.SignatureRequestID == requestID) && search.Match(e)
		}
	}
	rows, next, err := newest(tx, state.TableEmails, cursor, limit, func(e *model.Email) uint64 { return e.Seq }, keep)
	if err != nil {
		return PageOf[*model.Email]{}, err
	}
	if rows == nil {
		rows = []*model.Email{}
	}
	return PageOf[*model.Email]{Items: rows, Next: next}, nil
}

// Email shows one e-mail of the outbox.
func (r Reader) Email(tx *state.Txn, id string) (*model.Email, error) {
	return state.Get[model.Email](tx, state.TableEmails, id)
}

// Objects lists a catalog kind in id order from cursor.
func (r Reader) Objects(tx *state.Txn, kind, cursor string, limit int) (PageOf[any], error) {
	p, err := r.Catalog.List(tx, kind, catalog.Filter{Limit: clampLimit(limit)}, cursor)
	if err != nil {
		return PageOf[any]{}, err
	}
	if p.Items == nil {
		p.Items = []any{}
	}
	return PageOf[any]{Items: p.Items, Next: p.Next}, nil
}

// Object shows one object of a catalog kind.
func (r Reader) Object(tx *state.Txn, kind, id string) (any, error) {
	return r.Catalog.Get(tx, kind, id)
}

// ErrNoDocument is answered for a document index a request does not have.
var ErrNoDocument = errors.New("console: the request has no such document")

// Document returns a request's document as PDF, with its name, for the
// signing view (state.ErrNotFound for an unknown request).
func (r Reader) Document(tx *state.Txn, id, index string) ([]byte, string, error) {
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id)
	if err != nil {
		return nil, "", err
	}
	i, err := strconv.Atoi(index)
	if err != nil || i < 0 || i >= len(req.Documents) || req.Documents[i].PDFBlobID == "" {
		return nil, "", ErrNoDocument
	}
	data, err := state.GetBlob(tx, req.Documents[i].PDFBlobID)
	if err != nil {
		return nil, "", ErrNoDocument
	}
	return data, req.Documents[i].Name, nil
}
