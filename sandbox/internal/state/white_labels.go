package state

// WhiteLabelDefaults are the values of an API app's white labeling
// elements that were not customized (the defaults of
// SubWhiteLabelingOptions in the official description). The API app
// operations validate against them; e-mails (and pages) brand with
// EffectiveWhiteLabels.
var WhiteLabelDefaults = map[string]string{
	"header_background_color":           "#1a1a1a",
	"legal_version":                     "terms1",
	"link_color":                        "#0061FE",
	"page_background_color":             "#f7f8f9",
	"primary_button_color":              "#0061FE",
	"primary_button_color_hover":        "#0061FE",
	"primary_button_text_color":         "#ffffff",
	"primary_button_text_color_hover":   "#ffffff",
	"secondary_button_color":            "#ffffff",
	"secondary_button_color_hover":      "#ffffff",
	"secondary_button_text_color":       "#0061FE",
	"secondary_button_text_color_hover": "#0061FE",
	"text_color1":                       "#808080",
	"text_color2":                       "#ffffff",
}

// WhiteLabelHoverOf maps a hover element to the element it inherits from
// when it is not customized itself.
var WhiteLabelHoverOf = map[string]string{
	"primary_button_color_hover":        "primary_button_color",
	"primary_button_text_color_hover":   "primary_button_text_color",
	"secondary_button_color_hover":      "secondary_button_color",
	"secondary_button_text_color_hover": "secondary_button_text_color",
}

// EffectiveWhiteLabels is every element's value given the customized ones
// (APIApp.WhiteLabelingOptions): customized, inherited or default.
func EffectiveWhiteLabels(explicit map[string]string) map[string]string {
	out := make(map[string]string, len(WhiteLabelDefaults))
	for k, def := range WhiteLabelDefaults {
		switch v, ok := explicit[k]; {
		case ok:
			out[k] = v
		case WhiteLabelHoverOf[k] != "" && explicit[WhiteLabelHoverOf[k]] != "":
			out[k] = explicit[WhiteLabelHoverOf[k]]
		default:
			out[k] = def
		}
	}
	return out
}
