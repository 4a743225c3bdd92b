// Package sigreq is the signature requests of a world: the spec a call
// builds (with the fields of its documents, text tags and templates) and
// its codec, creation, the transitions that signers, senders and time
// make and the outcome each applies, the processing, expiry and file
// jobs, failures, search, transfer with a team, the request view, the API
// handlers, the signer actions and failures of the control plane, and the
// signing page. Drafts, bulk sends and scenarios build on it; it imports
// none of them.
package sigreq
