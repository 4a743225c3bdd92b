// Package jsonenc encodes answers as json.Marshal would, into pooled
// buffers that outlive the request, so that an answer is not copied out of
// Marshal's own buffer into a new slice on every call. Hot answers write
// themselves (Appender) with its writers, which give json.Marshal's bytes
// without reflection or intermediate values. It knows nothing of calls or
// responses.
package jsonenc
