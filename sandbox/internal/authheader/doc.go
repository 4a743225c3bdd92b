// Package authheader reads the credentials of a request's Authorization
// header: HTTP Basic with the API key as user name, or Bearer with an
// OAuth access token, refusing anything else in the official error
// envelope. It knows nothing of worlds or accounts; the request pipeline
// looks the credentials up.
package authheader
