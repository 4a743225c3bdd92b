package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/legacy"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// handler is the shape of every operation: it decodes, validates, changes the
// world in one transaction and returns a value for the response adapter (or
// an error, usually an *apierr.Error). Handlers never write to the
// ResponseWriter themselves.
type handler func(c *call) (any, error)

// call is one API request on its way through the sandbox.
type call struct {
	s  *host
	w  *world.World
	r  *http.Request
	rt *route
	// account is the caller (nil for operations without credentials).
	account *state.Account
	// token is the OAuth token the call was made with (nil for API keys).
	token *state.OAuthToken
	// apiKey is the API key the call was made with ("" for tokens).
	apiKey   string
	vars     map[string]string
	body     *wire.Body
	bodyErr  error
	warnings []warning
	// rate is what the rate-limit headers of a 2xx answer show.
	rate world.RateStatus
	// strict makes bind refuse unknown parameters (control calls; API
	// operations and pages read leniently, as the real API does).
	strict bool
	// cfg is the caller's world configuration once cfgRead (see config).
	cfg     state.Config
	cfgRead bool
}

// warning is one entry of the official warnings array.
type warning struct {
	WarningMsg  string `json:"warning_msg"`
	WarningName string `json:"warning_name"`
}

// warn adds a warning to the response (names from the official list).
func (c *call) warn(name, msg string) {
	c.warnings = append(c.warnings, warning{WarningMsg: msg, WarningName: name})
}

// operationID is the official operationId of the call ("" for control calls).
func (c *call) operationID() string {
	if c == nil || c.rt == nil {
		return ""
	}
	return c.rt.operationID
}

// param is a path parameter.
func (c *call) param(name string) string {
	if c.vars == nil {
		c.vars = mux.Vars(c.r)
	}
	return c.vars[name]
}

// config is the configuration of the caller's world, read once per call:
// the rate limit, the body limit and handlers outside a transaction all
// need it, and each read is a lookup in the world's database.
func (c *call) config() state.Config {
	if !c.cfgRead {
		c.cfg, c.cfgRead = c.w.Config(), true
	}
	return c.cfg
}

// readBody decodes the request body once; an API operation's older
// parameter forms become the current ones here (legacy.Normalize).
func (c *call) readBody() (*wire.Body, error) {
	if c.body == nil && c.bodyErr == nil {
		lim := wire.DefaultLimits
		if c.w != nil {
			if m := c.config().MaxFileBytes; m > 0 && m*2 > lim.MaxBodyBytes {
				lim.MaxBodyBytes = m * 2
			}
		}
		if c.rt == nil {
			c.jsonFromCurl()
		}
		c.body, c.bodyErr = wire.ReadBody(c.r, lim)
		if c.bodyErr == nil && c.rt != nil {
			c.bodyErr = legacy.Normalize(c.rt.operationID, c.body)
		}
	}
	return c.body, c.bodyErr
}

// jsonFromCurl lets control calls take `curl -d '{...}'`: curl labels such a
// body application/x-www-form-urlencoded, but a body that is a JSON object is
// meant as JSON. API operations keep the real API's strict reading.
func (c *call) jsonFromCurl() {
	ct := c.r.Header.Get("Content-Type")
	if c.r.Body == nil || !isFormType(ct) {
		return
	}
	orig := c.r.Body
	raw, err := io.ReadAll(io.LimitReader(orig, maxControlFormBytes+1))
	c.r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(raw), orig))
	if err == nil && controlBodyIsJSON(c.r.URL.Path, ct, raw) {
		c.r.Header.Set("Content-Type", "application/json")
	}
}

// controlBodyIsJSON is the rule jsonFromCurl applies, also for readers of
// control-call bodies outside the sandbox's own handlers (the recording
// proxy): a urlencoded body to a control path that is a JSON object is JSON.
func controlBodyIsJSON(path, contentType string, body []byte) bool {
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

// bind decodes the request body into dst (a pointer to a request struct);
// for control calls it is bindStrict.
func (c *call) bind(dst any) error {
	if c.strict {
		return c.bindStrict(dst)
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	return wire.Decode(b, dst)
}

// refuseParameters is the strict reading of a call that takes no
// parameters: an empty body (or {}) is fine, any parameter is refused,
// naming it, before anything happens.
func (c *call) refuseParameters() error {
	b, err := c.readBody()
	if err != nil {
		return err
	}
	return wire.CheckKnown(b, &struct{}{})
}

// bindStrict is bind for control-plane requests: parameters dst does not
// name are refused, so that a typo in a test setup fails loudly instead of
// falling back to a default. (API operations ignore unknown parameters, as
// the real API does.)
func (c *call) bindStrict(dst any) error {
	b, err := c.readBody()
	if err != nil {
		return err
	}
	if err := wire.CheckKnown(b, dst); err != nil {
		return err
	}
	return wire.Decode(b, dst)
}

// query decodes the query string into dst.
func (c *call) query(dst any) error {
	tree, err := wire.QueryTree(c.r.URL.Query(), wire.DefaultLimits)
	if err != nil {
		return err
	}
	return wire.DecodeTree(tree, dst)
}

// has reports whether the body carried a top-level parameter.
func (c *call) has(name string) bool {
	b, err := c.readBody()
	return err == nil && b.Has(name)
}

// baseURL is the public scheme and host of the sandbox as the caller sees
// it, for the URLs the sandbox hands out.
func (c *call) baseURL() string { return c.s.publicBase(c.r) }

// worldURL builds a URL served by the sandbox for this world
// (sign pages, file downloads, edit pages).
func (c *call) worldURL(path string) string {
	return c.baseURL() + "/_sandbox/w/" + c.w.ID + "/" + strings.TrimPrefix(path, "/")
}

// update runs fn in one write transaction of the caller's world.
func (c *call) update(fn func(tx *state.Txn) error) error { return c.w.Store.Update(fn) }

// read returns a read transaction of the caller's world.
func (c *call) read() *state.Txn { return c.w.Store.Read() }

// errNotImplemented answers operations the sandbox routes but does not
// implement, in the official error shape.
func errNotImplemented(c *call) (any, error) {
	return nil, &apierr.Error{Name: apierr.MethodNotSupported,
		Msg: "signsandbox does not implement " + c.operationID() + " yet"}
}
