package sigreq

import (
	"sync/atomic"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/template"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// templateResolver resolves template_ids for send_with_template,
// create_embedded_with_template and the two edit_*_with_template
// operations (template.ResolveRequest, unless a test stood one in).
//
// Contract: it runs inside the write transaction tx that creates the
// request; c is the call (c.Account is the caller). It returns the
// combined Use of ids, in the order given (ids are non-empty and
// distinct), or the official error for the first template that does not
// exist, is not visible to the caller (not theirs and not shared with
// them), is still being prepared, or failed — with error_path
// "template_ids[i]". It must not write. Binding signers and CCs to roles,
// custom_fields to merge fields and the quota are done by the caller.
type templateResolver func(c *api.Call, tx *state.Txn, ids []string) (*template.Use, error)

// templateStandIn is a world's stand-in resolver (world.Ext): it belongs to
// that one world, never to the process or another sandbox.
type templateStandIn struct {
	resolve atomic.Pointer[templateResolver]
}

// templateStandInExt is the stand-in's key in world.Ext.
const templateStandInExt = "sigreq.templateResolver"

// StandInTemplates makes the requests of w resolve their templates with
// resolve instead of template.ResolveRequest (nil restores it): white-box
// tests count or fake resolutions with it. The sandbox never sets one.
func StandInTemplates(w *world.World, resolve func(c *api.Call, tx *state.Txn, ids []string) (*template.Use, error)) {
	r := templateResolver(resolve)
	world.Ext(w, templateStandInExt, func() *templateStandIn { return &templateStandIn{} }).resolve.Store(&r)
}

// resolverOf returns how the requests of w resolve template_ids.
func resolverOf(w *world.World) templateResolver {
	if s := world.Lookup[templateStandIn](w, templateStandInExt); s != nil {
		if r := s.resolve.Load(); r != nil && *r != nil {
			return *r
		}
	}
	return template.ResolveRequest
}
