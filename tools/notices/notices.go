package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/module"
)

// The binary's package, and the platforms it is released for: they must
// be the targets of .goreleaser.yaml (a test checks), since a dependency
// may be linked on one platform only.
const mainPackage = "./cmd/signsandbox"

var platforms = []string{
	"darwin/amd64", "darwin/arm64",
	"linux/amd64", "linux/arm64",
	"windows/amd64", "windows/arm64",
}

// listedPackage is what `go list -json` says of a package that this
// generator reads.
type listedPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	EmbedFiles []string
	Module     *struct {
		Path    string
		Version string
		Dir     string
		Main    bool
	}
}

// component is one entry of the notices: a module linked into the binary,
// the Go standard library, or a file set the repository vendors.
type component struct {
	Name    string // module path, or a display name
	Version string
	// Source says where the source of exactly this version is.
	Source string
	// Files are its licence and notice files, by path in the component.
	Files []noticeFile
	// Embeds are files the component's linked packages embed.
	Embeds []string
	// Note is a maintainer's remark on what the files do not say.
	Note string
}

type noticeFile struct {
	Path string
	Text string
}

// notes say what the licence files of a component do not: checked by a
// maintainer when the component came in.
var notes = map[string]string{
	"github.com/pdfcpu/pdfcpu": "The embedded font pkg/pdfcpu/model/resources/Roboto-Regular.ttf is Roboto 2.137 " +
		"(Copyright 2011 Google Inc.; Roboto is a trademark of Google), licensed under the Apache License, " +
		"Version 2.0, as its name table says.",
}

// noticeName matches the files whose text the notices carry: licences,
// notices and patent grants, at a module's root or in the directory of a
// linked package.
var noticeName = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)([.-].*)?$`)

// collect lists the components linked into the binary on any release
// platform, sorted by name, the Go standard library first.
func collect(root, goTool string) ([]component, error) {
	modules := map[string]*component{}
	var std *component
	for _, p := range platforms {
		goos, goarch, _ := strings.Cut(p, "/")
		pkgs, err := listDeps(root, goTool, goos, goarch)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, pkg := range pkgs {
			switch {
			case pkg.Standard:
				if std == nil {
					if std, err = standardLibrary(goTool); err != nil {
						return nil, err
					}
				}
			case pkg.Module == nil:
				return nil, fmt.Errorf("package %s has no module", pkg.ImportPath)
			case pkg.Module.Main:
				// signsandbox itself: LICENSE.
			default:
				if err := addPackage(modules, pkg); err != nil {
					return nil, err
				}
			}
		}
	}
	if std == nil {
		return nil, errors.New("go list named no standard package")
	}
	out := []component{*std}
	for _, name := range slices.Sorted(maps.Keys(modules)) {
		c := modules[name]
		slices.SortFunc(c.Files, func(a, b noticeFile) int { return strings.Compare(a.Path, b.Path) })
		c.Files = slices.CompactFunc(c.Files, func(a, b noticeFile) bool { return a.Path == b.Path })
		slices.Sort(c.Embeds)
		c.Embeds = slices.Compact(c.Embeds)
		out = append(out, *c)
	}
	return out, nil
}

// listDeps runs go list for the binary's dependencies on one platform, as
// a release builds them (CGO_ENABLED=0).
func listDeps(root, goTool, goos, goarch string) ([]listedPackage, error) {
	cmd := exec.Command(goTool, "list", "-deps", "-json=ImportPath,Dir,Standard,EmbedFiles,Module", mainPackage)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=-mod=readonly")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
}

// addPackage records a linked package's module, with the notice files at
// the module's root and in the package's directory.
func addPackage(modules map[string]*component, pkg listedPackage) error {
	m := pkg.Module
	if m.Dir == "" {
		return fmt.Errorf("module %s@%s is not in the module cache: run go mod download", m.Path, m.Version)
	}
	c := modules[m.Path]
	if c == nil {
		c = &component{Name: m.Path, Version: m.Version, Source: proxyZip(m.Path, m.Version), Note: notes[m.Path]}
		files, err := noticeFiles(m.Dir, "")
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("module %s@%s has no licence file at its root", m.Path, m.Version)
		}
		c.Files = files
		modules[m.Path] = c
	}
	rel, err := filepath.Rel(m.Dir, pkg.Dir)
	if err != nil {
		return err
	}
	if rel = filepath.ToSlash(rel); rel != "." {
		files, err := noticeFiles(pkg.Dir, rel)
		if err != nil {
			return err
		}
		c.Files = append(c.Files, files...)
	}
	for _, e := range pkg.EmbedFiles {
		c.Embeds = append(c.Embeds, path.Join(rel, e))
	}
	return nil
}

// noticeFiles reads the notice files of one directory; prefix is the
// directory's path in its component.
func noticeFiles(dir, prefix string) ([]noticeFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []noticeFile
	for _, e := range entries {
		if e.IsDir() || !noticeName.MatchString(e.Name()) {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, noticeFile{Path: path.Join(prefix, e.Name()), Text: string(text)})
	}
	return out, nil
}

// standardLibrary is the Go distribution's licence and patent grant: the
// runtime and standard packages are linked into every Go binary.
func standardLibrary(goTool string) (*component, error) {
	out, err := exec.Command(goTool, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	files, err := noticeFiles(strings.TrimSpace(string(out)), "")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no LICENSE in GOROOT")
	}
	return &component{
		Name:    "The Go standard library and runtime",
		Version: "the Go release that built the binary (signsandbox version names it)",
		Source:  "https://go.dev/dl/",
		Files:   files,
	}, nil
}

// pdfjsDir holds the PDF.js build the console embeds, its licence and a
// README naming the version.
const pdfjsDir = "sandbox/internal/console/assets/pdfjs"

var pdfjsVersion = regexp.MustCompile(`pdfjs-dist at version (\S+?)[,:]`)

// vendored lists what the repository vendors besides Go modules.
func vendored(root string) ([]component, error) {
	dir := filepath.Join(root, filepath.FromSlash(pdfjsDir))
	readme, err := os.ReadFile(filepath.Join(dir, "README.txt"))
	if err != nil {
		return nil, err
	}
	m := pdfjsVersion.FindSubmatch(readme)
	if m == nil {
		return nil, fmt.Errorf("%s/README.txt does not name the pdfjs-dist version", pdfjsDir)
	}
	files, err := noticeFiles(dir, "")
	if err != nil {
		return nil, err
	}
	return []component{{
		Name:    "PDF.js (Mozilla)",
		Version: "pdfjs-dist " + string(m[1]),
		Source:  "https://registry.npmjs.org/pdfjs-dist/-/pdfjs-dist-" + string(m[1]) + ".tgz",
		Files:   files,
		Embeds:  []string{"build/pdf.min.mjs and build/pdf.worker.min.mjs, unmodified, in " + pdfjsDir + " (the console's document viewer)"},
	}}, nil
}

// proxyZip is the URL of a module version's source on the Go module proxy.
func proxyZip(modPath, version string) string {
	p, err := module.EscapePath(modPath)
	if err != nil {
		p = modPath
	}
	v, err := module.EscapeVersion(version)
	if err != nil {
		v = version
	}
	return "https://proxy.golang.org/" + p + "/@v/" + v + ".zip"
}

// licenceMarks tell licences apart by phrases their texts carry. A text
// that carries none of them stops the generator: someone must read it and
// decide whether signsandbox may ship it before adding its mark here.
var licenceMarks = []struct {
	id      string
	phrases []string
}{
	{"Apache-2.0", []string{"Apache License", "Version 2.0"}},
	{"MPL-2.0", []string{"Mozilla Public License", "2.0"}},
	{"MIT", []string{"Permission is hereby granted, free of charge"}},
	{"BSD-3-Clause", []string{"Redistribution and use in source and binary forms", "Neither the name"}},
	{"BSD-2-Clause", []string{"Redistribution and use in source and binary forms"}},
}

// classify names the licences of a licence text, in SPDX terms ("MIT AND
// Apache-2.0" when the text holds two).
func classify(text string) (string, error) {
	text = strings.Join(strings.Fields(text), " ")
	var ids []string
	for _, l := range licenceMarks {
		all := true
		for _, p := range l.phrases {
			all = all && strings.Contains(text, p)
		}
		if all && !(l.id == "BSD-2-Clause" && slices.Contains(ids, "BSD-3-Clause")) {
			ids = append(ids, l.id)
		}
	}
	if len(ids) == 0 {
		return "", errors.New("unknown licence")
	}
	return strings.Join(ids, " AND "), nil
}

// licence names a component's licences from its licence files (notices
// and patent grants name none).
func licence(c component) (string, error) {
	var ids []string
	for _, f := range c.Files {
		base := strings.ToLower(path.Base(f.Path))
		if strings.HasPrefix(base, "notice") || strings.HasPrefix(base, "patents") {
			continue
		}
		id, err := classify(f.Text)
		if err != nil {
			return "", fmt.Errorf("%s: %s: %w: read it, and if it allows shipping the binary, add a mark for it to licenceMarks", c.Name, f.Path, err)
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "", fmt.Errorf("%s: no licence file", c.Name)
	}
	return strings.Join(ids, ", "), nil
}

const rule = "================================================================================"

// render writes the notices file.
func render(w io.Writer, components []component) error {
	ids := make([]string, len(components))
	width := 0
	for i, c := range components {
		id, err := licence(c)
		if err != nil {
			return err
		}
		ids[i] = id
		width = max(width, len(c.Name))
	}
	fmt.Fprint(w, `Third-party software in signsandbox

signsandbox is under the MIT licence (LICENSE). Its binaries (the release
archives, the container image and the npm packages) also carry the software
below, under the licences that follow. Each Go module is linked unmodified,
and its source is available at the address given with it.

This file is generated by "go run ./tools/notices -w" from the modules linked
into cmd/signsandbox on every release platform; a test fails when it is out
of date.

`)
	for i, c := range components {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.Name, ids[i])
	}
	for i, c := range components {
		fmt.Fprintf(w, "\n%s\n%s\n\n", rule, c.Name)
		fmt.Fprintf(w, "Version:  %s\nLicence:  %s\nSource:   %s\n", c.Version, ids[i], c.Source)
		for _, e := range c.Embeds {
			fmt.Fprint(w, wrap("Embeds:   ", e))
		}
		if c.Note != "" {
			fmt.Fprint(w, wrap("Note:     ", c.Note))
		}
		for _, f := range c.Files {
			fmt.Fprintf(w, "\n----- %s -----\n\n%s\n", f.Path, strings.Trim(strings.ReplaceAll(f.Text, "\r\n", "\n"), "\n"))
		}
	}
	return nil
}

// generate renders the notices of the repository at root.
func generate(root, goTool string, w io.Writer) error {
	mods, err := collect(root, goTool)
	if err != nil {
		return err
	}
	vend, err := vendored(root)
	if err != nil {
		return err
	}
	return render(w, append(mods, vend...))
}

// wrap writes a labelled paragraph in lines of at most 80 characters,
// indented under its label.
func wrap(label, text string) string {
	var b strings.Builder
	line := label
	for _, word := range strings.Fields(text) {
		if len(line)+1+len(word) > 80 && len(line) > len(label) {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", len(label))
		} else if len(line) > len(label) {
			line += " "
		}
		line += word
	}
	return b.String() + line + "\n"
}
