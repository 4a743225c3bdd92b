package apiapp

import (
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/callbacks"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/oauth"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// Register adds the API app operations (create, get, update, delete, list)
// to r.
func Register(r *api.Registry) {
	r.Handle("apiAppCreate", apiAppCreate)
	r.Handle("apiAppGet", apiAppGet)
	r.Handle("apiAppUpdate", apiAppUpdate)
	r.Handle("apiAppDelete", apiAppDelete)
	r.Handle("apiAppList", apiAppList)
}

const maxAppDomains = 10

// domainName accepts host names (optionally with a leading wildcard label),
// without scheme, port or path.
var domainName = regexp.MustCompile(`^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$`)

// logoTypes are the image types accepted as custom_logo_file.
var logoTypes = []string{"image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp"}

type apiAppOAuthParam struct {
	CallbackURL string   `json:"callback_url"`
	Scopes      []string `json:"scopes"`
}

type apiAppOptionsParam struct {
	CanInsertEverywhere bool `json:"can_insert_everywhere"`
}

// apiAppRequest is ApiAppCreateRequest and ApiAppUpdateRequest.
type apiAppRequest struct {
	Name          *string             `json:"name"`
	Domains       []string            `json:"domains"`
	CallbackURL   *string             `json:"callback_url"`
	OAuth         *apiAppOAuthParam   `json:"oauth"`
	Options       *apiAppOptionsParam `json:"options"`
	WhiteLabeling map[string]any      `json:"white_labeling_options"`
	CustomLogo    wire.File           `json:"custom_logo_file"`
}

// appFieldCleared reports whether the body gave field as "" or null: the way to clear
// an optional field on update.
func appFieldCleared(c *api.Call, field string) bool {
	b, err := c.ReadBody()
	if err != nil || !b.Has(field) {
		return false
	}
	v, ok := b.Tree[field]
	if !ok {
		return false
	}
	s, isString := v.(string)
	return v == nil || (isString && strings.TrimSpace(s) == "")
}

func checkDomains(domains []string) error {
	if len(domains) < 1 || len(domains) > maxAppDomains {
		return apierr.Badf("domains", "domains must list between 1 and %d domain names (got %d).", maxAppDomains, len(domains))
	}
	for i, d := range domains {
		if len(d) > 253 || !domainName.MatchString(d) {
			return apierr.Badf(apierr.IndexPath("domains", i), "Invalid domain name %q: give a host name such as example.com, without scheme, port or path.", d)
		}
	}
	return nil
}

func checkOAuthParam(o *apiAppOAuthParam) ([]string, error) {
	var scopes []string
	for i, s := range o.Scopes {
		if s == "" {
			continue
		}
		if !slices.Contains(oauth.Scopes, s) {
			return nil, apierr.Badf(apierr.IndexPath("oauth[scopes]", i), "Invalid OAuth scope %q: use %s.", s, strings.Join(oauth.Scopes, ", "))
		}
		if !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	switch {
	case o.CallbackURL == "" && len(scopes) == 0:
		return nil, apierr.Badf("oauth[callback_url]", "oauth needs callback_url and scopes.")
	case o.CallbackURL == "":
		return nil, apierr.Badf("oauth[callback_url]", "oauth[callback_url] is required when oauth[scopes] is given.")
	case len(scopes) == 0:
		return nil, apierr.Badf("oauth[scopes]", "oauth[scopes] is required when oauth[callback_url] is given.")
	}
	if err := param.CheckCallbackURL("oauth[callback_url]", o.CallbackURL); err != nil {
		return nil, err
	}
	return scopes, nil
}

// checkAppLogo refuses uploads that are not images, and custom_logo_file given
// as text (it must be a multipart file part).
func checkAppLogo(c *api.Call, f wire.File) error {
	if f.Field == "" {
		if b, err := c.ReadBody(); err == nil && b.Has("custom_logo_file") && !appFieldCleared(c, "custom_logo_file") {
			return apierr.Badf("custom_logo_file", "custom_logo_file must be uploaded as a file (multipart/form-data).")
		}
		return nil
	}
	if len(f.Data) == 0 {
		return apierr.Badf("custom_logo_file", "custom_logo_file is empty.")
	}
	if ct := http.DetectContentType(f.Data); !slices.Contains(logoTypes, ct) {
		return apierr.Badf("custom_logo_file", "custom_logo_file must be an image (PNG, JPEG, GIF, BMP or WebP), not %s.", ct)
	}
	return nil
}

// validate checks everything a create or update call can check before the
// transaction; create requires name and domains.
func (r *apiAppRequest) validate(c *api.Call, create bool) error {
	if create {
		if r.Name == nil || strings.TrimSpace(*r.Name) == "" {
			return apierr.Missing("name")
		}
		if !c.Has("domains") {
			return apierr.Missing("domains")
		}
	} else if r.Name != nil && strings.TrimSpace(*r.Name) == "" {
		return apierr.Badf("name", "name cannot be empty.")
	}
	if c.Has("domains") {
		if err := checkDomains(r.Domains); err != nil {
			return err
		}
	}
	if r.CallbackURL != nil && *r.CallbackURL != "" {
		if err := param.CheckCallbackURL("callback_url", *r.CallbackURL); err != nil {
			return err
		}
	}
	if r.OAuth != nil && !appFieldCleared(c, "oauth") {
		scopes, err := checkOAuthParam(r.OAuth)
		if err != nil {
			return err
		}
		r.OAuth.Scopes = scopes
	}
	return checkAppLogo(c, r.CustomLogo)
}

// apply writes the request's fields into app (a copy being built or
// changed): only given fields change, "" clears optional ones.
func (r *apiAppRequest) apply(c *api.Call, tx *state.Txn, app *model.APIApp) error {
	if r.Name != nil {
		app.Name = *r.Name
	}
	if c.Has("domains") {
		app.Domains = append([]string{}, r.Domains...)
	}
	if r.CallbackURL != nil {
		app.CallbackURL = *r.CallbackURL
	}
	switch {
	case appFieldCleared(c, "oauth"):
		app.OAuth = nil
	case r.OAuth != nil:
		o := &model.APIAppOAuth{CallbackURL: r.OAuth.CallbackURL, Scopes: r.OAuth.Scopes}
		if app.OAuth != nil {
			o.Secret, o.ChargesUsers = app.OAuth.Secret, app.OAuth.ChargesUsers
		} else {
			o.Secret = tx.NewSecret()[:32]
		}
		app.OAuth = o
	}
	switch {
	case appFieldCleared(c, "options"):
		app.CanInsertEverywhere = false
	case r.Options != nil:
		app.CanInsertEverywhere = r.Options.CanInsertEverywhere
	}
	switch {
	case appFieldCleared(c, "white_labeling_options"):
		app.WhiteLabelingSet, app.WhiteLabelingOptions = false, nil
	case r.WhiteLabeling != nil:
		wl, err := mergeWhiteLabels(app.WhiteLabelingOptions, r.WhiteLabeling)
		if err != nil {
			return err
		}
		app.WhiteLabelingSet, app.WhiteLabelingOptions = true, wl
	}
	switch {
	case r.CustomLogo.Field != "":
		id, err := state.PutBlob(tx, r.CustomLogo.Data)
		if err != nil {
			return err
		}
		app.CustomLogoBlobID = id
	case appFieldCleared(c, "custom_logo_file"):
		app.CustomLogoBlobID = ""
	}
	return nil
}

// apiAppCreate creates an app owned by the caller (201).
func apiAppCreate(c *api.Call) (any, error) {
	out, err := apiAppWrite(c, true, func(tx *state.Txn) (*model.APIApp, string, error) {
		return &model.APIApp{ClientID: tx.NewID()[:32], OwnerAccountID: c.Account.ID, CreatedAt: tx.Unix(), Seq: tx.Seq()}, "", nil
	})
	if err != nil {
		return nil, err
	}
	return api.WithStatus{Status: http.StatusCreated, Value: out}, nil
}

// apiAppWrite runs create and update: the body is bound and validated
// (every required field for create), base answers the app to change (a new
// one, or a copy of the caller's) with its callback_url before the call;
// the changed app is stored, the callbacks subsystem hears of a new
// callback_url, and the app is answered as GET shows it.
func apiAppWrite(c *api.Call, create bool, base func(tx *state.Txn) (*model.APIApp, string, error)) (apiAppGetResponse, error) {
	var out apiAppGetResponse
	var req apiAppRequest
	if err := c.Bind(&req); err != nil {
		return out, err
	}
	if err := req.validate(c, create); err != nil {
		return out, err
	}
	err := c.Update(func(tx *state.Txn) error {
		app, prevCallback, err := base(tx)
		if err != nil {
			return err
		}
		if err := req.apply(c, tx, app); err != nil {
			return err
		}
		if err := state.Put(tx, state.TableAPIApps, app); err != nil {
			return err
		}
		if app.CallbackURL != "" && app.CallbackURL != prevCallback {
			if err := callbacks.EmitTestApp(c.Host, tx, app); err != nil {
				return err
			}
		}
		out = apiAppGetResponse{APIApp: viewAPIApp(tx, app, c.Account.ID)}
		return nil
	})
	return out, err
}

// canSeeTeamApps reports whether viewer sees the apps of owner: themselves,
// or a teammate when the viewer is an Admin or Developer of the team.
func canSeeTeamApps(viewer, owner *model.Account) bool {
	if viewer.ID == owner.ID {
		return true
	}
	return viewer.TeamID != "" && viewer.TeamID == owner.TeamID && (viewer.RoleCode == "a" || viewer.RoleCode == "d")
}

// visibleApp finds an app the caller may see: 404 when unknown, 403 when it
// belongs to someone the caller cannot see the apps of; owner requires the
// caller to own it (update, delete).
func visibleApp(c *api.Call, tx *state.Txn, owner bool) (*model.APIApp, error) {
	app, err := state.Get[model.APIApp](tx, state.TableAPIApps, c.Param("client_id"))
	if err != nil {
		return nil, apierr.NotFoundf("API app not found.").WithPath("client_id")
	}
	if app.OwnerAccountID == c.Account.ID {
		return app, nil
	}
	if owner {
		return nil, apierr.Forbiddenf("Only the owner of an API app can change or delete it.").WithPath("client_id")
	}
	me, err1 := state.Get[model.Account](tx, state.TableAccounts, c.Account.ID)
	own, err2 := state.Get[model.Account](tx, state.TableAccounts, app.OwnerAccountID)
	if err1 != nil || err2 != nil || !canSeeTeamApps(me, own) {
		return nil, apierr.Forbiddenf("You do not have access to this API app.").WithPath("client_id")
	}
	return app, nil
}

// apiAppGet answers one app.
func apiAppGet(c *api.Call) (any, error) {
	tx := c.Read()
	app, err := visibleApp(c, tx, false)
	if err != nil {
		return nil, err
	}
	return apiAppGetResponse{APIApp: viewAPIApp(tx, app, c.Account.ID)}, nil
}

// apiAppUpdate changes the given fields of an app the caller owns.
func apiAppUpdate(c *api.Call) (any, error) {
	out, err := apiAppWrite(c, false, func(tx *state.Txn) (*model.APIApp, string, error) {
		cur, err := visibleApp(c, tx, true)
		if err != nil {
			return nil, "", err
		}
		return state.Clone(cur), cur.CallbackURL, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// apiAppDelete deletes an app the caller owns (204). Its OAuth tokens stop
// working.
func apiAppDelete(c *api.Call) (any, error) {
	err := c.Update(func(tx *state.Txn) error {
		app, err := visibleApp(c, tx, true)
		if err != nil {
			return err
		}
		if err := tx.Delete(state.TableAPIApps, app); err != nil {
			return err
		}
		return revokeAppTokens(tx, app.ClientID)
	})
	if err != nil {
		return nil, err
	}
	return api.NoContent(), nil
}

// revokeAppTokens revokes every OAuth token issued to an app.
func revokeAppTokens(tx *state.Txn, clientID string) error {
	toks, err := state.All[model.OAuthToken](tx, state.TableOAuthToken, state.IndexID)
	if err != nil {
		return err
	}
	for _, t := range toks {
		if t.ClientID == clientID && !t.Revoked {
			r := state.Clone(t)
			r.Revoked = true
			if err := state.Put(tx, state.TableOAuthToken, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// apiAppList lists the caller's apps, and for Admins and Developers of a
// team their teammates' apps too, newest first.
func apiAppList(c *api.Call) (any, error) {
	page, size, err := api.ReadPaging(c)
	if err != nil {
		return nil, err
	}
	tx := c.Read()
	me, err := api.ReloadCaller(c, tx)
	if err != nil {
		return nil, err
	}
	all, err := state.All[model.APIApp](tx, state.TableAPIApps, state.IndexID)
	if err != nil {
		return nil, err
	}
	var apps []*model.APIApp
	for _, app := range all {
		owner, err := state.Get[model.Account](tx, state.TableAccounts, app.OwnerAccountID)
		if err == nil && canSeeTeamApps(me, owner) {
			apps = append(apps, app)
		}
	}
	sort.SliceStable(apps, func(i, j int) bool {
		if apps[i].CreatedAt != apps[j].CreatedAt {
			return apps[i].CreatedAt > apps[j].CreatedAt
		}
		return apps[i].Seq > apps[j].Seq
	})
	rows, info := api.PageSlice(apps, page, size)
	out := apiAppListResponse{APIApps: []apiAppView{}, ListInfo: info}
	for _, app := range rows {
		out.APIApps = append(out.APIApps, viewAPIApp(tx, app, c.Account.ID))
	}
	return out, nil
}
