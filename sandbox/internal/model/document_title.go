package model

import (
	"path"
	"strings"
)

// Title is the title of a request sent without title or subject: its
// document's file name. For a file_urls document that is the name the
// documents subsystem gave it (the server's Content-Disposition filename,
// else the URL's last path segment), not the URL path itself. Creation and
// the list search both read it, so it belongs to the document.
func (d Document) Title() string {
	if d.Name != "" {
		return d.Name
	}
	if d.SourceURL != "" {
		return path.Base(strings.SplitN(d.SourceURL, "?", 2)[0])
	}
	return ""
}
