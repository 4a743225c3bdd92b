package scenario

import (
	"os"
	"path/filepath"
	"testing"
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
