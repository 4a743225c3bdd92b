package sigreq

// The fields of the signature request search (GET /signature_request/list
// query=...); the syntax is package search's. Free terms match to, from,
// title, subject, message, metadata and filename, as the reference says.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/search"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// requestSearch lists the fields a signature request query may name.
var requestSearch = &search.Resource{Fields: map[string]search.Kind{
	"to": search.Text, "from": search.Text, "title": search.Text, "subject": search.Text, "message": search.Text,
	"metadata": search.Text, "filename": search.Text, "template": search.Text, "created": search.Date,
	"complete": search.Flag, "declined": search.Flag, "awaiting_my_signature": search.Flag, "test_mode": search.Flag,
}}

// parseSearchQuery parses a signature request query (nil for a blank one).
func parseSearchQuery(q string) (*search.Query, *apierr.Error) { return requestSearch.Parse(q) }

// matches reports whether a request matches the query q as seen by
// me (to:me, from:me, awaiting_my_signature); a nil query matches
// everything.
func matches(q *search.Query, req *model.SignatureRequest, me *model.Account) bool {
	return q.Eval(func(t *search.Term) bool { return matchRequestTerm(t, req, me) })
}

// matchRequestTerm reports whether one term of a query matches a request as
// seen by me (matches applies it to every term).
func matchRequestTerm(t *search.Term, req *model.SignatureRequest, me *model.Account) bool {
	switch t.Field {
	case "complete":
		return (req.Phase == model.PhaseComplete) == t.Flag
	case "declined":
		return (req.Phase == model.PhaseDeclined) == t.Flag
	case "test_mode":
		return req.TestMode == t.Flag
	case "awaiting_my_signature":
		return awaitingSignatureOf(req, me) == t.Flag
	case "created":
		return t.Range.Match(req.CreatedAt)
	case "to":
		return matchTo(req, me, t)
	case "from":
		return matchFrom(req, me, t)
	case "title":
		return t.Has(req.Title)
	case "subject":
		return t.Has(req.Subject)
	case "message":
		return t.Has(req.Message)
	case "metadata":
		return search.MatchMetadata(req.Metadata, t)
	case "filename":
		return search.MatchDocumentNames(req.Documents, t)
	case "template":
		for _, id := range req.TemplateIDs {
			if strings.EqualFold(id, t.Value) {
				return true
			}
		}
		return false
	}
	return matchTo(req, me, t) || matchFrom(req, me, t) || t.Has(req.Title) || t.Has(req.Subject) ||
		t.Has(req.Message) || search.MatchMetadata(req.Metadata, t) || search.MatchDocumentNames(req.Documents, t)
}

func matchTo(req *model.SignatureRequest, me *model.Account, t *search.Term) bool {
	for _, sg := range req.Signatures {
		if t.Value == "me" && me != nil && state.EmailKey(sg.Email) == state.EmailKey(me.Email) {
			return true
		}
		if t.Has(sg.Email) || t.Has(sg.Name) {
			return true
		}
	}
	return false
}

func matchFrom(req *model.SignatureRequest, me *model.Account, t *search.Term) bool {
	if t.Value == "me" && me != nil {
		return req.RequesterAccountID == me.ID
	}
	return t.Has(req.RequesterEmail) || t.Has(req.RequesterName)
}

// awaitingSignatureOf reports whether the account has a signature waiting
// for it now.
func awaitingSignatureOf(req *model.SignatureRequest, me *model.Account) bool {
	if me == nil || req.Phase != model.PhaseSent {
		return false
	}
	for i := range req.Signatures {
		sg := &req.Signatures[i]
		if state.EmailKey(sg.Email) == state.EmailKey(me.Email) && sg.Status == model.SigAwaiting && IsTurn(req, sg) {
			return true
		}
	}
	return false
}
