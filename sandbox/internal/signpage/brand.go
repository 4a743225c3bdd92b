package signpage

// White labeling on the pages: an API app's colours and logo, applied to
// the pages of the requests, drafts and templates made through that app
// (its client_id), as the real service applies them. The colours become
// CSS custom properties in a <style> element the page's content security
// policy allows by its hash (inline style attributes stay forbidden); only
// six-digit hex colours reach it, under property names of this file, so
// nothing a caller wrote can end the element or add a rule.

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"regexp"
	"strings"
)

// Brand is an API app's white labeling as the pages show it.
type Brand struct {
	// Colors are white-labeling colours by element name
	// (page_background_color, primary_button_color, ...): each replaces the
	// real service's default for its element. Elements this file does not
	// name, and values that are not six-digit hex colours, are ignored.
	Colors map[string]string
	// LogoURL is where the page serves the app's logo ("" for none), and
	// LogoAlt its text alternative (the app's name).
	LogoURL, LogoAlt string
}

// brandProperties maps each white-labeling colour to the custom property
// of pages.css that carries it, in the order the style element lists them.
var brandProperties = []struct{ element, property string }{
	{"page_background_color", "--wl-page-bg"},
	{"header_background_color", "--wl-header-bg"},
	{"text_color1", "--wl-text1"},
	{"text_color2", "--wl-text2"},
	{"link_color", "--wl-link"},
	{"primary_button_color", "--wl-primary"},
	{"primary_button_color_hover", "--wl-primary-hover"},
	{"primary_button_text_color", "--wl-primary-text"},
	{"primary_button_text_color_hover", "--wl-primary-text-hover"},
	{"secondary_button_color", "--wl-secondary"},
	{"secondary_button_color_hover", "--wl-secondary-hover"},
	{"secondary_button_text_color", "--wl-secondary-text"},
	{"secondary_button_text_color_hover", "--wl-secondary-text-hover"},
}

var hexColor = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// Style is the body of the page's brand style element: the app's colours
// as custom properties of the document ("" when there are none).
func (b *Brand) Style() template.CSS {
	if b == nil {
		return ""
	}
	var s strings.Builder
	for _, p := range brandProperties {
		c := b.Colors[p.element]
		if !hexColor.MatchString(c) {
			continue
		}
		s.WriteString(p.property + ":" + strings.ToLower(c) + ";")
	}
	if s.Len() == 0 {
		return ""
	}
	return template.CSS(":root{" + s.String() + "}")
}

// Logo is where the page's logo is served ("" for none, or no brand).
func (b *Brand) Logo() string {
	if b == nil {
		return ""
	}
	return b.LogoURL
}

// LogoText is the logo's text alternative: the app's name, else "Logo".
func (b *Brand) LogoText() string {
	if b == nil || b.LogoAlt == "" {
		return "Logo"
	}
	return b.LogoAlt
}

// styleHash is the content security policy source that allows the brand
// style element ("" without one).
func (b *Brand) styleHash() string {
	css := b.Style()
	if css == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(css))
	return " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
