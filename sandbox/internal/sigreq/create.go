package sigreq

import (
	"fmt"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/notify"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// Spec is a validated signature request, ready to be stored by
// Create. The API operations build it from their bodies;
// templates, bulk send and unclaimed drafts build it from their own data.
// Everything in it has been checked: Create only enforces the
// quota.
type Spec struct {
	// ID is the signature_request_id to create the request under; "" gives
	// a new id. An unclaimed draft hands out its request's id when the draft
	// is created, and the request of that id is made when the draft is sent.
	// (Not kept in a stored spec: omitempty keeps the JSON of drafts and
	// bulk jobs as it was.)
	ID string `json:",omitempty"`
	// Requester is the sending account.
	Requester *model.Account
	// ClientID is the API app the request is made with ("" for none).
	ClientID string
	// Embedded requests are signed through GET /embedded/sign_url only.
	Embedded bool
	TestMode bool
	// Hold leaves the request on_hold_by_requester after processing until
	// release_hold (unclaimed drafts with hold_request).
	Hold          bool
	BulkSendJobID string
	TemplateIDs   []string

	Title, Subject, Message string
	Metadata                map[string]any
	ExpiresAt               *int64
	CCEmails                []string
	SigningRedirectURL      string

	AllowDecline, AllowReassign, HideTextTags, UseTextTags, IsEID, PopulateAutoFillFields bool
	SigningOptions                                                                        *model.SigningOptions
	DateFormat, FormView                                                                  string

	// Signers carry Slot, Name, Email, Order, Group, Role, PIN and SMS
	// settings; ids and statuses are assigned on creation.
	Signers      []model.Signature
	CustomFields []model.CustomField
	Attachments  []model.Attachment
	// Documents are stored documents (Store, or a template's).
	Documents   []model.Document
	FormFields  []model.FormField
	FieldGroups []model.FieldGroup
	FieldRules  []model.FieldRule

	// BaseURL is the sandbox's public scheme and host, WorldURL the world's
	// page prefix (BaseURL + /_sandbox/w/{world_id}).
	BaseURL, WorldURL string
}

// consumeQuota takes one signature request from the account's API quota
// (requests outside test_mode only; a nil quota is unlimited).
func consumeQuota(tx *state.Txn, accountID string, testMode bool) error {
	if testMode {
		return nil
	}
	a, err := state.Get[model.Account](tx, state.TableAccounts, accountID)
	if err != nil {
		return apierr.NotFoundf("Account not found.")
	}
	left := a.Quotas.APISignatureRequestsLeft
	if left == nil {
		return nil
	}
	if *left <= 0 {
		return apierr.New(apierr.PaymentRequired, apierr.MsgPaymentRequired)
	}
	c := state.Clone(a)
	n := *left - 1
	c.Quotas.APISignatureRequestsLeft = &n
	return state.Put(tx, state.TableAccounts, c)
}

// signatureIDFrom shortens a world id to the 32 hex characters of the
// official signature ids.
func signatureIDFrom(id string) string { return id[:32] }

// Create stores a new request from a validated spec inside
// tx: it consumes the quota, assigns ids (the request's own unless spec.ID
// gives it), gives the parties list access, and schedules processing
// (signature_request_sent or file_error after the world's
// SendProcessingDelay) and file preparation. Templates, bulk send and
// unclaimed drafts call it too.
func Create(tx *state.Txn, spec *Spec) (*model.SignatureRequest, error) {
	if err := consumeQuota(tx, spec.Requester.ID, spec.TestMode); err != nil {
		return nil, err
	}
	id := spec.ID
	if id == "" {
		id = tx.NewID()
	} else if _, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, id); err == nil {
		return nil, fmt.Errorf("signature request %s already exists", id)
	}
	req := &model.SignatureRequest{ID: id, Seq: tx.Seq(), CreatedAt: tx.Unix()}
	fillFromSpec(tx, req, spec)
	req.Audit = []model.AuditEntry{{Time: tx.Unix(), Actor: spec.Requester.Email, Action: "created", Detail: req.Title}}
	if err := state.Put(tx, state.TableSignatureRequests, req); err != nil {
		return nil, err
	}
	if err := grantAccess(tx, req, nil); err != nil {
		return nil, err
	}
	return req, scheduleProcessing(tx, req)
}

// replaceSignatureRequest edits and resends a request from a validated spec:
// same signature_request_id and creation time, everything else new (new
// signature ids), quota consumed again, processing starts over.
func replaceSignatureRequest(s *api.Host, tx *state.Txn, old *model.SignatureRequest, spec *Spec) (*model.SignatureRequest, error) {
	if err := consumeQuota(tx, spec.Requester.ID, spec.TestMode); err != nil {
		return nil, err
	}
	if err := cancelRequestJobs(tx, old.ID); err != nil {
		return nil, err
	}
	req := &model.SignatureRequest{ID: old.ID, Seq: old.Seq, CreatedAt: old.CreatedAt, Generation: old.Generation + 1}
	fillFromSpec(tx, req, spec)
	req.RemovedFor = append([]string(nil), old.RemovedFor...)
	// The signers' old links still open the request's page, as they did
	// when each link was a row of its own (state.IndexLinkSignature).
	req.LinkSecrets = old.LinkSecrets
	req.Audit = append(append([]model.AuditEntry(nil), old.Audit...),
		model.AuditEntry{Time: tx.Unix(), Actor: spec.Requester.Email, Action: "edited and resent", Detail: req.Title})
	if err := state.Put(tx, state.TableSignatureRequests, req); err != nil {
		return nil, err
	}
	if err := grantAccess(tx, req, old); err != nil {
		return nil, err
	}
	for _, sg := range removedSigners(old, req) {
		ev := sigEvent{Type: notify.TypeRequestSignerRemoved, SignatureID: sg.ID,
			Message: sg.Email + " was removed from the signature request when it was edited."}
		if err := emitForRequest(s, tx, req, ev); err != nil {
			return nil, err
		}
	}
	return req, scheduleProcessing(tx, req)
}

// removedSigners are the signers of the old version of an edited request
// whose e-mail address no signer of the new version has: the edit removed
// them (signature_request_signer_removed, related_signature_id their old
// signature id). Signers kept get new signature ids but are not removed.
func removedSigners(old, req *model.SignatureRequest) []model.Signature {
	kept := map[string]bool{}
	for _, sg := range req.Signatures {
		kept[state.EmailKey(sg.Email)] = true
	}
	var out []model.Signature
	for _, sg := range old.Signatures {
		if sg.Email != "" && !kept[state.EmailKey(sg.Email)] {
			out = append(out, sg)
		}
	}
	return out
}

// shareRepeatedStrings points the strings of a new request row that
// repeat from one request to the next (the sandbox's addresses, the API
// app's client id) at the copies the requester's newest request already
// keeps, and BaseURL at the start of WorldURL, which begins with it: every
// stored request would otherwise keep its own copies of the same text.
// Only where the strings live changes, never their value. The addresses
// come shared already (addresses), so the newest request is only
// looked up for a client id: most sends have none and are spared the
// three reads.
func shareRepeatedStrings(tx *state.Txn, req *model.SignatureRequest) {
	if prev := requestToShareWith(tx, req); prev != nil {
		if req.WorldURL == prev.WorldURL {
			req.WorldURL = prev.WorldURL
		}
		if req.ClientID == prev.ClientID {
			req.ClientID = prev.ClientID
		}
	}
	if strings.HasPrefix(req.WorldURL, req.BaseURL) {
		req.BaseURL = req.WorldURL[:len(req.BaseURL)]
	}
}

// requestToShareWith is the requester's newest request when req has a
// client id to share with it, nil otherwise (no read at all).
func requestToShareWith(tx *state.Txn, req *model.SignatureRequest) *model.SignatureRequest {
	if req.ClientID == "" {
		return nil
	}
	return newestRequestOf(tx, req.RequesterAccountID)
}

// newestRequestOf is the newest request in an account's list, or nil.
func newestRequestOf(tx *state.Txn, accountID string) *model.SignatureRequest {
	n, err := state.AccessCount(tx, accountID)
	if err != nil || n == 0 {
		return nil
	}
	a, err := state.AccessAt(tx, accountID, n)
	if err != nil {
		return nil
	}
	req, err := state.Get[model.SignatureRequest](tx, state.TableSignatureRequests, a.RequestID)
	if err != nil {
		return nil
	}
	return req
}

// fillFromSpec copies a spec into a new request row.
func fillFromSpec(tx *state.Txn, req *model.SignatureRequest, spec *Spec) {
	req.RequesterAccountID = spec.Requester.ID
	req.RequesterEmail = spec.Requester.Email
	req.RequesterName = spec.Requester.Name
	req.ClientID, req.Embedded, req.TestMode, req.Hold = spec.ClientID, spec.Embedded, spec.TestMode, spec.Hold
	req.AwaitsConfirmation = !spec.Requester.Confirmed // hold.go
	req.BaseURL, req.WorldURL = spec.BaseURL, spec.WorldURL
	shareRepeatedStrings(tx, req)
	req.BulkSendJobID = spec.BulkSendJobID
	req.TemplateIDs = append([]string(nil), spec.TemplateIDs...)
	req.Title, req.Subject, req.Message = spec.Title, spec.Subject, spec.Message
	// The official examples show original_title carrying the e-mail subject
	// when one was given.
	req.OriginalTitle = spec.Title
	if spec.Subject != "" {
		req.OriginalTitle = spec.Subject
	}
	req.Metadata = spec.Metadata
	req.ExpiresAt = spec.ExpiresAt
	req.CCEmails = append([]string(nil), spec.CCEmails...)
	req.SigningRedirectURL = spec.SigningRedirectURL
	req.AllowDecline, req.AllowReassign = spec.AllowDecline, spec.AllowReassign
	req.HideTextTags, req.UseTextTags, req.IsEID = spec.HideTextTags, spec.UseTextTags, spec.IsEID
	req.PopulateAutoFillFields = spec.PopulateAutoFillFields
	req.SigningOptions, req.DateFormat, req.FormView = spec.SigningOptions, spec.DateFormat, spec.FormView
	req.CustomFields = append([]model.CustomField(nil), spec.CustomFields...)
	req.Attachments = append([]model.Attachment(nil), spec.Attachments...)
	for i := range req.Attachments {
		req.Attachments[i].ID = "id_" + itoa(i+1)
	}
	req.Documents = append([]model.Document(nil), spec.Documents...)
	req.FormFields = append([]model.FormField(nil), spec.FormFields...)
	req.FieldGroups = append([]model.FieldGroup(nil), spec.FieldGroups...)
	req.FieldRules = append([]model.FieldRule(nil), spec.FieldRules...)
	// Without form fields (or text tags, or templates that place them) the
	// service appends a page where every signer signs.
	req.AppendSignaturePage = len(spec.FormFields) == 0 && !spec.UseTextTags && len(spec.TemplateIDs) == 0
	req.Phase = model.PhaseProcessing
	groupGUIDs := map[string]string{}
	req.Signatures = make([]model.Signature, len(spec.Signers))
	for i, sg := range spec.Signers {
		sg.ID = signatureIDFrom(tx.NewID())
		sg.Status = model.SigAwaiting
		if sg.Group != "" {
			if groupGUIDs[sg.Group] == "" {
				groupGUIDs[sg.Group] = tx.NewUUID()
			}
			sg.GroupGUID = groupGUIDs[sg.Group]
		}
		if sg.Order != nil {
			req.Ordered = true
		}
		req.Signatures[i] = sg
	}
	req.ResponseData = mergeResponses(req)
}

// grantAccess puts a request in the lists of its requester and of the
// signers who have accounts in the world; accounts that were signers of
// the previous version (an edit) and no longer are lose it. CCs are not
// listed, as the official list description says.
func grantAccess(tx *state.Txn, req *model.SignatureRequest, old *model.SignatureRequest) error {
	want := requestAccountIDs(tx, req)
	if old != nil {
		keep := map[string]bool{}
		for _, id := range want {
			keep[id] = true
		}
		for _, id := range requestAccountIDs(tx, old) {
			if !keep[id] {
				if err := state.RemoveAccess(tx, id, req.ID); err != nil {
					return err
				}
			}
		}
	}
	removed := map[string]bool{}
	for _, id := range req.RemovedFor {
		removed[id] = true
	}
	for _, id := range want {
		if removed[id] {
			continue
		}
		if err := state.AddAccess(tx, id, req.ID, req.Seq); err != nil {
			return err
		}
	}
	return nil
}

// requestAccountIDs are the accounts involved in a request: the requester
// first, then the signers that have accounts in this world, each once.
// Events go to these accounts' callbacks.
func requestAccountIDs(tx *state.Txn, req *model.SignatureRequest) []string {
	out := []string{req.RequesterAccountID}
	seen := map[string]bool{req.RequesterAccountID: true}
	for _, sg := range req.Signatures {
		a, err := state.AccountByEmail(tx, sg.Email)
		if err != nil || seen[a.ID] {
			continue
		}
		seen[a.ID] = true
		out = append(out, a.ID)
	}
	return out
}
