package sigreq

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Hooks are the hooks through which one area of the sandbox acts in
// another where both still live in the facade: template resolution and
// a fault point. They belong to one Sandbox's registry
// (Registry.Areas); each leaves for the package of its area when that area
// moves.
type Hooks struct {
	// TemplateResolver resolves template_ids for send_with_template,
	// create_embedded_with_template and the two edit_*_with_template
	// operations. The templates area sets it in its register function.
	//
	// Contract: it runs inside the write transaction tx that creates the
	// request; c is the call (c.account is the caller). It answers the
	// combined Use of ids, in the order given (ids are non-empty and
	// distinct), or the official error for the first template that does not
	// exist, is not visible to the caller (not theirs and not shared with
	// them), is still being prepared, or failed — with error_path
	// "template_ids[i]". It must not write. Binding signers and CCs to roles,
	// custom_fields to merge fields and the quota are done by the caller.
	//
	// While it is nil (no templates subsystem), every template id is unknown.
	TemplateResolver func(c *api.Call, tx *state.Txn, ids []string) (*template.Use, error)
	// ProcessFault lets scenario rules fail a request while it is
	// processed: a failure (fail_file, fail_processing) ends it in error with
	// the failure's status code and event (failures.go). A nil hook or
	// answer means no rule.
	ProcessFault func(s *api.Host, w *world.World, tx *state.Txn, req *state.SignatureRequest) *ProcessFailure
}

// HooksOf is the area hooks of a registry.
func HooksOf(r *api.Registry) *Hooks { return r.Areas.(*Hooks) }

// RegisterTemplateResolve plugs the templates' resolution into signature
// requests: the one place where the two areas meet.
func RegisterTemplateResolve(r *api.Registry) {
	HooksOf(r).TemplateResolver = template.ResolveRequest
}
