package scenario

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-yaml/lexer"
)

// FuzzParse feeds the parser arbitrary documents: it never panics, and a
// refusal always names the file.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../../scenarios/*.yaml")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("name: x\nsteps: [{call: accountGet}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("fuzz.yaml", data, testVocabulary())
		if err == nil {
			return
		}
		se, ok := err.(*Error)
		if !ok || len(se.Issues) == 0 || se.Issues[0].File != "fuzz.yaml" {
			t.Fatalf("unexpected error %T: %v", err, err)
		}
	})
}

// FuzzTokenBound checks the shape check's first pass against the YAML
// scanner: the raw count is never below the scanner's number of tokens,
// which is what makes the scanner's work bounded by the token budget.
func FuzzTokenBound(f *testing.F) {
	files, _ := filepath.Glob("../../../scenarios/*.yaml")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"a": ["x y", 'z''s', 1.5e3, !!str 2, &a b, *a]}`))
	f.Add([]byte("a: |\n  text\n  more\nb: >-\n  folded\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := len(lexer.Tokenize(string(data)))
		if _, ok := countTokens(data, n-1); ok && n > 0 {
			t.Fatalf("raw count is below the scanner's %d tokens for %q", n, data)
		}
	})
}
