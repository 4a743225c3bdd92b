package unclaimed

// Claiming and sending a draft: what the user does with the claim URL. The
// first visit claims the draft (later visits answer 404, as the real claim
// URL does); the user then completes the draft in the editor (signers the
// API left open, CCs when allowed) and sends it. Sending creates the
// signature request under the draft's signature_request_id:
//
//   - request_signature: the request is processed and sent to its signers
//     (signature_request_sent), or, with hold_request, held
//     (on_hold_by_requester, signature_request_prepared) until
//     signature_request/release_hold sends it.
//   - send_document: the requester is the only signer and signs in the
//     editor; the signature is recorded once the request is processed
//     (signature_request_sent, _signed, _all_signed, _downloadable).

import (
	"slices"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// jobDraftSelfSign signs a send_document request as its requester once it
// is processed.
const jobDraftSelfSign = "unclaimed_draft.self_sign"

// RegisterClaim adds the job that signs a claimed send_document draft as
// its requester once its request is processed.
func RegisterClaim(r *api.Registry) {
	r.RegisterJob(jobDraftSelfSign, func(s *api.Host, _ *world.World, tx *state.Txn, job *model.Job) error {
		req := sigreq.JobRequest(tx, job)
		if req == nil || req.Phase != model.PhaseSent || len(req.Signatures) == 0 {
			return nil
		}
		return sigreq.Act(s, tx, req.Signatures[0].ID, "sign", "", nil)
	})
}

// roleCC is a CC role's address given at the claim (SubCC).
type roleCC struct {
	Role         string `json:"role"`
	EmailAddress string `json:"email_address"`
}

// claimInput is what the user does in the editor before sending: signers
// (by index for file drafts, by role for template drafts), CCs by role
// (templates) and CC addresses (when the draft allows CCs).
type claimInput struct {
	Signers          []sigreq.SubSigner `json:"signers"`
	CCs              []roleCC           `json:"ccs"`
	CCEmailAddresses []string           `json:"cc_email_addresses"`
}

// Reasons a claim URL no longer works.
const (
	msgDraftUsed    = "This draft has already been claimed."
	msgDraftSent    = "This draft has already been sent."
	msgDraftExpired = "This claim URL has expired."
)

// draftOpen checks that a draft can still be claimed or sent: not sent, and
// not past its expiry unless it was claimed before. claimed says whether an
// opened (claimed, unsent) draft counts as usable.
func draftOpen(d *model.UnclaimedDraft, now int64, claimed bool) *apierr.Error {
	switch {
	case d.Status == state.DraftSent:
		return apierr.Conflictf(msgDraftSent)
	case d.Status == state.DraftClaimed && !claimed:
		return apierr.Conflictf(msgDraftUsed)
	case d.Status == state.DraftUnclaimed && now >= d.ExpiresAt:
		return apierr.New(apierr.Deleted, msgDraftExpired)
	}
	return nil
}

// claimDraft marks a draft claimed by an account (opening its claim URL).
func claimDraft(tx *state.Txn, d *model.UnclaimedDraft, accountID string) (*model.UnclaimedDraft, error) {
	if e := draftOpen(d, tx.Unix(), false); e != nil {
		return nil, e
	}
	n := state.Clone(d)
	n.Status, n.ClaimedAt, n.ClaimedBy = state.DraftClaimed, tx.Unix(), accountID
	return n, state.Put(tx, state.TableUnclaimedDrafts, n)
}

// sendDraft completes a draft with the user's input and creates its
// signature request. claimer is the account sending a non-embedded draft
// (embedded drafts are sent for their requester_email_address by the
// account that created them, which is charged and manages the request).
func sendDraft(tx *state.Txn, d *model.UnclaimedDraft, claimer *model.Account, in claimInput) (*model.SignatureRequest, error) {
	if e := draftOpen(d, tx.Unix(), true); e != nil {
		return nil, e
	}
	spec, err := sigreq.DecodeSpec(d.Spec)
	if err != nil {
		return nil, err
	}
	requester, err := draftRequester(tx, d, claimer)
	if err != nil {
		return nil, err
	}
	spec.Requester = requester
	spec.ClientID, spec.TestMode = d.ClientID, d.TestMode
	if e := applyClaimInput(d, spec, in); e != nil {
		return nil, e
	}
	if d.Type == model.DraftSendDocument {
		// Signed by the requester in the editor: no signing e-mail.
		spec.Signers = []model.Signature{{Slot: 0, Name: requesterName(requester), Email: requester.Email}}
		spec.Embedded, spec.Hold = true, false
	} else {
		spec.Embedded, spec.Hold = d.ForEmbeddedSigning, d.Hold
	}
	if e := checkDraftSlots(spec); e != nil {
		return nil, e
	}
	spec.ID = d.ID // the id the draft handed out
	req, err := sigreq.Create(tx, spec)
	if err != nil {
		return nil, err
	}
	// A held request is reported (signature_request_prepared) by its
	// processing; a send_document request is signed once processed.
	if d.Type == model.DraftSendDocument {
		delay := state.GetConfig(tx).SendProcessingDelay.D()
		if _, err := state.Schedule(tx, jobDraftSelfSign, req.ID, delay, sigreq.JobArgs{Generation: req.Generation}); err != nil {
			return nil, err
		}
	}
	n := state.Clone(d)
	n.Status, n.SentAt, n.ClaimedBy = state.DraftSent, tx.Unix(), requester.ID
	if n.ClaimedAt == 0 {
		n.ClaimedAt = tx.Unix()
	}
	n.Spec = nil // the request holds it now
	return req, state.Put(tx, state.TableUnclaimedDrafts, n)
}

// draftRequester is the account a draft's request is sent from.
func draftRequester(tx *state.Txn, d *model.UnclaimedDraft, claimer *model.Account) (*model.Account, error) {
	if !d.Embedded && claimer != nil {
		return state.Get[model.Account](tx, state.TableAccounts, claimer.ID)
	}
	owner, err := state.Get[model.Account](tx, state.TableAccounts, d.AccountID)
	if err != nil {
		return nil, apierr.NotFoundf("The account that created this draft no longer exists.")
	}
	if !d.Embedded || state.EmailKey(d.RequesterEmail) == owner.EmailKey {
		return owner, nil
	}
	r := state.Clone(owner)
	r.Email, r.Name = d.RequesterEmail, ""
	if a, err := state.AccountByEmail(tx, d.RequesterEmail); err == nil {
		r.Name = a.Name
	}
	return r, nil
}

func requesterName(a *model.Account) string {
	if a.Name != "" {
		return a.Name
	}
	name, _, _ := strings.Cut(a.Email, "@")
	return name
}

// applyClaimInput applies the user's editor changes to the spec.
func applyClaimInput(d *model.UnclaimedDraft, spec *sigreq.Spec, in claimInput) *apierr.Error {
	switch {
	case d.Type == model.DraftSendDocument && len(in.Signers) > 0:
		return apierr.Badf("signers", "A send_document draft is signed by its requester alone.")
	case d.Type == model.DraftSendDocument:
	case len(d.Roles) > 0:
		if e := applyRoleSigners(d, spec, in.Signers); e != nil {
			return e
		}
	case len(in.Signers) > 0 && sameSigners(spec.Signers, in.Signers):
		// The editor shows the draft's signers; sending them back unchanged
		// is not an edit.
	case len(in.Signers) > 0:
		if len(spec.Signers) > 0 && d.Embedded && !d.Editor.AllowEditSigners {
			return apierr.Badf("signers", "The signers of this draft were given when it was created and it does not allow editing them (editor_options[allow_edit_signers]).")
		}
		sigs, _, e := (&sigreq.Body{Signers: in.Signers}).CheckSigners()
		if e != nil {
			return e
		}
		spec.Signers = sigs
	}
	if e := applyRoleCCs(d, spec, in.CCs); e != nil {
		return e
	}
	if len(in.CCEmailAddresses) > 0 {
		if d.Embedded && !d.Editor.AllowCCs {
			return apierr.Badf("cc_email_addresses", "This draft does not let its user add CCs (allow_ccs).")
		}
		extra, e := (&sigreq.Body{CCEmailAddresses: in.CCEmailAddresses}).CheckCCs()
		if e != nil {
			return e
		}
		for _, a := range extra {
			if !slices.ContainsFunc(spec.CCEmails, func(x string) bool { return state.EmailKey(x) == state.EmailKey(a) }) {
				spec.CCEmails = append(spec.CCEmails, a)
			}
		}
	}
	if d.Type == model.DraftRequestSignature && len(spec.Signers) == 0 {
		return apierr.Missing("signers")
	}
	for i, sg := range spec.Signers {
		if sg.Email == "" {
			what := "signer " + strconv.Itoa(i)
			if sg.Role != "" {
				what = "the role " + sg.Role
			}
			return apierr.Badf("signers", "No signer is given for %s: give it when claiming the draft.", what)
		}
	}
	return nil
}

// applyRoleSigners fills the roles of a template draft with the signers the
// user gives. Roles given at creation can be changed only when the draft
// allows it (force_signer_roles, or editor_options[allow_edit_signers]).
func applyRoleSigners(d *model.UnclaimedDraft, spec *sigreq.Spec, given []sigreq.SubSigner) *apierr.Error {
	seen := map[string]bool{}
	for i, s := range given {
		p := "signers[" + strconv.Itoa(i) + "]"
		idx := slices.Index(d.Roles, s.Role)
		switch {
		case strings.TrimSpace(s.Role) == "":
			return apierr.Missing(p + "[role]")
		case idx < 0:
			return apierr.Badf(p+"[role]", "Role %q is not a signer role of this draft (roles are case-sensitive: %s).", s.Role, strings.Join(d.Roles, ", "))
		case seen[s.Role]:
			return apierr.Badf(p+"[role]", "Role %q is given to more than one signer.", s.Role)
		case idx >= len(spec.Signers):
			return apierr.Badf(p+"[role]", "Role %q has no signer place in this draft.", s.Role)
		}
		seen[s.Role] = true
		s.Order = nil
		if e := s.Check(p, false); e != nil {
			return e
		}
		cur := spec.Signers[idx]
		if state.EmailKey(cur.Email) == state.EmailKey(s.EmailAddress) && cur.Name == strings.TrimSpace(s.Name) {
			continue // unchanged
		}
		if cur.Email != "" && d.Embedded && !d.Editor.ForceSignerRoles && !d.Editor.AllowEditSigners {
			return apierr.Badf(p+"[role]", "The signer of role %q was given when the draft was created and this draft does not allow changing it (force_signer_roles).", s.Role)
		}
		sg := s.Signature(cur.Slot)
		sg.Role, sg.Order, sg.Group = cur.Role, cur.Order, cur.Group
		if sg.Role == "" {
			sg.Role = s.Role
		}
		spec.Signers[idx] = sg
	}
	return nil
}

// sameSigners reports whether given lists the same people as cur, in order.
func sameSigners(cur []model.Signature, given []sigreq.SubSigner) bool {
	if len(cur) != len(given) {
		return false
	}
	for i, s := range given {
		if state.EmailKey(cur[i].Email) != state.EmailKey(s.EmailAddress) || cur[i].Name != strings.TrimSpace(s.Name) {
			return false
		}
	}
	return true
}

// applyRoleCCs fills the CC roles of a template draft; roles left open are
// dropped.
func applyRoleCCs(d *model.UnclaimedDraft, spec *sigreq.Spec, given []roleCC) *apierr.Error {
	if len(given) > 0 && len(d.CCRoles) == 0 {
		return apierr.Badf("ccs", "This draft has no CC roles: give CC addresses in cc_email_addresses.")
	}
	for i, cc := range given {
		p := "ccs[" + strconv.Itoa(i) + "]"
		idx := slices.Index(d.CCRoles, cc.Role)
		addr := strings.TrimSpace(cc.EmailAddress)
		switch {
		case idx < 0 || idx >= len(spec.CCEmails):
			return apierr.Badf(p+"[role]", "Role %q is not a CC role of this draft (%s).", cc.Role, strings.Join(d.CCRoles, ", "))
		case addr == "":
			return apierr.Missing(p + "[email_address]")
		case !param.ValidEmail(addr):
			return apierr.Badf(p+"[email_address]", "Invalid email address: %s", cc.EmailAddress)
		}
		spec.CCEmails[idx] = addr
	}
	var kept []string
	for _, a := range spec.CCEmails {
		if a != "" {
			kept = append(kept, a)
		}
	}
	spec.CCEmails = kept
	return nil
}

// checkDraftSlots checks that the draft's fields and attachments name
// signers the request has (drafts created without signers could name any).
func checkDraftSlots(spec *sigreq.Spec) *apierr.Error {
	slots := spec.SignerSlots()
	for _, f := range spec.FormFields {
		if n, ok := f.SlotIndex(); ok && n >= slots {
			return apierr.Badf("signers", "The field %q of this draft is for signer %d: give at least %d signer(s).", f.APIID, n, n+1)
		}
	}
	for _, a := range spec.Attachments {
		if a.SignerIndex >= slots {
			return apierr.Badf("signers", "The attachment %q of this draft is for signer %d: give at least %d signer(s).", a.Name, a.SignerIndex, a.SignerIndex+1)
		}
	}
	return nil
}
