package main

import (
	"strings"
	"testing"
)

func TestParsePageMarkers(t *testing.T) {
	page := strings.Join([]string{
		"# Page",
		"<!-- not run: needs a release -->",
		"```sh",
		"go install example.com/x@latest",
		"```",
		"<!-- run: background, ready http://127.0.0.1:8080/_sandbox/ready -->",
		"```sh",
		"signsandbox",
		"```",
		"<!-- check: test -n \"$X\" -->",
		"<!-- recipe: compose.yaml -->",
		"<!-- same as: compose.yaml -->",
		"```yaml",
		"name: x",
		"```",
		"```",
		"output",
		"```",
	}, "\n")
	blocks, err := parsePage("p.md", page)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 4 {
		t.Fatalf("%d blocks, want 4", len(blocks))
	}
	if blocks[0].NotRun != "needs a release" || blocks[0].Line != 3 {
		t.Errorf("block 1: %+v", blocks[0])
	}
	if blocks[1].Ready != "http://127.0.0.1:8080/_sandbox/ready" || len(blocks[1].Checks) != 1 {
		t.Errorf("block 2: %+v", blocks[1])
	}
	if blocks[2].Recipe != "compose.yaml" || blocks[2].SameAs != "compose.yaml" || blocks[2].Code != "name: x\n" {
		t.Errorf("block 3: %+v", blocks[2])
	}
	s, err := plan(blocks[3], runtimes{})
	if err != nil || s.Act != actSkip {
		t.Errorf("a block without a language is skipped: %+v, %v", s, err)
	}
}

// A misspelt marker must not make a block run, or not run, by accident.
func TestParsePageRefusesUnknownMarkers(t *testing.T) {
	for _, page := range []string{
		"<!-- not-run: x -->\n```sh\nls\n```\n",
		"<!-- not run: x -->\n\ntext\n```sh\nls\n```\n",
		"<!-- check: ls -->\n",
		"```sh\nls\n",
	} {
		if _, err := parsePage("p.md", page); err == nil {
			t.Errorf("no error for %q", page)
		}
	}
}
