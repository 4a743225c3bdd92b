package pdf

import (
	"archive/zip"
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// renderZIP writes one PDF per document (with its stamps and page marks;
// the signature page and audit trail belong to the merged PDF only).
func renderZIP(c *Composition, docs []parsed) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := UniqueNames(docNames(docs))
	for i, d := range docs {
		w := newPDFWriter()
		if err := addDocument(w, c, i, d); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i+1, d.name, err)
		}
		hdr := &zip.FileHeader{Name: names[i], Method: zip.Deflate, Modified: c.at()}
		f, err := zw.CreateHeader(hdr)
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(w.finish(d.name, c.at())); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func docNames(docs []parsed) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.name
	}
	return out
}

// maxNameRunes bounds a file name (without extension) in a ZIP or a
// Content-Disposition header.
const maxNameRunes = 100

// SafeName turns a client-supplied file name into one that is safe in a ZIP
// entry or a download header: the last path segment only, no control
// characters, quotes or separators, no leading dots, at most 100 characters,
// with the extension replaced by ext (".pdf"). An empty result becomes
// fallback.
func SafeName(name, ext, fallback string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base(name)
	if e := path.Ext(name); e != "" && len(e) <= 6 {
		name = strings.TrimSuffix(name, e)
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), strings.ContainsRune(`/\:*?"<>|;%`, r):
			b.WriteByte('_')
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	s := strings.TrimLeft(strings.TrimSpace(b.String()), ".")
	if utf8.RuneCountInString(s) > maxNameRunes {
		s = string([]rune(s)[:maxNameRunes])
	}
	s = strings.TrimSpace(s)
	if s == "" || s == "." || s == ".." {
		s = fallback
	}
	return s + ext
}

// UniqueNames makes safe PDF file names for documents, numbering repeats:
// "a.pdf", "a (2).pdf". Comparison ignores case, as file systems that
// unpack the ZIP may.
func UniqueNames(names []string) []string {
	out := make([]string, len(names))
	used := map[string]bool{}
	for i, n := range names {
		base := SafeName(n, "", fmt.Sprintf("document-%d", i+1))
		cand := base + ".pdf"
		for k := 2; used[strings.ToLower(cand)]; k++ {
			cand = fmt.Sprintf("%s (%d).pdf", base, k)
		}
		used[strings.ToLower(cand)] = true
		out[i] = cand
	}
	return out
}
