package legacy

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// fileURLs: file_url and file_url[N] (every older SDK) are file_urls.
func fileURLs(_ string, b *wire.Body) error {
	v, ok := b.Tree["file_url"]
	if !ok {
		return nil
	}
	if _, both := b.Tree["file_urls"]; both {
		return mixed("file_url", "file_urls", "file_urls")
	}
	b.Tree["file_urls"] = v
	delete(b.Tree, "file_url")
	return nil
}

// fileParts: the wire decoder already files file and file[N] uploads under
// files; a body that uses both names cannot say which file goes where.
func fileParts(_ string, b *wire.Body) error {
	var older, current string
	for _, f := range b.Files["files"] {
		base, _, _ := strings.Cut(f.Field, "[")
		switch {
		case base == "file" && older == "":
			older = f.Field
		case base == "files" && current == "":
			current = f.Field
		}
	}
	if older != "" && current != "" {
		return mixed(older, current, "files")
	}
	return nil
}

// templateID: the template operations took one template as template_id
// before template_ids; the older SDKs pass it through as given.
func templateID(operationID string, b *wire.Body) error {
	v, ok := b.Tree["template_id"]
	if !ok || !strings.Contains(operationID, "WithTemplate") {
		return nil
	}
	if _, both := b.Tree["template_ids"]; both {
		return mixed("template_id", "template_ids", "template_ids")
	}
	b.Tree["template_ids"] = v
	delete(b.Tree, "template_id")
	return nil
}
