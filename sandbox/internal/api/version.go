package api

import "github.com/signsandbox/signsandbox/sandbox/internal/buildinfo"

// Version is the sandbox's version (buildinfo): the health check answers
// it and callbacks send it in their User-Agent. The facade offers it as
// sandbox.Version.
var Version = buildinfo.Current().Version
