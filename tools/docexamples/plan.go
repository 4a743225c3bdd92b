package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// What the runner does with a block.
type action int

const (
	actRun     action = iota // run in the page's session
	actSkip                  // listed with its reason
	actCompare               // compared with a repository file
)

// A step is a block and what the runner does with it.
type step struct {
	block
	Act    action
	Reason string // why a block is skipped
	Runner string // shell, node, python, ruby, php, go
}

// languages maps an info string's language to the runner of its blocks.
var languages = map[string]string{
	"sh": "shell", "bash": "shell", "shell": "shell",
	"js": "node", "javascript": "node", "mjs": "node", "cjs": "node",
	"python": "python", "py": "python",
	"ruby": "ruby", "rb": "ruby",
	"php": "php",
	"go":  "go",
}

// runtimes says which runners this machine has, and why not where it has
// none (set once at start by probe).
type runtimes struct {
	missing map[string]string // runner or SDK → reason it cannot run
	env     []string          // what the SDKs found need in a session's environment
}

// need returns why a block cannot run here, or "".
func (rt runtimes) need(what ...string) string {
	for _, w := range what {
		if r, ok := rt.missing[w]; ok {
			return r
		}
	}
	return ""
}

var (
	nodeSDKRe   = regexp.MustCompile(`require\(['"]@dropbox/sign['"]\)|from ['"]@dropbox/sign['"]`)
	nodeLegacy  = regexp.MustCompile(`require\(['"]hellosign-sdk['"]\)`)
	pythonSDKRe = regexp.MustCompile(`(?m)^\s*(import|from) dropbox_sign`)
)

// plan decides what to do with a block.
func plan(b block, rt runtimes) (step, error) {
	s := step{block: b, Runner: languages[b.Lang]}
	switch {
	case b.SameAs != "":
		s.Act = actCompare
		return s, nil
	case b.NotRun != "":
		s.Act, s.Reason = actSkip, b.NotRun
		return s, nil
	case b.Recipe != "":
		s.Act, s.Reason = actSkip, "container recipe "+b.Recipe+": needs a container engine; deploy/recipes checks it"
		return s, nil
	case s.Runner == "" && b.Lang == "":
		s.Act, s.Reason = actSkip, "no language: text or output"
		return s, nil
	case s.Runner == "":
		s.Act, s.Reason = actSkip, b.Lang+": not a language the runner runs"
		return s, nil
	}
	if s.Runner == "go" && !strings.HasPrefix(strings.TrimLeft(b.Code, "\n"), "package ") {
		return s, fmt.Errorf("%s: a Go block runs as a whole file: start it with its package clause, or mark it <!-- not run: REASON -->", b.Where())
	}
	needs := []string{s.Runner}
	switch {
	case s.Runner == "node" && nodeSDKRe.MatchString(b.Code):
		needs = append(needs, "node:@dropbox/sign")
	case s.Runner == "node" && nodeLegacy.MatchString(b.Code):
		needs = append(needs, "node:hellosign-sdk")
	case s.Runner == "python" && pythonSDKRe.MatchString(b.Code):
		needs = append(needs, "python:sdk")
	case s.Runner == "ruby" || s.Runner == "php":
		needs = append(needs, s.Runner+":sdk")
	}
	if why := rt.need(needs...); why != "" {
		s.Act, s.Reason = actSkip, why
		return s, nil
	}
	s.Act = actRun
	return s, nil
}

// compare checks a same-as block against its file.
func compare(root string, s step) error {
	want, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.SameAs)))
	if err != nil {
		return fmt.Errorf("%s: same as %s: %v", s.Where(), s.SameAs, err)
	}
	if strings.TrimRight(string(want), "\n") != strings.TrimRight(s.Code, "\n") {
		return fmt.Errorf("%s: the block differs from %s; copy the file into the page again", s.Where(), s.SameAs)
	}
	return nil
}
