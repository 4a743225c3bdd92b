package sandbox

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/buildinfo"
	"github.com/signsandbox/signsandbox/sandbox/internal/control"
	"github.com/signsandbox/signsandbox/sandbox/internal/recording"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// APIPrefix is the path of the API's base address (https://api.hellosign.com/v3).
const APIPrefix = api.APIPrefix

// ControlPrefix is the path under which the control plane lives.
const ControlPrefix = api.ControlPrefix

// Operation describes one operation of the route table (see Operations).
type Operation = api.Operation

// Version is the sandbox's version, printed by `signsandbox version` and
// the start-up banner, answered by /_sandbox/health and sent in the
// User-Agent of callbacks (api.Version): the version a release build
// stamped, or else this module's version as Go recorded it ("1.2.3" after
// `go install ...@v1.2.3`, or in a program that requires v1.2.3), or "dev".
var Version = api.Version

// BuildInfo describes a build: version, commit, Go version, platform.
type BuildInfo = buildinfo.Info

// Build describes the running build (`signsandbox version`).
func Build() BuildInfo { return buildinfo.Current() }

// CallbackFault is what a scenario rule makes of a callback delivery
// attempt.
type CallbackFault = api.CallbackFault

// The faults a rule can make of an attempt.
const (
	FaultNone         = api.FaultNone
	FaultUnreachable  = api.FaultUnreachable
	FaultRejectAnswer = api.FaultRejectAnswer
)

// CallbackAttempt describes an attempt about to be made, for a fault point.
type CallbackAttempt = api.CallbackAttempt

// RecordingProxy is an http.Handler that forwards to an upstream and
// records each exchange (`signsandbox record`).
type RecordingProxy = recording.Proxy

// NewRecordingProxy records the traffic it forwards to upstream into the
// file out (YAML, or JSON when out ends in .json), rewritten after every
// exchange. client defaults to one with a generous timeout.
func NewRecordingProxy(upstream, out string, client *http.Client) (*RecordingProxy, error) {
	return recording.NewProxy(upstream, out, client)
}

// StateFormat names the export format; import refuses other formats.
const StateFormat = world.StateFormat

// WorldState is a whole world as JSON: its clock and every table.
type WorldState = world.State

// StateClock is the clock part of an export.
type StateClock = world.StateClock

// WorldInfo describes a world and the credentials of its first account, as
// POST /_sandbox/worlds and GET /_sandbox/world answer it.
type WorldInfo = control.WorldInfo
