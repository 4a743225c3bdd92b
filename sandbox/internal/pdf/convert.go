package pdf

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/png"
	"mime"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"golang.org/x/image/bmp"
)

// How a document became a PDF.
const (
	AsPDF         = "pdf"         // used as uploaded
	AsImage       = "image"       // the image placed on a page
	AsText        = "text"        // plain text typeset in a monospaced font
	AsPlaceholder = "placeholder" // one page standing in for the file
)

// Converted is an input file as the PDF the sandbox works with.
type Converted struct {
	// PDF is the document: the original bytes for a PDF, else a PDF the
	// sandbox generated (deterministically, from the bytes alone).
	PDF  []byte
	Info Info
	// How says what was done (AsPDF, AsImage, AsText, AsPlaceholder).
	How string
}

// Accepted file types, by extension. The reference material does not list
// the types the API accepts; the Dropbox help centre's list for signature
// requests is .pdf .doc .docx .ppt .pptx .ppsx .xls .xlsx .txt .html .jpg
// .jpeg .png. The sandbox also takes .htm, .gif, .bmp, .tif and .tiff, the
// other common image formats.
var (
	officeKinds = map[string]string{
		".doc": "Word document", ".docx": "Word document",
		".xls": "Excel spreadsheet", ".xlsx": "Excel spreadsheet",
		".ppt": "PowerPoint presentation", ".pptx": "PowerPoint presentation", ".ppsx": "PowerPoint presentation",
	}
	imageExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".bmp": true, ".tif": true, ".tiff": true}
)

// AcceptedExtensions lists the file extensions the sandbox converts, sorted.
func AcceptedExtensions() []string {
	return []string{".bmp", ".doc", ".docx", ".gif", ".htm", ".html", ".jpeg", ".jpg", ".pdf", ".png",
		".ppsx", ".ppt", ".pptx", ".tif", ".tiff", ".txt", ".xls", ".xlsx"}
}

// maxImagePixels bounds the images the sandbox decodes (a 40-megapixel
// photo is fine; a decompression bomb is not).
const maxImagePixels = 40_000_000

// Convert turns an uploaded or fetched file into a PDF and inspects it. The
// type comes from the content (PDF and image signatures), then the file
// name's extension, then the Content-Type. A file that cannot be used gives
// a *FileError.
func Convert(name, contentType string, data []byte) (Converted, error) {
	if len(data) == 0 {
		return Converted{}, fileErr(ReasonEmpty, "The file %q is empty.", name)
	}
	ext := strings.ToLower(path.Ext(name))
	switch kind := sniff(data); {
	case kind == "pdf" || kind == "" && (ext == ".pdf" || mediaType(contentType) == "application/pdf"):
		info, err := Inspect(data)
		if err != nil {
			return Converted{}, err
		}
		return Converted{PDF: data, Info: info, How: AsPDF}, nil
	case kind != "":
		return convertImage(name, kind, data)
	}
	if imageExts[ext] || strings.HasPrefix(mediaType(contentType), "image/") {
		return Converted{}, fileErr(ReasonUnreadable, "The file %q is not a readable image.", name)
	}
	if k, ok := officeKinds[ext]; ok {
		if !looksLikeOffice(ext, data) {
			return Converted{}, fileErr(ReasonUnreadable, "The file %q is not a readable %s.", name, k)
		}
		return placeholder(name, k, data)
	}
	mt := mediaType(contentType)
	switch {
	case ext == ".txt" || ext == "" && mt == "text/plain":
		return convertText(name, data)
	case ext == ".html" || ext == ".htm" || ext == "" && mt == "text/html":
		return placeholder(name, "HTML page", data)
	}
	return Converted{}, fileErr(ReasonUnsupported, "The file type of %q is not supported (accepted: %s).", name,
		strings.Join(AcceptedExtensions(), " "))
}

// sniff recognizes PDFs and images by their first bytes ("" otherwise).
func sniff(data []byte) string {
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.Contains(head, []byte("%PDF-")):
		return "pdf"
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte("\xFF\xD8\xFF")):
		return "jpeg"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "gif"
	case bytes.HasPrefix(data, []byte("II*\x00")), bytes.HasPrefix(data, []byte("MM\x00*")):
		return "tiff"
	case bytes.HasPrefix(data, []byte("BM")) && len(data) > 26:
		return "bmp"
	}
	return ""
}

func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return mt
}

// looksLikeOffice checks the container signature of an office file: a ZIP
// for the Office Open XML types, an OLE2 compound file (or RTF, which Word
// also saves as .doc) for the older ones.
func looksLikeOffice(ext string, data []byte) bool {
	if strings.HasSuffix(ext, "x") {
		return bytes.HasPrefix(data, []byte("PK\x03\x04"))
	}
	return bytes.HasPrefix(data, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")) || bytes.HasPrefix(data, []byte(`{\rtf`))
}

// convertImage places an image on a US Letter page with pdfcpu, centred
// and scaled to fit. pdfcpu reads PNG, JPEG and TIFF; GIF and BMP are
// re-encoded as PNG first.
func convertImage(name, kind string, data []byte) (out Converted, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = Converted{}, fileErr(ReasonUnreadable, "The image %q cannot be read.", name)
		}
	}()
	unreadable := fileErr(ReasonUnreadable, "The image %q cannot be read.", name)
	cfg, _, cerr := image.DecodeConfig(bytes.NewReader(data))
	if cerr != nil {
		// Without its dimensions an image's size cannot be bounded before
		// it is decoded, and every decoder behind this reads them first.
		return Converted{}, unreadable
	}
	if cfg.Width*cfg.Height > maxImagePixels {
		return Converted{}, fileErr(ReasonTooLarge, "The image %q is too large (%dx%d pixels; at most %d pixels).", name, cfg.Width, cfg.Height, maxImagePixels)
	}
	if kind == "gif" || kind == "bmp" {
		var img image.Image
		if kind == "gif" {
			img, err = gif.Decode(bytes.NewReader(data))
		} else {
			img, err = bmp.Decode(bytes.NewReader(data))
		}
		if err != nil {
			return Converted{}, unreadable
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return Converted{}, unreadable
		}
		data = buf.Bytes()
	}
	imp, err := importSettings("form:Letter, pos:c, scale:0.9 rel", types.POINTS)
	if err != nil {
		return Converted{}, fmt.Errorf("image import settings: %w", err)
	}
	placed, err := imagePDF(bytes.NewReader(data), imp, pdfConfig())
	if err != nil {
		return Converted{}, unreadable
	}
	pdf, err := rewrite(placed, name)
	if err != nil {
		return Converted{}, unreadable
	}
	return inspected(pdf, AsImage)
}

// rewrite copies a PDF through the sandbox's writer, which makes its bytes
// a function of its content (pdfcpu's own output carries the wall clock).
func rewrite(pdf []byte, title string) ([]byte, error) {
	src, err := openSource(pdf)
	if err != nil {
		return nil, err
	}
	return writePages(src.ctx, src.pages, nil, title)
}

// convertText typesets a plain-text file (UTF-8, or Latin-1 when it is not
// valid UTF-8). Files with NUL bytes are binary, not text.
func convertText(name string, data []byte) (Converted, error) {
	if bytes.IndexByte(data, 0) >= 0 {
		return Converted{}, fileErr(ReasonUnreadable, "The file %q is not a text file.", name)
	}
	text := string(data)
	if !utf8.Valid(data) {
		r := make([]rune, len(data))
		for i, c := range data {
			r[i] = rune(c)
		}
		text = string(r)
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	return inspected(drawnPDF(textContent(text), name, time.Unix(0, 0)), AsText)
}

// placeholder stands one generated page in for a file the sandbox keeps
// but does not convert.
func placeholder(name, kind string, data []byte) (Converted, error) {
	return inspected(drawnPDF(placeholderContent(name, kind, len(data)), name, time.Unix(0, 0)), AsPlaceholder)
}

// OfflinePlaceholder is the document that stands in for a file_urls entry
// in a world that does not fetch URLs.
func OfflinePlaceholder(url string) Converted {
	c, err := inspected(drawnPDF(offlineContent(url), url, time.Unix(0, 0)), AsPlaceholder)
	if err != nil {
		panic("files: generated placeholder does not inspect: " + err.Error())
	}
	return c
}

func inspected(pdf []byte, how string) (Converted, error) {
	info, err := Inspect(pdf)
	if err != nil {
		return Converted{}, err
	}
	return Converted{PDF: pdf, Info: info, How: how}, nil
}
