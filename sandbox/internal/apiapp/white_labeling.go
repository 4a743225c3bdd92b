package apiapp

// White labeling of API apps: the documented elements, their defaults (the
// defaults of SubWhiteLabelingOptions in the official description), hover
// colours that inherit from their base colour when not set, and the
// documented validation errors (invalid_element_name, invalid_legal_version,
// invalid_hex_code, invalid_contrast_ratio), which the real API reports
// JSON-encoded inside error_msg.

import (
	"encoding/json"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
	"github.com/signsandbox/signsandbox/sandbox/internal/param"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// The defaults and the hover inheritance are state's (state.WhiteLabelDefaults),
// which e-mails brand with too.
var (
	whiteLabelDefaults   = state.WhiteLabelDefaults
	effectiveWhiteLabels = state.EffectiveWhiteLabels
)

// headerBackgroundColorLight is the fixed contrast element of the docs.
const headerBackgroundColorLight = "#F7F8F9"

// whiteLabelContrasts are the documented pairs that need a contrast ratio of
// at least 2.1: element, then the elements it is checked against.
var whiteLabelContrasts = []struct {
	element string
	against []string
}{
	{"text_color1", []string{"header_background_color_light"}},
	{"text_color2", []string{"header_background_color"}},
	{"primary_button_color", []string{"header_background_color", "header_background_color_light"}},
	{"primary_button_text_color", []string{"primary_button_color"}},
	{"primary_button_text_color_hover", []string{"primary_button_color_hover"}},
	{"secondary_button_text_color", []string{"secondary_button_color"}},
	{"secondary_button_text_color_hover", []string{"secondary_button_color_hover"}},
}

const minContrastRatio = 2.1

var hexColor = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// whiteLabelErrors collects the documented error types by element.
type whiteLabelErrors map[string][]string

func (e whiteLabelErrors) add(kind, element string) { e[kind] = append(e[kind], element) }

// err is nil without errors, else a 400 whose error_msg is the JSON of the
// error types and their elements, and whose error_path names the first.
func (e whiteLabelErrors) err() error {
	if len(e) == 0 {
		return nil
	}
	kinds := make([]string, 0, len(e))
	for k := range e {
		sort.Strings(e[k])
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	msg, _ := json.Marshal(map[string][]string(e))
	return apierr.Badf("white_labeling_options["+e[kinds[0]][0]+"]", "%s", msg)
}

// mergeWhiteLabels applies the options of a create or update call to the
// customized values cur and returns the new customized values. "" for an
// element drops its customization; reset_to_default drops all of them before
// the other elements of the same call apply.
func mergeWhiteLabels(cur map[string]string, given map[string]any) (map[string]string, error) {
	errs := whiteLabelErrors{}
	reset := false
	if v, ok := given["reset_to_default"]; ok {
		b, isBool := param.AsBool(v)
		if !isBool {
			return nil, apierr.Badf("white_labeling_options[reset_to_default]", "white_labeling_options[reset_to_default] must be a boolean.")
		}
		reset = b
	}
	next := map[string]string{}
	if !reset {
		maps.Copy(next, cur)
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "reset_to_default" {
			continue
		}
		if _, known := whiteLabelDefaults[k]; !known {
			errs.add("invalid_element_name", k)
			continue
		}
		s, ok := given[k].(string)
		if !ok && given[k] != nil {
			s = strings.Trim(string(mustJSON(given[k])), `"`)
		}
		switch {
		case s == "":
			delete(next, k)
		case k == "legal_version":
			if !slices.Contains([]string{"terms1", "terms2"}, s) {
				errs.add("invalid_legal_version", k)
				continue
			}
			next[k] = s
		case !hexColor.MatchString(s):
			errs.add("invalid_hex_code", k)
		default:
			next[k] = s
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	eff := effectiveWhiteLabels(next)
	eff["header_background_color_light"] = headerBackgroundColorLight
	for _, pair := range whiteLabelContrasts {
		for _, other := range pair.against {
			if contrastRatio(eff[pair.element], eff[other]) < minContrastRatio {
				errs.add("invalid_contrast_ratio", pair.element)
				break
			}
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return next, nil
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// contrastRatio is the WCAG 2 contrast ratio of two #rrggbb colours.
func contrastRatio(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(hex string) float64 {
	if !hexColor.MatchString(hex) {
		return 0
	}
	ch := func(i int) float64 {
		n, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(n) / 255
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(0) + 0.7152*ch(1) + 0.0722*ch(2)
}
