package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "../.."

// TestModuleKeepsItsLevels: every package of the module (sandbox/, cmd/,
// tools/, the data packages), its test files included, imports only
// packages of lower levels and the third-party modules its level lists.
func TestModuleKeepsItsLevels(t *testing.T) {
	g, err := load(root)
	require.NoError(t, err)
	require.NotEmpty(t, g.pkgs)
	for _, p := range check(g, levels) {
		t.Error(p)
	}
}

// TestDocShowsTheLevels: docs/architecture.md holds the table levels.go
// has; go run ./tools/levels -w rewrites it.
func TestDocShowsTheLevels(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, docFile))
	require.NoError(t, err)
	want, err := withTable(doc, table(levels))
	require.NoError(t, err)
	if string(doc) != string(want) {
		t.Fatalf("%s does not show the levels of tools/levels/levels.go: run go run ./tools/levels -w", docFile)
	}
}

// TestEveryPackageHasOneLevel: no package is listed twice, and every level
// says what it holds.
func TestEveryPackageHasOneLevel(t *testing.T) {
	seen := map[string]int{}
	for i, l := range levels {
		assert.NotEmpty(t, l.name)
		assert.NotEmpty(t, l.doc, "level %d", i)
		for _, p := range l.packages {
			if prev, ok := seen[p]; ok {
				t.Errorf("%s is on levels %d and %d", p, prev, i)
			}
			seen[p] = i
		}
	}
}

// TestCheckNamesEachBreach runs the check on a small made-up module.
func TestCheckNamesEachBreach(t *testing.T) {
	stream := `
{"ImportPath":"fmt","Standard":true}
{"ImportPath":"github.com/stretchr/testify/require","Module":{"Path":"github.com/stretchr/testify"}}
{"ImportPath":"github.com/hashicorp/go-memdb","Module":{"Path":"github.com/hashicorp/go-memdb"}}
{"ImportPath":"github.com/gorilla/mux","Module":{"Path":"github.com/gorilla/mux"}}
{"ImportPath":"github.com/signsandbox/signsandbox/low","Module":{"Path":"github.com/signsandbox/signsandbox"},
 "Imports":["fmt","github.com/hashicorp/go-memdb"],
 "TestImports":["github.com/stretchr/testify/require","github.com/signsandbox/signsandbox/kit"],
 "XTestImports":["github.com/signsandbox/signsandbox/low","github.com/signsandbox/signsandbox/high"]}
{"ImportPath":"github.com/signsandbox/signsandbox/low [github.com/signsandbox/signsandbox/low.test]","ForTest":"github.com/signsandbox/signsandbox/low","Module":{"Path":"github.com/signsandbox/signsandbox"}}
{"ImportPath":"github.com/signsandbox/signsandbox/high","Module":{"Path":"github.com/signsandbox/signsandbox"},
 "Imports":["github.com/signsandbox/signsandbox/low","github.com/signsandbox/signsandbox/high/peer","github.com/hashicorp/go-memdb"],
 "TestImports":["github.com/gorilla/mux"]}
{"ImportPath":"github.com/signsandbox/signsandbox/high/peer","Module":{"Path":"github.com/signsandbox/signsandbox"}}
{"ImportPath":"github.com/signsandbox/signsandbox/kit","Module":{"Path":"github.com/signsandbox/signsandbox"},"Imports":["github.com/signsandbox/signsandbox/high"]}
{"ImportPath":"github.com/signsandbox/signsandbox/stray","Module":{"Path":"github.com/signsandbox/signsandbox"}}
`
	g, err := parse(strings.NewReader(stream))
	require.NoError(t, err)
	table := []level{
		{name: "leaves", packages: []string{"low"}, modules: []string{"github.com/hashicorp/go-memdb"}},
		{name: "top", packages: []string{"high", "high/peer", "gone"}},
		{name: "kits", packages: []string{"kit"}, forTests: true},
	}
	assert.Equal(t, []string{
		"high (level 1, top) imports github.com/hashicorp/go-memdb of module github.com/hashicorp/go-memdb, which its level does not list",
		"high (level 1, top) imports high/peer (level 1, top): only lower levels may be imported",
		"the tests of high (level 1, top) import github.com/gorilla/mux of module github.com/gorilla/mux, which its level does not list",
		"the tests of low (level 0, leaves) import high (level 1, top): only lower levels may be imported",
		"package stray has no level: place it in tools/levels/levels.go",
		`level "top" names gone, which has no Go files`,
	}, check(g, table))
}
