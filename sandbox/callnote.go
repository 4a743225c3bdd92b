package sandbox

import "github.com/signsandbox/signsandbox/sandbox/internal/callnote"

// CallNote is what a Sandbox tells the HTTP server around it about each
// request it answers: the operation, the world the call reached, and, for
// a refused call, why (no world has the key, the key's world was deleted,
// the token expired on the world clock, ...), in words that never hold a
// credential. The answer stays the official one; the note is for the
// server's access log.
type CallNote = callnote.Note

// CallNoteTaker is implemented by a ResponseWriter that wants the note of
// the request it answers: a server that serves a Sandbox through such a
// writer (directly, or wrapped by writers with an Unwrap method, as
// http.ResponseController expects) gets TakeNote once per request the
// sandbox routes, after the answer is written. The signsandbox binary's
// access log is one.
type CallNoteTaker = callnote.Taker
