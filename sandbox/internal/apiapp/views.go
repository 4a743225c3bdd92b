package apiapp

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/catalog"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// apiAppView is ApiAppResponse.
type apiAppView struct {
	CallbackURL          *string                `json:"callback_url"`
	ClientID             string                 `json:"client_id"`
	CreatedAt            int64                  `json:"created_at"`
	Domains              []string               `json:"domains"`
	Name                 string                 `json:"name"`
	IsApproved           bool                   `json:"is_approved"`
	OAuth                *apiAppOAuthView       `json:"oauth"`
	Options              apiAppOptionsView      `json:"options"`
	OwnerAccount         apiAppOwnerView        `json:"owner_account"`
	WhiteLabelingOptions *apiAppWhiteLabelsView `json:"white_labeling_options"`
}

// apiAppOAuthView is ApiAppResponseOAuth; secret is null for viewers who do
// not own the app.
type apiAppOAuthView struct {
	CallbackURL  string   `json:"callback_url"`
	Secret       *string  `json:"secret"`
	Scopes       []string `json:"scopes"`
	ChargesUsers bool     `json:"charges_users"`
}

// apiAppOptionsView is ApiAppResponseOptions.
type apiAppOptionsView struct {
	CanInsertEverywhere bool `json:"can_insert_everywhere"`
}

// apiAppOwnerView is ApiAppResponseOwnerAccount.
type apiAppOwnerView struct {
	AccountID    string `json:"account_id"`
	EmailAddress string `json:"email_address"`
}

// apiAppWhiteLabelsView is ApiAppResponseWhiteLabelingOptions.
type apiAppWhiteLabelsView struct {
	HeaderBackgroundColor         string `json:"header_background_color"`
	LegalVersion                  string `json:"legal_version"`
	LinkColor                     string `json:"link_color"`
	PageBackgroundColor           string `json:"page_background_color"`
	PrimaryButtonColor            string `json:"primary_button_color"`
	PrimaryButtonColorHover       string `json:"primary_button_color_hover"`
	PrimaryButtonTextColor        string `json:"primary_button_text_color"`
	PrimaryButtonTextColorHover   string `json:"primary_button_text_color_hover"`
	SecondaryButtonColor          string `json:"secondary_button_color"`
	SecondaryButtonColorHover     string `json:"secondary_button_color_hover"`
	SecondaryButtonTextColor      string `json:"secondary_button_text_color"`
	SecondaryButtonTextColorHover string `json:"secondary_button_text_color_hover"`
	TextColor1                    string `json:"text_color1"`
	TextColor2                    string `json:"text_color2"`
}

// apiAppGetResponse is ApiAppGetResponse.
type apiAppGetResponse struct {
	APIApp apiAppView `json:"api_app"`
}

// apiAppListResponse is ApiAppListResponse.
type apiAppListResponse struct {
	APIApps  []apiAppView         `json:"api_apps"`
	ListInfo api.ListInfoResponse `json:"list_info"`
}

// viewAPIApp renders an app for viewer (an account id).
func viewAPIApp(tx *state.Txn, app *model.APIApp, viewer string) apiAppView {
	v := apiAppView{
		CallbackURL: api.NullString(app.CallbackURL), ClientID: app.ClientID, CreatedAt: app.CreatedAt,
		Domains: append([]string{}, app.Domains...), Name: app.Name, IsApproved: app.IsApproved,
		Options:      apiAppOptionsView{CanInsertEverywhere: app.CanInsertEverywhere},
		OwnerAccount: apiAppOwnerView{AccountID: app.OwnerAccountID},
	}
	if owner, err := state.Get[model.Account](tx, state.TableAccounts, app.OwnerAccountID); err == nil {
		v.OwnerAccount.EmailAddress = owner.Email
	}
	if o := app.OAuth; o != nil {
		ov := &apiAppOAuthView{CallbackURL: o.CallbackURL, Scopes: append([]string{}, o.Scopes...), ChargesUsers: o.ChargesUsers}
		if viewer == app.OwnerAccountID {
			ov.Secret = api.NullString(o.Secret)
		}
		v.OAuth = ov
	}
	if app.WhiteLabelingSet {
		wl := effectiveWhiteLabels(app.WhiteLabelingOptions)
		v.WhiteLabelingOptions = &apiAppWhiteLabelsView{
			HeaderBackgroundColor: wl["header_background_color"], LegalVersion: wl["legal_version"],
			LinkColor: wl["link_color"], PageBackgroundColor: wl["page_background_color"],
			PrimaryButtonColor: wl["primary_button_color"], PrimaryButtonColorHover: wl["primary_button_color_hover"],
			PrimaryButtonTextColor: wl["primary_button_text_color"], PrimaryButtonTextColorHover: wl["primary_button_text_color_hover"],
			SecondaryButtonColor: wl["secondary_button_color"], SecondaryButtonColorHover: wl["secondary_button_color_hover"],
			SecondaryButtonTextColor: wl["secondary_button_text_color"], SecondaryButtonTextColorHover: wl["secondary_button_text_color_hover"],
			TextColor1: wl["text_color1"], TextColor2: wl["text_color2"],
		}
	}
	return v
}

// RegisterViews adds API apps to the catalog, as their owner sees
// them.
func RegisterViews(r *api.Registry) {
	r.Catalog.Add(catalog.Of("api_app", state.TableAPIApps,
		func(app *model.APIApp) string { return app.ClientID },
		func(tx *state.Txn, app *model.APIApp) (any, error) {
			return viewAPIApp(tx, app, app.OwnerAccountID), nil
		},
		func(_ *state.Txn, app *model.APIApp, accountID string) bool { return app.OwnerAccountID == accountID }))
}
