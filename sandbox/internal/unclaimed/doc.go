// Package unclaimed is the unclaimed drafts of a world: the four API
// operations that create a draft and edit and resend one, the claim URL's
// page where its user completes and sends it, the control routes that do
// the same in one call, and the drafts' catalog view. A sent draft becomes
// a signature request through package sigreq; templates resolve through
// package template. Bulk sends and the facade build on it; no resource
// package imports it.
package unclaimed
