// Package template is the templates of a world: create (with the fields
// their documents carry), the embedded editor, share, overlay, files,
// transfer with a team, their object views and control calls, and Use,
// what templates contribute to a signature request (ResolveRequest), which
// the signature request area binds to signers, CCs and custom_fields.
package template
