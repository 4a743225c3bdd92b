package sandbox

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/console"
	"github.com/signsandbox/signsandbox/sandbox/internal/control"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/mail"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/sigreq"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/world"
)

// registerConsole mounts the console (package console) under
// /_sandbox/console/: its page and assets need no world; its reads are
// control calls, so they reach the caller's world as every control call
// does. Its feed learns of changes from the call observers and from the
// world's own notifications (callback deliveries, jobs).
func registerConsole(r *api.Registry) {
	feed := console.NewFeed()
	reader := console.Reader{Catalog: r.Catalog, SignerActions: consoleSignerActions,
		Search: sigreq.ConsoleSearch}

	r.ControlPublic(http.MethodGet, "/openapi.yaml", func(*api.Call) (any, error) {
		return consoleAsset(console.ControlPlaneDescription()), nil
	})
	r.ControlPublic(http.MethodGet, "/console", consolePage(""))
	r.ControlPublic(http.MethodGet, "/console/", consolePage(""))
	r.ControlPublic(http.MethodGet, "/console/{asset}", func(c *api.Call) (any, error) {
		return consoleAsset(console.Page(c.Param("asset"))), nil
	})
	r.ControlPublic(http.MethodGet, "/console/vendor/pdfjs/{asset}", func(c *api.Call) (any, error) {
		return consoleAsset(console.Page("vendor/pdfjs/" + c.Param("asset"))), nil
	})

	read := func(fn func(c *api.Call, tx *state.Txn) (any, error)) api.Handler {
		return func(c *api.Call) (any, error) {
			v, err := fn(c, c.Read())
			if err != nil {
				return nil, consoleError(err)
			}
			return v, nil
		}
	}
	r.Control(http.MethodGet, "/console/api/changes", func(c *api.Call) (any, error) {
		since, err := strconv.ParseUint(c.Request.URL.Query().Get("since"), 10, 64)
		if err != nil && c.Request.URL.Query().Has("since") {
			return nil, apierr.Badf("since", "since is the version a previous answer gave")
		}
		if !c.Request.URL.Query().Has("since") {
			return map[string]any{"version": feed.Version(c.World.ID), "world_id": c.World.ID}, nil
		}
		v, err := feed.Wait(c.Request.Context(), c.World.ID, since, c.World.Stopped())
		if err != nil {
			return nil, apierr.Badf("", "the console left before the world changed")
		}
		return map[string]any{"version": v, "world_id": c.World.ID}, nil
	})
	r.Control(http.MethodGet, "/console/api/counts", read(func(c *api.Call, tx *state.Txn) (any, error) {
		counts, err := reader.Counts(tx)
		return map[string]any{"counts": counts}, err
	}))
	r.Control(http.MethodGet, "/console/api/signature_requests", read(func(c *api.Call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		q := c.Request.URL.Query()
		return reader.Requests(tx, q.Get("q"), c.ActingAccountID(), q.Get("cursor"), limit)
	}))
	r.Control(http.MethodGet, "/console/api/world_actions", func(c *api.Call) (any, error) {
		return map[string]any{"actions": []console.Action{console.ActionOf("advance", control.AdvanceRefusal(c.World))}}, nil
	})
	r.Control(http.MethodGet, "/console/api/signature_requests/{id}", read(func(c *api.Call, tx *state.Txn) (any, error) {
		return reader.Request(tx, c.Param("id"))
	}))
	r.Control(http.MethodGet, "/console/api/signature_requests/{id}/documents/{index}", read(func(c *api.Call, tx *state.Txn) (any, error) {
		data, name, err := reader.Document(tx, c.Param("id"), c.Param("index"))
		if err != nil {
			return nil, err
		}
		return document.FileDownload(data, "application/pdf", name, true), nil
	}))
	r.Control(http.MethodGet, "/console/api/emails", read(func(c *api.Call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		q := c.Request.URL.Query()
		page, err := reader.Emails(tx, q.Get("signature_request_id"), q.Get("q"), q.Get("cursor"), limit)
		if err != nil {
			return nil, err
		}
		items := make([]mail.Summary, 0, len(page.Items))
		for _, e := range page.Items {
			items = append(items, control.Summarize(c, e))
		}
		return console.PageOf[mail.Summary]{Items: items, Next: page.Next}, nil
	}))
	r.Control(http.MethodGet, "/console/api/emails/{id}", read(func(c *api.Call, tx *state.Txn) (any, error) {
		e, err := reader.Email(tx, c.Param("id"))
		if err != nil {
			return nil, err
		}
		return mail.Detail{Summary: control.Summarize(c, e), Headers: mail.Headers(e)}, nil
	}))
	r.Control(http.MethodGet, "/console/api/callbacks", read(func(c *api.Call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		q := c.Request.URL.Query()
		return reader.Callbacks(tx, q.Get("object_id"), q.Get("cursor"), limit)
	}))
	r.Control(http.MethodGet, "/console/api/callbacks/{id}", read(func(c *api.Call, tx *state.Txn) (any, error) {
		return reader.Callback(tx, c.Param("id"))
	}))
	r.Control(http.MethodGet, "/console/api/oauth_tokens", read(func(c *api.Call, tx *state.Txn) (any, error) {
		tokens, err := reader.OAuthTokens(tx)
		return map[string]any{"items": tokens}, err
	}))
	r.Control(http.MethodGet, "/console/api/objects/{kind}", read(func(c *api.Call, tx *state.Txn) (any, error) {
		limit, err := consoleLimit(c)
		if err != nil {
			return nil, err
		}
		return reader.Objects(tx, c.Param("kind"), c.Request.URL.Query().Get("cursor"), limit)
	}))
	r.Control(http.MethodGet, "/console/api/objects/{kind}/{id}", read(func(c *api.Call, tx *state.Txn) (any, error) {
		return reader.Object(tx, c.Param("kind"), c.Param("id"))
	}))

	// Control calls that act (clock, signers, reset, scenarios...) change
	// the world; API calls show up through the world's own notifications
	// below (every change worth showing emits an event or schedules a job).
	// No hook on the API's path: the console adds nothing to an API call.
	r.AfterControlHooks = append(r.AfterControlHooks, func(c *api.Call, _ any, err error) {
		if err == nil && c.World != nil && c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
			feed.Changed(c.World.ID)
		}
	})
	r.OnWorldStart(func(_ *api.Host, w *world.World) {
		changed := func() { feed.Changed(w.ID) }
		w.On(state.TopicEvents, changed)
		w.On(state.TopicJobs, changed)
		w.On(state.TopicEmails, changed)
		w.On(state.TopicEmailDelivery, changed)
	})
}

// consoleSignerActions is sigreq's verdict on each signer action, as the
// console shows it.
func consoleSignerActions(req *model.SignatureRequest, sigID string, now time.Time) (out []console.Action) {
	for _, a := range sigreq.SignerActions(req, sigID, now) {
		out = append(out, console.ActionOf(a.Action, a.Refusal))
	}
	return out
}

func consolePage(name string) api.Handler {
	return func(*api.Call) (any, error) { return consoleAsset(console.Page(name)), nil }
}

func consoleAsset(a console.Asset) *api.RawResponse {
	return &api.RawResponse{Status: a.Status, ContentType: a.ContentType, Header: console.SecurityHeaders(), Body: a.Body}
}

func consoleLimit(c *api.Call) (int, error) {
	raw := c.Request.URL.Query().Get("limit")
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
