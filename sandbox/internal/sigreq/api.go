package sigreq

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RegisterAPI attaches the handlers of the official signature request
// operations: get, remind, update, cancel, remove, release_hold, the send,
// create-embedded and edit families, and list.
func RegisterAPI(r *api.Registry) {
	r.Handle("signatureRequestGet", signatureRequestGet)
	r.Handle("signatureRequestRemind", signatureRequestRemind)
	r.Handle("signatureRequestUpdate", signatureRequestUpdate)
	r.Handle("signatureRequestCancel", signatureRequestCancel)
	r.Handle("signatureRequestRemove", signatureRequestRemove)
	r.Handle("signatureRequestReleaseHold", signatureRequestReleaseHold)
	registerCreate(r)
	registerList(r)
}

// signatureRequestGet answers a request the caller can see.
func signatureRequestGet(c *api.Call) (any, error) {
	req, err := Load(c.Read(), c.Param("signature_request_id"), c.Account)
	if err != nil {
		return nil, err
	}
	return signatureRequestGetResponse{SignatureRequest: View(req, c.Account.ID)}, nil
}

// sigreqAction runs a transition on a request the caller can see, in one
// write transaction, and answers the request as it is afterwards.
func sigreqAction(c *api.Call, fn func(tx *state.Txn, req *model.SignatureRequest) (*outcome, error)) (any, error) {
	var resp signatureRequestGetResponse
	err := c.Update(func(tx *state.Txn) error {
		req, err := Load(tx, c.Param("signature_request_id"), c.Account)
		if err != nil {
			return err
		}
		o, err := fn(tx, req)
		if err != nil {
			return err
		}
		if err := applyOutcome(c.Host, tx, o); err != nil {
			return err
		}
		if o != nil {
			req = o.Req
		}
		resp.SignatureRequest = View(req, c.Account.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// errOrNil keeps a nil *apierr.Error from becoming a non-nil error.
func errOrNil(e *apierr.Error) error {
	if e == nil {
		return nil
	}
	return e
}

type remindRequest struct {
	EmailAddress string `json:"email_address"`
	Name         string `json:"name"`
}

// signatureRequestRemind e-mails a signer a reminder.
func signatureRequestRemind(c *api.Call) (any, error) {
	var body remindRequest
	if err := c.Bind(&body); err != nil {
		return nil, err
	}
	email := strings.TrimSpace(body.EmailAddress)
	if err := param.CheckEmail("email_address", email); err != nil {
		return nil, err
	}
	return sigreqAction(c, func(tx *state.Txn, req *model.SignatureRequest) (*outcome, error) {
		if !MayManage(tx, req, c.Account) {
			return nil, apierr.Forbiddenf("Only the requester can send reminders for this signature request.")
		}
		interval := int64(state.GetConfig(tx).ReminderInterval.D().Seconds())
		o, e := remind(req, email, strings.TrimSpace(body.Name), tx.Unix(), interval)
		return o, errOrNil(e)
	})
}

type updateRequest struct {
	SignatureID  string  `json:"signature_id"`
	EmailAddress *string `json:"email_address"`
	Name         *string `json:"name"`
	ExpiresAt    *int64  `json:"expires_at"`
}

// signatureRequestUpdate changes a signer's name or e-mail address (a new
// address gives a new signature_id) or the expiry.
func signatureRequestUpdate(c *api.Call) (any, error) {
	var body updateRequest
	if err := c.Bind(&body); err != nil {
		return nil, err
	}
	if strings.TrimSpace(body.SignatureID) == "" {
		return nil, apierr.Missing("signature_id")
	}
	if body.EmailAddress == nil && body.Name == nil && body.ExpiresAt == nil {
		return nil, apierr.Badf("email_address", "Give email_address and/or name (or expires_at) to update.")
	}
	if body.EmailAddress != nil {
		v := strings.TrimSpace(*body.EmailAddress)
		if err := param.CheckEmail("email_address", v); err != nil {
			return nil, err
		}
		body.EmailAddress = &v
	}
	if body.Name != nil {
		v := strings.TrimSpace(*body.Name)
		if v == "" {
			return nil, param.Blank("name")
		}
		body.Name = &v
	}
	expires, e := checkExpiresAt("expires_at", body.ExpiresAt, c.World.Now())
	if e != nil {
		return nil, e
	}
	return sigreqAction(c, func(tx *state.Txn, req *model.SignatureRequest) (*outcome, error) {
		if !MayManage(tx, req, c.Account) {
			return nil, apierr.Forbiddenf("Only the requester can update this signature request.")
		}
		o, e := update(req, strings.TrimSpace(body.SignatureID), body.Name, body.EmailAddress, expires, signatureIDFrom(tx.NewID()), tx.Unix())
		return o, errOrNil(e)
	})
}

// signatureRequestCancel queues a cancelation; it completes after the
// world's CancelDelay with signature_request_canceled.
func signatureRequestCancel(c *api.Call) (any, error) {
	err := c.Update(func(tx *state.Txn) error {
		req, err := Load(tx, c.Param("signature_request_id"), c.Account)
		if err != nil {
			return err
		}
		o, e := cancel(req, MayManage(tx, req, c.Account))
		if e != nil {
			return e
		}
		if err := applyOutcome(c.Host, tx, o); err != nil {
			return err
		}
		_, err = state.Schedule(tx, jobSigreqCancel, req.ID, state.GetConfig(tx).CancelDelay.D(), nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return api.EmptyOK(), nil
}

// signatureRequestRemove removes the caller's access to a fully executed
// request, at once.
func signatureRequestRemove(c *api.Call) (any, error) {
	err := c.Update(func(tx *state.Txn) error {
		req, err := Load(tx, c.Param("signature_request_id"), c.Account)
		if err != nil {
			return err
		}
		o, e := remove(req, c.Account.ID, isParty(req, c.Account) || ownsApp(tx, req, c.Account.ID))
		if e != nil {
			return e
		}
		if err := state.RemoveAccess(tx, c.Account.ID, req.ID); err != nil {
			return err
		}
		return applyOutcome(c.Host, tx, o)
	})
	if err != nil {
		return nil, err
	}
	return api.EmptyOK(), nil
}

// signatureRequestReleaseHold sends a request its requester held.
func signatureRequestReleaseHold(c *api.Call) (any, error) {
	return sigreqAction(c, func(tx *state.Txn, req *model.SignatureRequest) (*outcome, error) {
		if !MayManage(tx, req, c.Account) {
			return nil, apierr.Forbiddenf("Only the requester can release this signature request.")
		}
		o, e := release(req, tx.Unix())
		return o, errOrNil(e)
	})
}
