package fax

import "github.com/signsandbox/signsandbox/sandbox/internal/api"

// Register adds the fax area to r: the fax operations and their
// transmission job, then the fax line operations, in that order.
func Register(r *api.Registry) {
	registerFaxes(r)
	registerLines(r)
}
