package sandbox

import "github.com/signsandbox/signsandbox/sandbox/internal/api"

// APIPrefix is the path of the API's base address (https://api.hellosign.com/v3).
const APIPrefix = api.APIPrefix

// ControlPrefix is the path under which the control plane lives.
const ControlPrefix = api.ControlPrefix

// Operation describes one operation of the route table (see Operations).
type Operation = api.Operation

// Version is the sandbox's version, printed by `signsandbox version` and
// sent in the User-Agent of callbacks (api.Version).
var Version = api.Version
