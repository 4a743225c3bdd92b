// Command notices writes THIRD_PARTY_NOTICES: the licence and notice files
// of every Go module linked into the signsandbox binary on any release
// platform, of the Go standard library, and of what the repository vendors
// (PDF.js), with each component's version and where its source is.
//
//	go run ./tools/notices       print the notices
//	go run ./tools/notices -w    rewrite THIRD_PARTY_NOTICES
//
// It reads the module cache (go mod download fills it) and needs no
// network. A licence it cannot name stops it, so that a new dependency's
// licence is read by someone before the binary ships it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// noticesFile is the generated file, at the repository's root.
const noticesFile = "THIRD_PARTY_NOTICES"

func main() {
	write := flag.Bool("w", false, "rewrite "+noticesFile+" instead of printing")
	flag.Parse()
	root, err := repoRoot()
	if err == nil {
		var out bytes.Buffer
		if err = generate(root, "go", &out); err == nil {
			if *write {
				err = os.WriteFile(filepath.Join(root, noticesFile), out.Bytes(), 0o644)
			} else {
				_, err = os.Stdout.Write(out.Bytes())
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "notices:", err)
		os.Exit(1)
	}
}

// repoRoot is the directory of the main module's go.mod.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the signsandbox module")
	}
	return filepath.Dir(gomod), nil
}
