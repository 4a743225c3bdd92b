// Package operations holds the table of the official API's operations:
// for each operationId its tag, method, path, and the credentials and
// OAuth scopes it accepts. It is data the request pipeline reads to build
// its router and check credentials; keeping it apart lets the table be
// read, and compared with the official description, without the pipeline.
package operations
