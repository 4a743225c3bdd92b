package main

// `go install github.com/signsandbox/signsandbox/cmd/signsandbox@v1.2.3`
// builds from the module zip the Go module proxy serves, and a module zip
// leaves files out: everything below a directory named vendor, the files
// of nested modules, files with names it refuses. These tests make that zip
// from the checkout with golang.org/x/mod/zip, the code the go command and
// the proxy use, so that what `go install` builds is what the tests built.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

const modulePath = "github.com/signsandbox/signsandbox"

// checkoutFile is a file of the checkout, for golang.org/x/mod/zip.
type checkoutFile struct{ root, path string }

func (f checkoutFile) Path() string                 { return f.path }
func (f checkoutFile) Lstat() (os.FileInfo, error)  { return os.Lstat(filepath.Join(f.root, f.path)) }
func (f checkoutFile) Open() (io.ReadCloser, error) { return os.Open(filepath.Join(f.root, f.path)) }

// moduleFiles are the files a release tags: those git tracks, and the new
// ones it does not ignore (so that a change not yet committed is tested).
// Files deleted but not yet committed are left out.
func moduleFiles(t *testing.T) []modzip.File {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files: %v: the module's files are what git lists", err)
	}
	var files []modzip.File
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if _, err := os.Lstat(filepath.Join(repoRoot, p)); err == nil {
			files = append(files, checkoutFile{repoRoot, p})
		}
	}
	return files
}

// Every file a package of the module embeds is in the module zip: a file
// the zip leaves out would be missing from a binary built with go install
// (as PDF.js was while it lay below assets/vendor/).
func TestModuleZipHoldsEveryEmbeddedFile(t *testing.T) {
	checked, err := modzip.CheckFiles(moduleFiles(t))
	require.NoError(t, err, "the module zip would refuse files: %v", checked.Invalid)
	omitted := map[string]error{}
	for _, o := range checked.Omitted {
		omitted[o.Path] = o.Err
	}
	inZip := map[string]bool{}
	for _, p := range checked.Valid {
		inZip[p] = true
	}

	list := exec.Command("go", "list", "-json=ImportPath,Dir,EmbedFiles", "./...")
	list.Dir = repoRoot
	out, err := list.Output()
	require.NoError(t, err)
	abs, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	embeds := 0
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var pkg struct {
			ImportPath string
			Dir        string
			EmbedFiles []string
		}
		require.NoError(t, dec.Decode(&pkg))
		for _, f := range pkg.EmbedFiles {
			rel, err := filepath.Rel(abs, filepath.Join(pkg.Dir, f))
			require.NoError(t, err)
			rel = filepath.ToSlash(rel)
			embeds++
			assert.True(t, inZip[rel], "%s embeds %s, which the module zip leaves out (%v)", pkg.ImportPath, rel, omitted[rel])
		}
	}
	assert.Greater(t, embeds, 10, "the console, pages, fixtures and scenarios embed files")
}

// go install ...@v1.98.7 from a module proxy (a directory here, holding the
// zip of this checkout) prints that version, and its console has PDF.js.
// Only this module comes from that proxy; its dependencies come from the
// module cache, so the test needs no network.
func TestGoInstallAtVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	const version = "v1.98.7"
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	dir := filepath.Join(proxy, filepath.FromSlash(modulePath), "@v")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	var zipped bytes.Buffer
	require.NoError(t, modzip.Create(&zipped, module.Version{Path: modulePath, Version: version}, moduleFiles(t)))
	gomod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	require.NoError(t, err)
	for name, body := range map[string][]byte{
		version + ".zip":  zipped.Bytes(),
		version + ".mod":  gomod,
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`),
		"list":            []byte(version + "\n"),
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), body, 0o644))
	}

	modcache := goEnv(t, "GOMODCACHE")
	install := exec.Command("go", "install", "-trimpath", modulePath+"/cmd/signsandbox@"+version)
	install.Env = append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")),
		"GOMODCACHE="+filepath.Join(tmp, "modcache"), // the fake release stays out of the real cache
		"GOFLAGS=-modcacherw", "GOSUMDB=off", "GOPRIVATE=", "GONOPROXY=", "GONOSUMDB=",
		"GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOBIN="+filepath.Join(tmp, "bin"),
	)
	out, err := install.CombinedOutput()
	require.NoError(t, err, "go install: %s", out)
	bin := filepath.Join(tmp, "bin", "signsandbox")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}

	want := "signsandbox 1.98.7 (" + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	assert.Equal(t, want, versionLine(t, bin), "the module version, and no commit: the proxy's zip has none")
	banner, health, base := serveVersions(t, bin)
	assert.Equal(t, "1.98.7", banner)
	assert.Equal(t, "1.98.7", health)
	resp, err := http.Get(base + "/_sandbox/console/vendor/pdfjs/pdf.min.mjs")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the console's PDF.js is in the installed binary")
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}
