package recording

// Control plane of recording: start recording the caller's world, see how
// far it got, and stop it, which answers the recorded scenario document
// (JSON; YAML with ?format=yaml or an Accept header asking for YAML).

import (
	"net/http"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/scenario"
)

// RegisterControl adds /_sandbox/record: start, status, stop.
func RegisterControl(r *api.Registry) {
	r.Control(http.MethodPost, "/record/start", controlRecordStart)
	r.Control(http.MethodGet, "/record", controlRecordStatus)
	r.ControlNoBody(http.MethodPost, "/record/stop", controlRecordStop)
}

type recordStartRequest struct {
	// Name is the recorded scenario's name (default "recording").
	Name string `json:"name"`
	// KeepCredentials writes the world's credentials into the recording
	// instead of placeholders.
	KeepCredentials bool `json:"keep_credentials"`
}

type recordStatus struct {
	Recording bool   `json:"recording"`
	Calls     int    `json:"calls"`
	World     string `json:"world_id"`
	// Error is a problem writing the recording's file, if any.
	Error string `json:"error,omitempty"`
}

func controlRecordStart(c *api.Call) (any, error) {
	var req recordStartRequest
	if err := c.BindStrict(&req); err != nil {
		return nil, err
	}
	name := req.Name
	if name == "" {
		name = "recording"
	}
	if recordingName(name) != name {
		return nil, apierr.Badf("name", "name %q must be 1-64 letters, digits, dots, dashes or underscores", name)
	}
	if err := startRecording(c.World, name, c.Request.Host, "", req.KeepCredentials); err != nil {
		return nil, apierr.Conflictf("%s", err.Error())
	}
	return api.WithStatus{Status: http.StatusCreated, Value: recordStatus{Recording: true, World: c.World.ID}}, nil
}

func controlRecordStatus(c *api.Call) (any, error) {
	wr := recorderOf(c.World)
	st := recordStatus{World: c.World.ID}
	if rec := wr.active(); rec != nil {
		st.Recording, st.Calls = true, rec.Calls()
	}
	wr.mu.Lock()
	if wr.err != nil {
		st.Error = wr.err.Error()
	}
	wr.mu.Unlock()
	return st, nil
}

func controlRecordStop(c *api.Call) (any, error) {
	// The format is checked first: a refused stop leaves the recording
	// going, so its calls are not lost.
	format := "json"
	if f := c.Request.URL.Query().Get("format"); f == "yaml" || strings.Contains(c.Request.Header.Get("Accept"), "yaml") {
		format = "yaml"
	} else if f != "" && f != "json" {
		return nil, apierr.Badf("format", "format is json or yaml")
	}
	doc, err := stopRecording(c.World)
	if err != nil {
		return nil, apierr.Conflictf("%s", err.Error())
	}
	b, err := scenario.Marshal(doc, format)
	if err != nil {
		return nil, err
	}
	ct := "application/json"
	if format == "yaml" {
		ct = "application/yaml"
	}
	return &api.RawResponse{Status: http.StatusOK, ContentType: ct, Body: b}, nil
}
