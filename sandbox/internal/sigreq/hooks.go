package sigreq

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Hooks are the seams of signature requests that belong to one sandbox's
// registry (Registry.Areas), never to the process: the fault point that
// scenario rules fill, and a stand-in for template resolution that
// white-box tests set.
type Hooks struct {
	// TemplateResolver, when set, stands in for template.ResolveRequest
	// (see TemplateResolverOf): tests count or fake resolutions with it.
	// The sandbox leaves it nil.
	TemplateResolver func(c *api.Call, tx *state.Txn, ids []string) (*template.Use, error)
	// ProcessFault lets scenario rules fail a request while it is
	// processed: a failure (fail_file, fail_processing) ends it in error with
	// the failure's status code and event (failures.go). A nil hook or
	// answer means no rule.
	ProcessFault func(s *api.Host, w *world.World, tx *state.Txn, req *state.SignatureRequest) *ProcessFailure
}

// HooksOf is the signature request hooks of a registry.
func HooksOf(r *api.Registry) *Hooks { return r.Areas.(*Hooks) }

// TemplateResolverOf is how the requests of r resolve template_ids for
// send_with_template, create_embedded_with_template and the two
// edit_*_with_template operations: template.ResolveRequest, unless a test
// set a stand-in.
//
// Contract: it runs inside the write transaction tx that creates the
// request; c is the call (c.Account is the caller). It answers the
// combined Use of ids, in the order given (ids are non-empty and
// distinct), or the official error for the first template that does not
// exist, is not visible to the caller (not theirs and not shared with
// them), is still being prepared, or failed — with error_path
// "template_ids[i]". It must not write. Binding signers and CCs to roles,
// custom_fields to merge fields and the quota are done by the caller.
func TemplateResolverOf(r *api.Registry) func(c *api.Call, tx *state.Txn, ids []string) (*template.Use, error) {
	if h := HooksOf(r).TemplateResolver; h != nil {
		return h
	}
	return template.ResolveRequest
}
