package derived

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/signsandbox/signsandbox/sandbox/internal/pdf"
)

// Merged files (the downloadable PDF and ZIP of a request or template) are
// rendered when someone asks for them, not when they are prepared: a
// preparation keeps only a recipe, the composition it made with each
// document named by the stored file that holds it, and a download renders
// the recipe (or finds the rendering in a bounded cache). Rendering is a
// pure function of the composition, so the bytes are the ones an eager
// rendering at preparation time gave.

// mergedBytes bounds the bytes of the renderings kept, and mergedEntries
// their number: a suite downloads what it has just prepared, a few times.
const (
	mergedBytes   = 64 << 20
	mergedEntries = 1024
)

var merged = NewSizedCache[[sha256.Size]byte, pdf.Rendered](mergedEntries, mergedBytes,
	func(r pdf.Rendered) int64 { return int64(len(r.PDF) + len(r.ZIP)) })

// jsonRecipe is the form recipes were stored in before the binary one
// (recipe_codec.go): worlds exported then still hold it. Documents with a
// reference are kept without their bytes (the caller's store holds them);
// the others carry them.
type jsonRecipe struct {
	Composition pdf.Composition `json:"composition"`
	// Refs holds, per document, the reference of the stored file with its
	// bytes ("" when the bytes are in the recipe).
	Refs []string `json:"refs,omitempty"`
}

// ErrNotKeepable is EncodeRecipe's answer for a composition that is not
// kept as a recipe (text that is not valid UTF-8): the caller renders it at
// once instead. The binary form could keep such text, but those files have
// always been stored rendered, and their bytes count in the world's stored
// bytes (max_world_bytes), so they still are.
var ErrNotKeepable = errors.New("derived: composition cannot be kept as a recipe")

// EncodeRecipe keeps a composition as a recipe. refs[i] names the stored
// file holding document i's bytes ("" or a missing entry keeps the bytes in
// the recipe). Times are kept as instants (rendering reads them in UTC).
func EncodeRecipe(c pdf.Composition, refs []string) ([]byte, error) {
	if !validText(&c) {
		return nil, ErrNotKeepable
	}
	return encodeBinary(&c, refs), nil
}

// Recipe is a decoded recipe: the composition (documents with a reference
// have no bytes yet) and the references.
type Recipe struct {
	Composition pdf.Composition
	Refs        []string
}

// DecodeRecipe reads a recipe EncodeRecipe wrote, or one an earlier
// version wrote as JSON.
func DecodeRecipe(raw []byte) (Recipe, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return decodeBinary(raw)
	}
	var r jsonRecipe
	if err := json.Unmarshal(raw, &r); err != nil {
		return Recipe{}, fmt.Errorf("derived: recipe: %w", err)
	}
	if len(r.Refs) != 0 && len(r.Refs) != len(r.Composition.Documents) {
		return Recipe{}, fmt.Errorf("derived: recipe has %d references for %d documents", len(r.Refs), len(r.Composition.Documents))
	}
	return Recipe(r), nil
}

// Ref is the reference of document i ("" when its bytes are in the recipe).
func (r Recipe) Ref(i int) string {
	if i < len(r.Refs) {
		return r.Refs[i]
	}
	return ""
}

// Store is where a recipe's references lead: the SHA-256 of a stored
// file's bytes, and the bytes.
type Store interface {
	Sum(ref string) ([sha256.Size]byte, error)
	Bytes(ref string) ([]byte, error)
}

// Merged renders the files of a recipe, reading referenced documents from
// st. The cache key is the recipe with the SHA-256 of every referenced
// document, so a rendering is found again without reading the documents,
// and equal inputs (in any world) share one rendering.
func Merged(raw []byte, st Store) (pdf.Rendered, error) {
	r, err := DecodeRecipe(raw)
	if err != nil {
		return pdf.Rendered{}, err
	}
	h := sha256.New()
	h.Write(raw)
	for i := range r.Composition.Documents {
		if ref := r.Ref(i); ref != "" {
			sum, err := st.Sum(ref)
			if err != nil {
				return pdf.Rendered{}, fmt.Errorf("derived: document %d: %w", i+1, err)
			}
			h.Write(sum[:])
		}
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if out, ok := merged.Lookup(key); ok {
		return out, nil
	}
	c := r.Composition
	for i := range c.Documents {
		if ref := r.Ref(i); ref != "" {
			if c.Documents[i].PDF, err = st.Bytes(ref); err != nil {
				return pdf.Rendered{}, fmt.Errorf("derived: document %d: %w", i+1, err)
			}
		}
	}
	out, err := pdf.Render(c)
	if err != nil {
		return pdf.Rendered{}, err
	}
	return merged.Get(key, func([sha256.Size]byte) pdf.Rendered { return out }), nil
}

// validText reports whether every text of a composition is valid UTF-8, so
// that JSON keeps it unchanged.
func validText(c *pdf.Composition) bool {
	texts := []string{c.ID, c.Title}
	if p := c.CoverPage; p != nil {
		texts = append(texts, p.To, p.From, p.Message, p.Recipient, p.Sender)
	}
	for _, d := range c.Documents {
		texts = append(texts, d.Name)
	}
	if p := c.SignaturePage; p != nil {
		for _, s := range p.Signers {
			texts = append(texts, s.Name, s.Email, s.Status, s.Signature)
		}
	}
	for _, s := range c.Stamps {
		texts = append(texts, s.Text, s.Kind)
	}
	for _, a := range c.Audit {
		texts = append(texts, a.Actor, a.Action, a.Detail)
	}
	for _, t := range texts {
		if !utf8.ValidString(t) {
			return false
		}
	}
	return true
}
