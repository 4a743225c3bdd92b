package api

import "net/http"

// NoRedirects keeps the callback and file fetch clients from following
// redirects: a receiver that redirects has not acknowledged the event.
func NoRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
