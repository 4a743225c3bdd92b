// Package scenarios is the library of ready scenario files, embedded in the
// binary so that they load by name: signsandbox --scenario NAME's file,
// POST /_sandbox/worlds {"scenarios": ["happy-path"]}, or
// `signsandbox run` on the files themselves. README.md documents the
// format; each file has a test that proves it does what its name says.
package scenarios

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

// FS holds the ready scenario files.
//
//go:embed *.yaml
var FS embed.FS

// Names lists the ready scenarios, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(FS, ".")
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Read returns the file of a ready scenario by name.
func Read(name string) ([]byte, error) {
	if strings.ContainsAny(name, "/\\") {
		return nil, fs.ErrNotExist
	}
	return FS.ReadFile(name + ".yaml")
}
