package sandbox_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoInitFunctions keeps init functions out of the library's packages:
// what a package sets up is called from a place a reader can follow (a
// constructor, a once, or one declared list such as internal/state's
// tables.go), never in an order decided by file names. Commands (cmd/,
// tools/) may register their subcommands in init functions.
func TestNoInitFunctions(t *testing.T) {
	roots := []string{".", filepath.Join("..", "scenarios"), filepath.Join("..", "fixtures")}
	fset := token.NewFileSet()
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
					assert.Failf(t, "init function", "%s has an init function", fset.Position(fn.Pos()))
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
}
