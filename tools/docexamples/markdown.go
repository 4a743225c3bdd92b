package main

import (
	"fmt"
	"regexp"
	"strings"
)

// A block is one fenced code block of a Markdown page, with the markers
// written in HTML comments just before it (invisible where the page is
// rendered):
//
//	<!-- not run: REASON -->            never run; listed with REASON
//	<!-- run: background, ready URL --> a server: started in the background,
//	                                    the next block waits until URL answers 200
//	<!-- run: in checkout -->           run in the repository, not in the work directory
//	<!-- same as: PATH -->              not run: must equal the repository's file PATH
//	<!-- recipe: NAME -->               not run: a container recipe, which needs an engine;
//	                                    deploy/recipes checks it by NAME
//
// and the checks written after it, run in the same shell once it has run:
//
//	<!-- check: SHELL COMMAND -->
type block struct {
	Page   string // path relative to the repository
	Line   int    // of the opening fence, from 1
	Lang   string // first word of the info string, lower case
	Code   string // the content, without the fence's indentation
	NotRun string // reason given by a not-run marker
	Ready  string // URL of a background block's readiness
	InRepo bool   // run in the repository checkout
	SameAs string // file the block must equal
	Recipe string // container recipe checked by deploy/recipes
	Checks []string
}

// Where reports the block as page:line.
func (b block) Where() string { return fmt.Sprintf("%s:%d", b.Page, b.Line) }

// Background reports whether the block starts a server.
func (b block) Background() bool { return b.Ready != "" }

var (
	fenceRe  = regexp.MustCompile("^( *)(```+|~~~+)\\s*([^`\\s]*)")
	markerRe = regexp.MustCompile(`^\s*<!--\s*([a-z_ -]+):\s*(.*?)\s*-->\s*$`)
	readyRe  = regexp.MustCompile(`^background,\s*ready\s+(\S+)$`)
)

// parsePage returns the fenced blocks of a page with their markers. A
// marker that names no block, or that it does not understand, is an error:
// a misspelt marker must not make a block run, or not run, by accident.
func parsePage(page, text string) ([]block, error) {
	lines := strings.Split(text, "\n")
	var blocks []block
	var pending []marker // markers seen since the last block
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := markerRe.FindStringSubmatch(line); m != nil {
			key, value := m[1], m[2]
			if key == "check" {
				if len(blocks) == 0 {
					return nil, fmt.Errorf("%s:%d: a check before any block", page, i+1)
				}
				last := &blocks[len(blocks)-1]
				last.Checks = append(last.Checks, value)
				continue
			}
			pending = append(pending, marker{fmt.Sprintf("%s:%d", page, i+1), key, value})
			continue
		}
		f := fenceRe.FindStringSubmatch(line)
		if f == nil {
			if strings.TrimSpace(line) != "" && len(pending) > 0 {
				return nil, fmt.Errorf("%s: the marker is not followed by a code block", pending[0].where)
			}
			continue
		}
		indent, fence, lang := len(f[1]), f[2], strings.ToLower(f[3])
		b := block{Page: page, Line: i + 1, Lang: lang}
		var code []string
		closed := false
		for i++; i < len(lines); i++ {
			l := lines[i]
			trimmed := strings.TrimLeft(l, " ")
			if strings.HasPrefix(trimmed, fence[:1]) && strings.Trim(trimmed, fence[:1]+" \t") == "" &&
				len(strings.TrimRight(trimmed, " \t")) >= len(fence) {
				closed = true
				break
			}
			code = append(code, strings.TrimPrefix(l, strings.Repeat(" ", min(indent, len(l)-len(trimmed)))))
		}
		if !closed {
			return nil, fmt.Errorf("%s:%d: the code block is never closed", page, b.Line)
		}
		b.Code = strings.Join(code, "\n") + "\n"
		if err := b.apply(pending); err != nil {
			return nil, err
		}
		pending = nil
		blocks = append(blocks, b)
	}
	if len(pending) > 0 {
		return nil, fmt.Errorf("%s: the marker is not followed by a code block", pending[0].where)
	}
	return blocks, nil
}

// A marker is one HTML comment before a block.
type marker struct{ where, key, value string }

// apply sets the markers written before the block.
func (b *block) apply(markers []marker) error {
	for _, m := range markers {
		key, value := m.key, m.value
		switch {
		case key == "not run" && value != "":
			b.NotRun = value
		case key == "run" && value == "in checkout":
			b.InRepo = true
		case key == "run" && readyRe.MatchString(value):
			b.Ready = readyRe.FindStringSubmatch(value)[1]
		case key == "same as" && value != "":
			b.SameAs = value
		case key == "recipe" && value != "":
			b.Recipe = value
		default:
			return fmt.Errorf("%s: unknown marker %q (want not run: REASON, run: background, ready URL, run: in checkout, same as: PATH, recipe: NAME, check: COMMAND)", m.where, key+": "+value)
		}
	}
	if b.Background() && !isShell(b.Lang) {
		return fmt.Errorf("%s: only a shell block can run in the background", b.Where())
	}
	return nil
}

// isShell reports whether a block's language is a shell's.
func isShell(lang string) bool {
	return lang == "sh" || lang == "bash" || lang == "shell"
}
