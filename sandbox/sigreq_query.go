package sandbox

// The fields of the signature request search (GET /signature_request/list
// query=...); the syntax is search_query.go's. Free terms match to, from,
// title, subject, message, metadata and filename, as the reference says.

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// sigreqSearch lists the fields a signature request query may name.
var sigreqSearch = &Resource{Fields: map[string]Kind{
	"to": Text, "from": Text, "title": Text, "subject": Text, "message": Text,
	"metadata": Text, "filename": Text, "template": Text, "created": Date,
	"complete": Flag, "declined": Flag, "awaiting_my_signature": Flag, "test_mode": Flag,
}}

// parseSearchQuery parses a signature request query (nil for a blank one).
func parseSearchQuery(q string) (*Query, *apierr.Error) { return sigreqSearch.Parse(q) }

// requestMatches reports whether a request matches the query q as seen by
// me (to:me, from:me, awaiting_my_signature); a nil query matches
// everything.
func requestMatches(q *Query, req *state.SignatureRequest, me *state.Account) bool {
	return q.Eval(func(t *Term) bool { return matchRequestTerm(t, req, me) })
}

func matchRequestTerm(t *Term, req *state.SignatureRequest, me *state.Account) bool {
	switch t.Field {
	case "complete":
		return (req.Phase == state.PhaseComplete) == t.Flag
	case "declined":
		return (req.Phase == state.PhaseDeclined) == t.Flag
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
		return MatchMetadata(req.Metadata, t)
	case "filename":
		return MatchDocumentNames(req.Documents, t)
	case "template":
		for _, id := range req.TemplateIDs {
			if strings.EqualFold(id, t.Value) {
				return true
			}
		}
		return false
	}
	return matchTo(req, me, t) || matchFrom(req, me, t) || t.Has(req.Title) || t.Has(req.Subject) ||
		t.Has(req.Message) || MatchMetadata(req.Metadata, t) || MatchDocumentNames(req.Documents, t)
}

func matchTo(req *state.SignatureRequest, me *state.Account, t *Term) bool {
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

func matchFrom(req *state.SignatureRequest, me *state.Account, t *Term) bool {
	if t.Value == "me" && me != nil {
		return req.RequesterAccountID == me.ID
	}
	return t.Has(req.RequesterEmail) || t.Has(req.RequesterName)
}

// awaitingSignatureOf reports whether the account has a signature waiting
// for it now.
func awaitingSignatureOf(req *state.SignatureRequest, me *state.Account) bool {
	if me == nil || req.Phase != state.PhaseSent {
		return false
	}
	for i := range req.Signatures {
		sg := &req.Signatures[i]
		if state.EmailKey(sg.Email) == state.EmailKey(me.Email) && sg.Status == state.SigAwaiting && isTurn(req, sg) {
			return true
		}
	}
	return false
}
