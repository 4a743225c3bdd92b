package apiapp

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/oauth"
)

// TestMergeWhiteLabels: customizations add up across calls, "" drops one,
// reset_to_default drops all before the call's own, and each documented
// error names the element at fault (error_msg holds the JSON of every
// error type, as the real API reports it).
func TestMergeWhiteLabels(t *testing.T) {
	cur := map[string]string{"link_color": "#00AA00"}
	for _, tc := range []struct {
		name    string
		given   map[string]any
		want    map[string]string
		errPath string
		errMsg  string
	}{
		{name: "adds", given: map[string]any{"text_color1": "#111111"},
			want: map[string]string{"link_color": "#00AA00", "text_color1": "#111111"}},
		{name: "empty drops", given: map[string]any{"link_color": ""}, want: map[string]string{}},
		{name: "reset then set", given: map[string]any{"reset_to_default": true, "legal_version": "terms2"},
			want: map[string]string{"legal_version": "terms2"}},
		{name: "reset as text", given: map[string]any{"reset_to_default": "1"}, want: map[string]string{}},
		{name: "reset not a boolean", given: map[string]any{"reset_to_default": "maybe"},
			errPath: "white_labeling_options[reset_to_default]", errMsg: "must be a boolean"},
		{name: "unknown element", given: map[string]any{"font": "#000000"},
			errPath: "white_labeling_options[font]", errMsg: `{"invalid_element_name":["font"]}`},
		{name: "bad legal version", given: map[string]any{"legal_version": "terms9"},
			errPath: "white_labeling_options[legal_version]", errMsg: `{"invalid_legal_version":["legal_version"]}`},
		{name: "bad hex codes, sorted", given: map[string]any{"text_color2": "white", "link_color": "#12345"},
			errPath: "white_labeling_options[link_color]", errMsg: `{"invalid_hex_code":["link_color","text_color2"]}`},
		{name: "low contrast, inherited by the hover colour", given: map[string]any{"primary_button_text_color": "#0061FE"},
			errPath: "white_labeling_options[primary_button_text_color]",
			errMsg:  `{"invalid_contrast_ratio":["primary_button_text_color","primary_button_text_color_hover"]}`},
		{name: "hover inherits its base colour, checked too", given: map[string]any{"primary_button_color": "#ffffff"},
			errPath: "white_labeling_options[primary_button_color]", errMsg: "invalid_contrast_ratio"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mergeWhiteLabels(cur, tc.given)
			if tc.errPath == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
				return
			}
			var e *apierr.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, apierr.BadRequest, e.Name)
			assert.Equal(t, tc.errPath, e.Path)
			assert.Contains(t, e.Msg, tc.errMsg)
		})
	}
	assert.Equal(t, map[string]string{"link_color": "#00AA00"}, cur, "the stored values are not changed in place")
}

// TestEffectiveWhiteLabels: hover colours inherit their base colour unless
// set themselves; the rest fall back to the documented defaults.
func TestEffectiveWhiteLabels(t *testing.T) {
	eff := effectiveWhiteLabels(map[string]string{"primary_button_color": "#222222", "secondary_button_color_hover": "#333333"})
	assert.Equal(t, "#222222", eff["primary_button_color_hover"])
	assert.Equal(t, "#333333", eff["secondary_button_color_hover"])
	assert.Equal(t, "#ffffff", eff["secondary_button_color"])
	assert.Equal(t, "terms1", eff["legal_version"])
	assert.Len(t, eff, len(whiteLabelDefaults))
}

// TestContrastRatio is WCAG 2's: black on white 21, a colour on itself 1.
func TestContrastRatio(t *testing.T) {
	assert.InDelta(t, 21, contrastRatio("#000000", "#FFFFFF"), 1e-9)
	assert.InDelta(t, 21, contrastRatio("#ffffff", "#000000"), 1e-9)
	assert.InDelta(t, 1, contrastRatio("#0061FE", "#0061fe"), 1e-9)
}

// TestCheckDomainsAndOAuth: the parameter named in each refusal.
func TestCheckDomainsAndOAuth(t *testing.T) {
	path := func(err error) string {
		var e *apierr.Error
		if err == nil || !errors.As(err, &e) {
			return ""
		}
		return e.Path
	}
	assert.Empty(t, path(checkDomains([]string{"example.com", "sub.example.org"})))
	assert.Equal(t, "domains", path(checkDomains(nil)))
	assert.Equal(t, "domains[1]", path(checkDomains([]string{"example.com", "https://example.com/x"})))

	scopes, err := checkOAuthParam(&apiAppOAuthParam{CallbackURL: "https://example.com/oauth", Scopes: []string{oauth.Scopes[0], "", oauth.Scopes[0]}})
	require.NoError(t, err)
	assert.Equal(t, []string{oauth.Scopes[0]}, scopes, "blank and repeated scopes dropped")
	_, err = checkOAuthParam(&apiAppOAuthParam{CallbackURL: "https://example.com/oauth", Scopes: []string{oauth.Scopes[0], "all"}})
	assert.Equal(t, "oauth[scopes][1]", path(err))
	_, err = checkOAuthParam(&apiAppOAuthParam{Scopes: []string{oauth.Scopes[0]}})
	assert.Equal(t, "oauth[callback_url]", path(err))
	_, err = checkOAuthParam(&apiAppOAuthParam{CallbackURL: "https://example.com/oauth"})
	assert.Equal(t, "oauth[scopes]", path(err))
	_, err = checkOAuthParam(&apiAppOAuthParam{})
	assert.Equal(t, "oauth[callback_url]", path(err))
}
