// Package legacy accepts what older HelloSign clients still send: the
// methods and paths the API documented before its current description, and
// the older shapes of some parameters (file_url[0], signers keyed by role
// name, signer groups inside signers, ...). Both map onto the current
// operations and parameters, so an old integration gets the same answers as
// a current one, without a rewrite.
//
// The older clients studied are the hellosign-sdk Node package (2.1.0) and
// the legacy Ruby, PHP, Python and Java SDKs; docs/fidelity.md
// lists every alias and form this package accepts.
package legacy
