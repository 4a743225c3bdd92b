// Package search is the query language of the list endpoints
// (GET /signature_request/list and GET /template/list): one tokenizer and
// parser for both, which differ only in the fields a Resource allows and in
// the matcher each list gives Query.Eval. It knows no resource: the
// signature request and template matchers live with their resources.
package search
