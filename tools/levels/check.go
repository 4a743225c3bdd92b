package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
)

// pkg is what the check needs of one package of the module.
type pkg struct {
	Path        string   // relative to module
	Imports     []string // of the non-test files
	TestImports []string // of the test files, in-package and external
}

// graph is the module's packages and, for every package imported by any of
// them (tests included), the module it comes from ("" for the standard
// library).
type graph struct {
	pkgs     []pkg
	moduleOf map[string]string
}

// listed is the part of `go list -json` output the check reads.
type listed struct {
	ImportPath   string
	ForTest      string
	Standard     bool
	Module       *struct{ Path string }
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// load runs go list over every package of the module in dir, with the
// dependencies of their tests.
func load(dir string) (*graph, error) {
	cmd := exec.Command("go", "list", "-deps", "-test",
		"-json=ImportPath,ForTest,Standard,Module,Imports,TestImports,XTestImports", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.Bytes())
	}
	return parse(bytes.NewReader(out))
}

// parse reads the stream of JSON objects go list writes.
func parse(r io.Reader) (*graph, error) {
	g := &graph{moduleOf: map[string]string{}}
	dec := json.NewDecoder(r)
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		// Test variants are named "path [pkg.test]"; the module is the same.
		path, _, _ := strings.Cut(p.ImportPath, " ")
		if p.Module != nil && !p.Standard {
			g.moduleOf[path] = p.Module.Path
		} else {
			g.moduleOf[path] = ""
		}
		if p.ForTest != "" || p.Module == nil || p.Module.Path != module || strings.HasSuffix(path, ".test") {
			continue
		}
		g.pkgs = append(g.pkgs, pkg{
			Path:        rel(path),
			Imports:     p.Imports,
			TestImports: slices.Concat(p.TestImports, p.XTestImports),
		})
	}
	slices.SortFunc(g.pkgs, func(a, b pkg) int { return strings.Compare(a.Path, b.Path) })
	return g, nil
}

// rel is an import path of the module relative to it ("." for its root).
func rel(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// check returns every breach of the levels in g, and every package the
// table lacks or names without its existing.
func check(g *graph, table []level) []string {
	levelOf := map[string]int{}
	for i, l := range table {
		for _, p := range l.packages {
			levelOf[p] = i
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range g.pkgs {
		seen[p.Path] = true
		at, ok := levelOf[p.Path]
		if !ok {
			out = append(out, fmt.Sprintf("package %s has no level: place it in tools/levels/levels.go", p.Path))
			continue
		}
		for _, imp := range dedup(p.Imports) {
			if why := refuse(g, table, levelOf, at, p.Path, imp, false); why != "" {
				out = append(out, why)
			}
		}
		for _, imp := range dedup(p.TestImports) {
			if why := refuse(g, table, levelOf, at, p.Path, imp, true); why != "" {
				out = append(out, why)
			}
		}
	}
	for _, l := range table {
		for _, p := range l.packages {
			if !seen[p] {
				out = append(out, fmt.Sprintf("level %q names %s, which has no Go files", l.name, p))
			}
		}
	}
	return out
}

// refuse says why the package at level at may not import imp ("" if it may).
func refuse(g *graph, table []level, levelOf map[string]int, at int, from, imp string, test bool) string {
	what, verb := from, "imports"
	if test {
		what, verb = "the tests of "+from, "import"
	}
	mod, known := g.moduleOf[imp]
	switch {
	case !known:
		return fmt.Sprintf("%s %s %s, which go list did not describe", what, verb, imp)
	case mod == "":
		return ""
	case mod == module:
		to := rel(imp)
		lv, ok := levelOf[to]
		switch {
		case !ok:
			return "" // reported as a package without a level
		case lv < at, test && (to == from || table[lv].forTests):
			return ""
		}
		return fmt.Sprintf("%s (level %d, %s) %s %s (level %d, %s): only lower levels may be imported",
			what, at, table[at].name, verb, to, lv, table[lv].name)
	case slices.Contains(table[at].modules, mod):
		return ""
	case test && slices.Contains(testOnly, mod):
		return ""
	case test && slices.ContainsFunc(table[:at+1], func(l level) bool { return slices.Contains(l.modules, mod) }):
		return ""
	}
	return fmt.Sprintf("%s (level %d, %s) %s %s of module %s, which its level does not list",
		what, at, table[at].name, verb, imp, mod)
}

func dedup(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
