// Package api is the request pipeline every operation and control call
// goes through: the Host (the world registry of one sandbox: worlds in
// creation order, the credentials cache, the public base URL), the Call
// (one request: its world, caller, body and warnings), the Registry
// (operations, control routes, job kinds, world and call hooks, call
// observers and the catalog), the table of the official operations, routing
// (with its fast path in front of gorilla/mux), the Authorization header,
// authentication, rate limits, paging and the response adapter.
//
// It imports no resource: the areas register themselves into a Registry,
// and the facade (package sandbox) makes the Host and calls every
// register function in one fixed order.
package api
