package console

import (
	"maps"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/search"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// RequestSearch is the console's search of signature requests: the query
// syntax and fields of GET /v3/signature_request/list (query=...), so that
// what a search finds in the console is what the list API would answer,
// plus two fields only the console has: status (the request's state word,
// as its badge shows it, or a signer's status_code: status:signed,
// status:awaiting_signature) and id (the request's or a signature's id).
// Free terms match what the list API's do, and ids and status words too.
type RequestSearch struct {
	// Fields are the list API's query fields (sigreq.Search.Fields).
	Fields map[string]search.Kind
	// Term matches one term of the list API's fields as the acting
	// account me sees the request (sigreq.MatchTerm).
	Term func(t *search.Term, req *state.SignatureRequest, me *state.Account) bool
}

// resource is the list API's fields with the console's own.
func (s RequestSearch) resource() *search.Resource {
	fields := maps.Clone(s.Fields)
	if fields == nil {
		fields = map[string]search.Kind{}
	}
	fields["status"] = search.Text
	fields["id"] = search.Text
	return &search.Resource{Fields: fields}
}

// Matcher parses q (a 400 naming q, the console's parameter, for a bad
// one) and answers the filter it means; nil for a blank query.
func (s RequestSearch) Matcher(q string, me *state.Account) (func(*state.SignatureRequest) bool, error) {
	parsed, e := s.resource().Parse(q)
	if e != nil {
		return nil, e.WithPath("q")
	}
	if parsed == nil {
		return nil, nil
	}
	return func(req *state.SignatureRequest) bool {
		return parsed.Eval(func(t *search.Term) bool {
			switch t.Field {
			case "status":
				return hasStatus(req, t)
			case "id":
				return hasID(req, t)
			case "":
				if hasStatus(req, t) || hasID(req, t) {
					return true
				}
			}
			return s.Term != nil && s.Term(t, req, me)
		})
	}, nil
}

// hasStatus: a status term names a state word whole (status:sign does not
// find status:signed).
func hasStatus(req *state.SignatureRequest, t *search.Term) bool {
	if strings.EqualFold(requestStatus(req), t.Value) {
		return true
	}
	for _, sig := range req.Signatures {
		if strings.EqualFold(sig.Status, t.Value) {
			return true
		}
	}
	return false
}

func hasID(req *state.SignatureRequest, t *search.Term) bool {
	if t.Has(req.ID) {
		return true
	}
	for _, sig := range req.Signatures {
		if t.Has(sig.ID) {
			return true
		}
	}
	return false
}
