package api

// Version is the sandbox's version: the health check answers it and
// callbacks send it in their User-Agent. The facade offers it as
// sandbox.Version.
var Version = "0.1.0-dev"
