package sandbox

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/console"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// registerConsole mounts the console (package console) under
// /_sandbox/console/: its page and assets need no world; its reads are
// control calls, so they reach the caller's world as every control call
// does. Its feed learns of changes from the call observers and from the
// world's own notifications (callback deliveries, jobs).
func registerConsole(r *registry) {
	feed := console.NewFeed()
	reader := console.Reader{Catalog: r.catalog}

	r.controlPublic(http.MethodGet, "/openapi.yaml", func(*call) (any, error) {
		return consoleAsset(console.ControlPlaneDescription()), nil
	})
	r.controlPublic(http.MethodGet, "/console", consolePage(""))
	r.controlPublic(http.MethodGet, "/console/", consolePage(""))
	r.controlPublic(http.MethodGet, "/console/{asset}", func(c *call) (any, error) {
		return consoleAsset(console.Page(c.param("asset"))), nil
	})
	r.controlPublic(http.MethodGet, "/console/vendor/pdfjs/{asset}", func(c *call) (any, error) {
		return consoleAsset(console.Page("vendor/pdfjs/" + c.param("asset"))), nil
	})

	read := func(fn func(c *call, tx *state.Txn) (any, error)) handler {
		return func(c *call) (any, error) {
			v, err := fn(c, c.read())
			if err != nil {
				return nil, consoleError(err)
			}
			return v, nil
		}
	}
	r.control(http.MethodGet, "/console/api/changes", func(c *call) (any, error) {
		since, err := strconv.ParseUint(c.r.URL.Query().Get("since"), 10, 64)
		if err != nil && c.r.URL.Query().Has("since") {
			return nil, apierr.Badf("since", "since is the version a previous answer gave")
		}
		if !c.r.URL.Query().Has("since") {
			return map[string]any{"version": feed.Version(c.w.ID), "world_id": c.w.ID}, nil
		}
		v, err := feed.Wait(c.r.Context(), c.w.ID, since, c.w.Stopped())
		if err != nil {
			return nil, apierr.Badf("", "the console left before the world changed")
		}
		return map[string]any{"version": v, "world_id": c.w.ID}, nil
	})
	r.control(http.MethodGet, "/console/api/counts", read(func(c *call, tx *state.Txn) (any, error) {
		counts, err := reader.Counts(tx)
		return map[string]any{"counts": counts}, err
	}))
	r.control(http.MethodGet, "/console/api/signature_requests", read(func(c *call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		q := c.r.URL.Query()
		return reader.Requests(tx, q.Get("q"), q.Get("cursor"), limit)
	}))
	r.control(http.MethodGet, "/console/api/signature_requests/{id}", read(func(c *call, tx *state.Txn) (any, error) {
		return reader.Request(tx, c.param("id"))
	}))
	r.control(http.MethodGet, "/console/api/signature_requests/{id}/documents/{index}", read(func(c *call, tx *state.Txn) (any, error) {
		data, name, err := reader.Document(tx, c.param("id"), c.param("index"))
		if err != nil {
			return nil, err
		}
		return fileDownload(data, "application/pdf", name, true), nil
	}))
	r.control(http.MethodGet, "/console/api/emails", read(func(c *call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		q := c.r.URL.Query()
		return reader.Emails(tx, q.Get("signature_request_id"), q.Get("cursor"), limit)
	}))
	r.control(http.MethodGet, "/console/api/emails/{id}", read(func(c *call, tx *state.Txn) (any, error) {
		return reader.Email(tx, c.param("id"))
	}))
	r.control(http.MethodGet, "/console/api/callbacks", read(func(c *call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		q := c.r.URL.Query()
		return reader.Callbacks(tx, q.Get("object_id"), q.Get("cursor"), limit)
	}))
	r.control(http.MethodGet, "/console/api/callbacks/{id}", read(func(c *call, tx *state.Txn) (any, error) {
		return reader.Callback(tx, c.param("id"))
	}))
	r.control(http.MethodGet, "/console/api/oauth_tokens", read(func(c *call, tx *state.Txn) (any, error) {
		tokens, err := reader.OAuthTokens(tx)
		return map[string]any{"items": tokens}, err
	}))
	r.control(http.MethodGet, "/console/api/objects/{kind}", read(func(c *call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		return reader.Objects(tx, c.param("kind"), c.r.URL.Query().Get("cursor"), limit)
	}))
	r.control(http.MethodGet, "/console/api/objects/{kind}/{id}", read(func(c *call, tx *state.Txn) (any, error) {
		return reader.Object(tx, c.param("kind"), c.param("id"))
	}))

	// Control calls that act (clock, signers, reset, scenarios...) change
	// the world; API calls show up through the world's own notifications
	// below (every change worth showing emits an event or schedules a job).
	// No hook on the API's path: the console adds nothing to an API call.
	r.afterControlHooks = append(r.afterControlHooks, func(c *call, _ any, err error) {
		if err == nil && c.w != nil && c.r.Method != http.MethodGet && c.r.Method != http.MethodHead {
			feed.Changed(c.w.ID)
		}
	})
	r.onWorldStart(func(_ *Sandbox, w *world.World) {
		changed := func() { feed.Changed(w.ID) }
		w.On(state.TopicEvents, changed)
		w.On(state.TopicJobs, changed)
	})
}

func consolePage(name string) handler {
	return func(*call) (any, error) { return consoleAsset(console.Page(name)), nil }
}

func consoleAsset(a console.Asset) *rawResponse {
	return &rawResponse{status: a.Status, contentType: a.ContentType, header: console.SecurityHeaders(), body: a.Body}
}

func consoleLimit(c *call) (int, error) {
	raw := c.r.URL.Query().Get("limit")
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > catalog.MaxLimit {
		return 0, apierr.Badf("limit", "limit is a page size from 1 to %d", catalog.MaxLimit)
	}
	return n, nil
}

// consoleError turns a console read's failure into the control plane's
// answers: unknown kinds and ids are 404, a foreign cursor is 400.
func consoleError(err error) error {
	switch {
	case errors.Is(err, state.ErrNotFound):
		return apierr.NotFoundf("Not found in this world.")
	case errors.Is(err, console.ErrNoDocument):
		return apierr.NotFoundf("The request has no such document.")
	case errors.Is(err, catalog.ErrUnknownKind):
		return apierr.NotFoundf("The console knows no such kind of object.")
	case errors.Is(err, console.ErrBadCursor):
		return apierr.Badf("cursor", "%v", err)
	}
	return err
}
