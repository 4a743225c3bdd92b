package apiapp

// The read side of white labeling: what the pages of a request, draft or
// template made through an app show of its white labeling (its colours and
// logo), looked up when a page is drawn, so that an app's update shows on
// the next page and each client_id shows its own.

import (
	"net/http"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/signpage"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// LogoPath is where a page serves its app's logo, below the page's own
// path (the page's link is the credential that reaches it).
const LogoPath = "/logo"

// PageBrand is the white labeling of app clientID as a page at pagePath
// shows it: its colours (customized, inherited or default) once white
// labeling was set, and its logo; nil when there is no such app or it has
// neither.
func PageBrand(tx *state.Txn, clientID, pagePath string) *signpage.Brand {
	if clientID == "" {
		return nil
	}
	app, err := state.Get[model.APIApp](tx, state.TableAPIApps, clientID)
	if err != nil || (!app.WhiteLabelingSet && app.CustomLogoBlobID == "") {
		return nil
	}
	b := &signpage.Brand{LogoAlt: app.Name}
	if app.WhiteLabelingSet {
		b.Colors = effectiveWhiteLabels(app.WhiteLabelingOptions)
	}
	if app.CustomLogoBlobID != "" {
		b.LogoURL = pagePath + LogoPath
	}
	return b
}

// PageLogo returns app clientID's logo for a page (a 404 when it has
// none), with its detected image type.
func PageLogo(tx *state.Txn, clientID string) (any, error) {
	h := signpage.AssetHeaders()
	notFound := &api.RawResponse{Status: http.StatusNotFound, ContentType: "text/plain; charset=utf-8", Header: h, Body: []byte("no logo\n")}
	if clientID == "" {
		return notFound, nil
	}
	app, err := state.Get[model.APIApp](tx, state.TableAPIApps, clientID)
	if err != nil || app.CustomLogoBlobID == "" {
		return notFound, nil
	}
	data, err := state.GetBlob(tx, app.CustomLogoBlobID)
	if err != nil {
		return notFound, nil
	}
	return &api.RawResponse{Status: http.StatusOK, ContentType: http.DetectContentType(data), Header: h, Body: data}, nil
}
