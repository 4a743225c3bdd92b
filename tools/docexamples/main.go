// Command docexamples runs the examples of the README and the docs/ pages
// as a reader pastes them, against the sandbox built from this checkout, and
// lists every block it did not run with the reason.
//
//	go run ./tools/docexamples [--binary bin/signsandbox] [--jobs 2] [PAGE.md...]
//
// Each page's blocks run in order in one bash session (see session.go);
// markers in HTML comments before a block say what is not run and why
// (markdown.go). The official Python, Ruby and PHP SDKs, which no registry
// reachable from CI has, are used when SIGNSANDBOX_DOCS_SDKS names the
// sdks/ folder of the official hellosign-openapi repository; without it
// their blocks are listed as skipped.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

type config struct {
	root        string // the repository checkout
	binary      string // the signsandbox binary the blocks run
	nodeModules string // where @dropbox/sign and hellosign-sdk are installed
	sdks        string // the official SDKs' sdks/ folder, or ""
	tmp         string // work directories
	rt          runtimes
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("docexamples", flag.ContinueOnError)
	binary := fs.String("binary", "", "signsandbox binary to run (default: built from the checkout)")
	jobs := fs.Int("jobs", 2, "pages run at once")
	keep := fs.Bool("keep", false, "keep the work directories (their path is printed)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "docexamples:", err)
		return 2
	}
	cfg := &config{root: root, nodeModules: filepath.Join(root, "e2e", "node_modules"), sdks: os.Getenv("SIGNSANDBOX_DOCS_SDKS")}
	cfg.tmp, err = os.MkdirTemp("", "docexamples-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "docexamples:", err)
		return 2
	}
	if *keep {
		fmt.Println("work directories:", cfg.tmp)
	} else {
		defer os.RemoveAll(cfg.tmp)
	}
	if cfg.binary, err = binaryPath(root, *binary, cfg.tmp); err != nil {
		fmt.Fprintln(os.Stderr, "docexamples:", err)
		return 2
	}
	pages := fs.Args()
	if len(pages) == 0 {
		pages = defaultPages(root)
	}
	cfg.rt = probe(cfg)
	return runPages(cfg, pages, *jobs)
}

// defaultPages are the README and every page of docs/.
func defaultPages(root string) []string {
	pages := []string{"README.md"}
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, p := range more {
		rel, _ := filepath.Rel(root, p)
		pages = append(pages, filepath.ToSlash(rel))
	}
	return pages
}

// loadSteps reads and plans the blocks of pages.
func loadSteps(root string, pages []string, rt runtimes) ([]step, error) {
	var steps []step
	var errs []error
	for _, page := range pages {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		blocks, err := parsePage(page, string(text))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, b := range blocks {
			s, err := plan(b, rt)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			steps = append(steps, s)
		}
	}
	return steps, errors.Join(errs...)
}

// runPages runs the pages' blocks and prints what became of each.
func runPages(cfg *config, pages []string, jobs int) int {
	start := time.Now()
	steps, err := loadSteps(cfg.root, pages, cfg.rt)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	byPage := map[string][]step{}
	var order []string
	failed, skipped, passed := 0, 0, 0
	var skips, fails []string
	for _, s := range steps {
		switch s.Act {
		case actSkip:
			skipped++
			skips = append(skips, fmt.Sprintf("skipped  %s %s: %s", s.Where(), orNone(s.Lang), s.Reason))
		case actCompare:
			if err := compare(cfg.root, s); err != nil {
				failed++
				fails = append(fails, "FAILED   "+err.Error())
			} else {
				passed++
				fmt.Printf("same     %s %s as %s\n", s.Where(), s.Lang, s.SameAs)
			}
		case actRun:
			if _, ok := byPage[s.Page]; !ok {
				order = append(order, s.Page)
			}
			byPage[s.Page] = append(byPage[s.Page], s)
		}
	}

	results := make([]result, len(order))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, jobs))
	for i, page := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			sess, err := newSession(cfg, page, byPage[page])
			if err != nil {
				results[i] = result{failed: byPage[page][0].Line, err: err.Error()}
				return
			}
			results[i] = sess.run()
		}()
	}
	wg.Wait()

	for i, page := range order {
		res := results[i]
		if res.failed == 0 && res.err != "" { // before the first block: the session's own sandbox
			failed++
			fails = append(fails, fmt.Sprintf("FAILED   %s: before its first block:\n%s", page, indent(res.err)))
		}
		for _, s := range byPage[page] {
			switch took, ran := res.ran[s.Line]; {
			case ran:
				passed++
				fmt.Printf("ran      %s %s (%.1fs)\n", s.Where(), s.Lang, took.Seconds())
			case s.Line == res.failed:
				failed++
				fails = append(fails, fmt.Sprintf("FAILED   %s %s:\n%s", s.Where(), s.Lang, indent(res.err)))
			default:
				failed++
				fails = append(fails, fmt.Sprintf("FAILED   %s %s: not reached (a block before it failed)", s.Where(), s.Lang))
			}
		}
	}
	sort.Strings(skips)
	for _, s := range skips {
		fmt.Println(s)
	}
	for _, f := range fails {
		fmt.Println(f)
	}
	fmt.Printf("docexamples took %.1fs\n", time.Since(start).Seconds())
	fmt.Printf("docexamples: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if failed > 0 {
		return 1
	}
	return 0
}

func orNone(lang string) string {
	if lang == "" {
		return "(no language)"
	}
	return lang
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// repoRoot is the directory of go.mod above the working directory.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run it inside the repository")
	}
	return filepath.Dir(mod), nil
}

// binaryPath is the binary given, made absolute, or one built from the
// checkout.
func binaryPath(root, given, tmp string) (string, error) {
	if given != "" {
		abs, err := filepath.Abs(given)
		if err != nil {
			return "", err
		}
		_, err = os.Stat(abs)
		return abs, err
	}
	out := filepath.Join(tmp, "signsandbox")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/signsandbox")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the binary: %v", err)
	}
	return out, nil
}
