package sigreq

import (
	"maps"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/search"
)

// ConsoleSearch is the console's search of signature requests: the query
// syntax and fields of GET /v3/signature_request/list (query=...), so that
// what a search finds in the console is what the list API would answer
// (as me sees the requests), plus two fields only the console has: status
// (the request's state word, as the console's badge shows it, or a
// signer's status_code: status:signed, status:awaiting_signature) and id
// (the request's or a signature's id). Free terms match what the list
// API's do, and ids and status words too. A bad query is a 400 naming q,
// the console's parameter; a blank one answers a nil filter.
func ConsoleSearch(q string, me *model.Account) (func(*model.SignatureRequest) bool, error) {
	parsed, e := consoleResource.Parse(q)
	if e != nil {
		return nil, e.WithPath("q")
	}
	if parsed == nil {
		return nil, nil
	}
	return func(req *model.SignatureRequest) bool {
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
			return matchRequestTerm(t, req, me)
		})
	}, nil
}

// consoleResource is the list API's fields with the console's own.
var consoleResource = func() *search.Resource {
	fields := maps.Clone(requestSearch.Fields)
	fields["status"] = search.Text
	fields["id"] = search.Text
	return &search.Resource{Fields: fields}
}()

// consoleStatus is the console's one word for a request's state
// (console.requestStatus): error, else its phase, pending before any.
func consoleStatus(req *model.SignatureRequest) string {
	switch {
	case req.Error != "":
		return "error"
	case req.Phase == "":
		return "pending"
	}
	return req.Phase
}

// hasStatus: a status term names a state word whole (status:sign does not
// find status:signed).
func hasStatus(req *model.SignatureRequest, t *search.Term) bool {
	if strings.EqualFold(consoleStatus(req), t.Value) {
		return true
	}
	for _, sig := range req.Signatures {
		if strings.EqualFold(sig.Status, t.Value) {
			return true
		}
	}
	return false
}

func hasID(req *model.SignatureRequest, t *search.Term) bool {
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
