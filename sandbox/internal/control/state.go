package control

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// RegisterState adds the export and import of a whole world (GET and PUT
// /_sandbox/state).
func RegisterState(r *api.Registry) {
	r.Control(http.MethodGet, "/state", controlExportState)
	r.Control(http.MethodPut, "/state", controlImportState)
}

func controlExportState(c *api.Call) (any, error) { return world.Export(c.World) }

// controlImportState replaces the caller's world with an exported state.
// Nothing changes unless the whole document imports.
func controlImportState(c *api.Call) (any, error) {
	raw, err := readRawJSON(c)
	if err != nil {
		return nil, err
	}
	if err := wire.ScanJSON(raw, state.MaxImportDepth, 0); err != nil {
		return nil, apierr.Badf("", "state is not a state document: %v", err)
	}
	var top map[string]skipValue
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, apierr.Badf("", "state is not valid JSON: %v", err)
	}
	known := &wire.Body{Tree: map[string]any{}}
	for k := range top {
		known.Tree[k] = nil
	}
	if err := wire.CheckKnown(known, &world.State{}); err != nil {
		return nil, err
	}
	var ws world.State
	if err := json.Unmarshal(raw, &ws); err != nil {
		return nil, apierr.Badf("", "state is not valid JSON: %v", err)
	}
	if ws.Format != world.StateFormat {
		return nil, apierr.Badf("format", "format must be %q, not %q", world.StateFormat, ws.Format)
	}
	now, err := time.Parse(time.RFC3339Nano, ws.Clock.Now)
	if err != nil {
		return nil, apierr.Badf("clock[now]", "clock.now must be an RFC 3339 instant: %v", err)
	}
	db, err := state.ImportChecked(ws.Tables, c.World.KnownJob)
	if ie, ok := err.(*state.ImportError); ok {
		return nil, apierr.Badf(ie.Path, "state does not import: %s", ie.Msg)
	} else if err != nil {
		return nil, apierr.Badf("tables", "state does not import: %v", err)
	}
	if err := checkKeysFree(c.Host, c.World, db); err != nil {
		return nil, err
	}
	if err := c.World.Import(db, ws.Clock.Mode, now); err != nil {
		return nil, apierr.Badf("clock", "%v", err)
	}
	c.Host.AfterWorldReplaced(c.World)
	return WorldInfoOf(c.Host, c.World), nil
}

// skipValue is a JSON value that is not kept: the top-level keys of a
// state document are checked before its values are decoded, without a copy
// of each value.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// maxStateBytes bounds an imported state document.
const maxStateBytes = 1 << 30

// readRawJSON returns the request body as it came (state documents nest
// deeper than API requests may).
func readRawJSON(c *api.Call) ([]byte, error) {
	raw, err := wire.ReadRaw(c.Request, maxStateBytes)
	if err != nil {
		return nil, apierr.Badf("", "could not read the state document: %v", err)
	}
	return raw, nil
}
