package scenario

import (
	"fmt"
	"io"

	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
)

// Shape budgets bound the work of parsing a scenario before a tree is built.
// The YAML parser allocates about a kilobyte per token and its cost grows
// faster than linearly with nesting (3,000 levels took 115 MB, 100,000
// levels tens of gigabytes), so a document is first scanned token by token,
// keeping nothing, and refused at the first level or token over the budget.
const (
	// MaxDocumentBytes bounds a scenario sent to the control plane or named
	// by --scenario: the ready scenarios are under 4 KB, so 1 MiB leaves
	// room for any hand-written one while keeping a parse under ~60 MB.
	MaxDocumentBytes = 1 << 20
	// MaxRunFileBytes bounds a file given to `signsandbox run`: recordings
	// carry a world state and the answers of a whole session.
	MaxRunFileBytes = 64 << 20
	// MaxDepth bounds nesting (mappings, sequences, flow collections): a
	// scenario needs about 10 levels, a recording's state about 25.
	MaxDepth = 64
	// MaxTokens bounds the tokens of a scenario (keys, values, indicators);
	// the largest ready scenario has about 600.
	MaxTokens = 50_000
	// MaxRunFileTokens bounds the tokens of a file given to run.
	MaxRunFileTokens = 1_000_000
)

// shapeBudget is what one kind of document may hold.
type shapeBudget struct {
	bytes, depth, tokens int
}

var (
	scenarioBudget = shapeBudget{bytes: MaxDocumentBytes, depth: MaxDepth, tokens: MaxTokens}
	runFileBudget  = shapeBudget{bytes: MaxRunFileBytes, depth: MaxDepth, tokens: MaxRunFileTokens}
)

// checkShape answers the first place where a document is too large, has
// too many tokens or is nested too deep, in two passes that build nothing:
// countTokens bounds the tokens from above without reading the syntax (every
// YAML token starts at an indicator or after white space), which keeps the
// second pass cheap; that pass reads the tokens with the YAML parser's own
// scanner, so that it sees the nesting exactly as the parser will. Block
// nesting is measured by the columns of the tokens that open a level (the
// first token of a line, "- " and "? "), flow nesting by brackets.
func checkShape(file string, data []byte, b shapeBudget) *Issue {
	if len(data) > b.bytes {
		return &Issue{File: file, Msg: fmt.Sprintf("the file is %d bytes, over the limit of %d", len(data), b.bytes)}
	}
	if line, ok := countTokens(data, b.tokens); !ok {
		return &Issue{File: file, Line: line, Msg: fmt.Sprintf("the file has more than %d tokens (keys, values, indicators, words)", b.tokens)}
	}
	var s scanner.Scanner
	s.Init(string(data))
	var columns []int // block levels: the columns that opened them
	flow, lastLine := 0, 0
	for scans := 0; scans <= b.tokens; scans++ {
		toks, err := s.Scan()
		if err == io.EOF {
			return nil
		}
		for _, tk := range toks {
			pos := tk.Position
			if pos == nil {
				continue
			}
			switch tk.Type {
			case token.SequenceStartType, token.MappingStartType:
				flow++
			case token.SequenceEndType, token.MappingEndType:
				flow = max(flow-1, 0)
			}
			opens := pos.Line != lastLine || tk.Type == token.SequenceEntryType || tk.Type == token.MappingKeyType
			lastLine = pos.Line
			if opens && flow == 0 {
				for len(columns) > 0 && columns[len(columns)-1] > pos.Column {
					columns = columns[:len(columns)-1]
				}
				if len(columns) == 0 || columns[len(columns)-1] < pos.Column {
					columns = append(columns, pos.Column)
				}
			}
			if len(columns)+flow > b.depth {
				return &Issue{File: file, Line: pos.Line, Column: pos.Column,
					Msg: fmt.Sprintf("the file is nested more than %d levels deep", b.depth)}
			}
		}
	}
	return nil
}

// countTokens counts, over the raw bytes, every indicator, every word (a
// run of other bytes after white space or an indicator) and every line end
// (plus one for the end of the document): the YAML scanner starts a token
// only at the first two, and makes at most one token of nothing per line
// (the empty content of a block scalar, an implicit null), so this is at
// least the number of tokens the scanner will make. It answers false, with
// the line, as soon as the count passes max.
func countTokens(data []byte, limit int) (line int, ok bool) {
	n, line := 1, 1
	inWord := false
	for _, c := range data {
		switch c {
		case '\n':
			n++
			line++
			inWord = false
		case ' ', '\t', '\r':
			inWord = false
		case '[', ']', '{', '}', ',', ':', '-', '?', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
			n++
			inWord = false
		default:
			if !inWord {
				n++
				inWord = true
			}
		}
		if n > limit {
			return line, false
		}
	}
	return line, true
}
