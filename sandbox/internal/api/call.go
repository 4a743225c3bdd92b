package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/legacy"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// Handler is the shape of every operation: it decodes, validates, changes the
// world in one transaction and returns a value for the response adapter (or
// an error, usually an *apierr.Error). Handlers never write to the
// ResponseWriter themselves.
type Handler func(c *Call) (any, error)

// Call is one API request on its way through the sandbox.
type Call struct {
	Host    *Host
	World   *world.World
	Request *http.Request
	Route   *Route
	// Account is the caller (nil for operations without credentials).
	Account *model.Account
	// token is the OAuth token the call was made with (nil for API keys).
	token *model.OAuthToken
	// apiKey is the API key the call was made with ("" for tokens).
	apiKey   string
	vars     map[string]string
	Body     *wire.Body
	BodyErr  error
	Warnings []Warning
	// Rate is what the rate-limit headers of a 2xx answer show.
	Rate world.RateStatus
	// strict makes bind refuse unknown parameters (control calls; API
	// operations and pages read leniently, as the real API does).
	strict bool
	// cfg is the caller's world configuration once cfgRead (see config).
	cfg     model.Config
	cfgRead bool
	Stay    world.Stay // in World; a handler that finds its world (pages, OAuth) enters it
}

// EnterWorld makes w the call's world for a handler that finds its world
// itself (pages, OAuth, invitations): the call then runs in it as a call
// authenticated for it does, at its instant when its time is pinned.
func (c *Call) EnterWorld(w *world.World) {
	c.World = w
	c.Stay.Enter(w)
}

// Warning is one entry of the official warnings array.
type Warning struct {
	WarningMsg  string `json:"warning_msg"`
	WarningName string `json:"warning_name"`
}

// Warn adds a warning to the response (names from the official list).
func (c *Call) Warn(name, msg string) {
	c.Warnings = append(c.Warnings, Warning{WarningMsg: msg, WarningName: name})
}

// OperationID is the official operationId of the call ("" for control calls).
func (c *Call) OperationID() string {
	if c == nil || c.Route == nil {
		return ""
	}
	return c.Route.OperationID
}

// Param is a path parameter.
func (c *Call) Param(name string) string {
	if c.vars == nil {
		c.vars = mux.Vars(c.Request)
	}
	return c.vars[name]
}

// Config is the configuration of the caller's world, read once per call:
// the rate limit, the body limit and handlers outside a transaction all
// need it, and each read is a lookup in the world's database.
func (c *Call) Config() model.Config {
	if !c.cfgRead {
		c.cfg, c.cfgRead = c.World.Config(), true
	}
	return c.cfg
}

// ReadBody decodes the request body once; an API operation's older
// parameter forms become the current ones here (legacy.Normalize), then
// PHP's arrays are read (wire.Body.ReadPHPArrays).
func (c *Call) ReadBody() (*wire.Body, error) {
	if c.Body == nil && c.BodyErr == nil {
		lim := wire.DefaultLimits
		if c.World != nil {
			if m := c.Config().MaxFileBytes; m > 0 && m*2 > lim.MaxBodyBytes {
				lim.MaxBodyBytes = m * 2
			}
			lim.Uploads = uploadsOf(c.World)
		}
		if c.Route == nil {
			c.jsonFromCurl()
		}
		c.Body, c.BodyErr = wire.ReadBody(c.Request, lim)
		if c.BodyErr == nil && c.Route != nil {
			if c.BodyErr = legacy.Normalize(c.Route.OperationID, c.Body); c.BodyErr == nil {
				c.BodyErr = c.Body.ReadPHPArrays()
			}
		}
	}
	return c.Body, c.BodyErr
}

// uploadsOf is w's ring of recent uploads (see wire.UploadRing): an upload
// equal to a recent one of the same world shares its bytes.
func uploadsOf(w *world.World) *wire.UploadRing {
	return world.Ext(w, "wire.uploads", func() *wire.UploadRing { return new(wire.UploadRing) })
}

// jsonFromCurl lets control calls take `curl -d '{...}'`: curl labels such a
// body application/x-www-form-urlencoded, but a body that is a JSON object is
// meant as JSON. API operations keep the real API's strict reading.
func (c *Call) jsonFromCurl() {
	ct := c.Request.Header.Get("Content-Type")
	if c.Request.Body == nil || !isFormType(ct) {
		return
	}
	orig := c.Request.Body
	raw, err := io.ReadAll(io.LimitReader(orig, maxControlFormBytes+1))
	c.Request.Body = io.NopCloser(io.MultiReader(bytes.NewReader(raw), orig))
	if err == nil && ControlBodyIsJSON(c.Request.URL.Path, ct, raw) {
		c.Request.Header.Set("Content-Type", "application/json")
	}
}

// ControlBodyIsJSON is the rule jsonFromCurl applies, also for readers of
// control-call bodies outside the sandbox's own handlers (the recording
// proxy): a urlencoded body to a control path that is a JSON object is JSON.
func ControlBodyIsJSON(path, contentType string, body []byte) bool {
	if !strings.HasPrefix(path, ControlPrefix+"/") || !isFormType(contentType) || len(body) > maxControlFormBytes {
		return false
	}
	t := bytes.TrimSpace(body)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}

func isFormType(contentType string) bool {
	return strings.HasPrefix(contentType, "application/x-www-form-urlencoded")
}

// maxControlFormBytes bounds a control call's form body read by jsonFromCurl.
const maxControlFormBytes = 1 << 20

// Bind decodes the request body into dst (a pointer to a request struct);
// for control calls it is BindStrict.
func (c *Call) Bind(dst any) error {
	if c.strict {
		return c.BindStrict(dst)
	}
	b, err := c.ReadBody()
	if err != nil {
		return err
	}
	return wire.Decode(b, dst)
}

// refuseParameters is the strict reading of a call that takes no
// parameters: an empty body (or {}) is fine, any parameter is refused,
// naming it, before anything happens.
func (c *Call) refuseParameters() error {
	b, err := c.ReadBody()
	if err != nil {
		return err
	}
	return wire.CheckKnown(b, &struct{}{})
}

// BindStrict is bind for control-plane requests: parameters dst does not
// name are refused, so that a typo in a test setup fails loudly instead of
// falling back to a default. (API operations ignore unknown parameters, as
// the real API does.)
func (c *Call) BindStrict(dst any) error {
	b, err := c.ReadBody()
	if err != nil {
		return err
	}
	if err := wire.CheckKnown(b, dst); err != nil {
		return err
	}
	return wire.Decode(b, dst)
}

// Query decodes the query string into dst.
func (c *Call) Query(dst any) error {
	tree, err := wire.QueryTree(c.Request.URL.Query(), wire.DefaultLimits)
	if err != nil {
		return err
	}
	return wire.DecodeTree(tree, dst)
}

// Has reports whether the body carried a top-level parameter.
func (c *Call) Has(name string) bool {
	b, err := c.ReadBody()
	return err == nil && b.Has(name)
}

// BaseURL is the public scheme and host of the sandbox as the caller sees
// it, for the URLs the sandbox hands out.
func (c *Call) BaseURL() string { return c.Host.PublicBase(c.Request) }

// WorldURL builds a URL served by the sandbox for this world
// (sign pages, file downloads, edit pages).
func (c *Call) WorldURL(path string) string {
	return c.BaseURL() + "/_sandbox/w/" + c.World.ID + "/" + strings.TrimPrefix(path, "/")
}

// Update runs fn in one write transaction of the caller's world.
func (c *Call) Update(fn func(tx *state.Txn) error) error { return c.World.Store.Update(fn) }

// Read returns a read transaction of the caller's world.
func (c *Call) Read() *state.Txn { return c.World.Store.Read() }

// errNotImplemented answers operations the sandbox routes but does not
// implement, in the official error shape.
func errNotImplemented(c *Call) (any, error) {
	return nil, &apierr.Error{Name: apierr.MethodNotSupported,
		Msg: "signsandbox does not implement " + c.OperationID() + " yet"}
}
