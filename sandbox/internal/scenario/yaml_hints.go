package scenario

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml/token"
)

// YAML mistakes in plain words. The YAML library says what it could not
// read ("value is not allowed in this context") where it noticed; people
// need to know what they wrote wrong and where they wrote it. hintYAML
// recognizes the common mistakes (indentation, tab characters, unclosed
// quotes and brackets, keys written twice, a list where a mapping belongs
// and the reverse, a missing space after a colon) and answers the place
// and words to report, keeping the library's message after them for
// whoever searches for it.

// yamlHint is a mistake's place and its words.
type yamlHint struct {
	line, column int
	msg          string
}

// hintYAML explains a YAML error: msg is the library's message, tk its
// token (nil when it has none), data the document. ok is false for errors
// it has no words for.
func hintYAML(msg string, tk *token.Token, data []byte) (yamlHint, bool) {
	lines := strings.Split(string(data), "\n")
	at := func(line, column int, format string, a ...any) (yamlHint, bool) {
		return yamlHint{line: line, column: column, msg: fmt.Sprintf(format, a...)}, true
	}
	var line, column int
	if tk != nil && tk.Position != nil {
		line, column = tk.Position.Line, tk.Position.Column
	}
	if l, c, ok := tabBefore(lines, line); ok {
		return at(l, c, "a tab character indents this line: YAML indents with spaces only; replace the tab with spaces")
	}
	switch {
	case msg == "mapping value is not allowed in this context" && tk != nil:
		origin := strings.TrimRight(tk.Origin, " \n")
		if n := strings.Count(origin, "\n"); n > 0 {
			// A plain value ran on into the next, deeper line, whose
			// "key:" then made no sense: the deeper line is the mistake.
			bad := line + n
			key := strings.TrimSpace(lastLine(origin))
			return at(bad, indentOf(lineAt(lines, bad))+1,
				"%q is indented deeper than the line above it, so YAML reads it as more of the value above (%q): indent it like the keys it belongs with", key, strings.TrimSpace(firstLine(origin)))
		}
		return at(line, column, "this value holds \": \" (a colon and a space), which YAML reads as the start of another key: put the value in quotes")
	case msg == "value is not allowed in this context" && tk != nil:
		if want, ok := siblingColumn(lines, line); ok && want != column {
			return at(line, column, "%q starts in column %d, but the keys above it start in column %d: the keys of one mapping start in the same column", tk.Value, column, want)
		}
		return at(line, column, "%q is not indented as YAML expects here: the keys of one mapping start in the same column, and a value goes after its key's colon or on deeper lines", tk.Value)
	case strings.HasPrefix(msg, "mapping key ") && strings.Contains(msg, " already defined at ["):
		first := definedAt.FindStringSubmatch(msg)
		key := ""
		if tk != nil {
			key = tk.Value
		}
		if first != nil {
			return at(line, column, "%q appears twice in the same mapping (first on line %s): keep one", key, first[1])
		}
		return at(line, column, "%q appears twice in the same mapping: keep one", key)
	case msg == "could not find end character of double-quoted text":
		return at(line, quoteColumn(lines, line, column, '"'), "this double-quoted text is never closed: end it with \" (inside it, write \\\" for a quote)")
	case msg == "could not find end character of single-quoted text":
		return at(line, quoteColumn(lines, line, column, '\''), "this single-quoted text is never closed: end it with ' (inside it, write '' for a quote)")
	case strings.HasPrefix(msg, "could not find flow mapping end token"):
		return at(line, column, "this { is never closed: end the mapping with }")
	case strings.HasPrefix(msg, "sequence end token ']' not found"), strings.HasPrefix(msg, "could not find flow sequence end token"):
		return at(line, column, "this [ is never closed: end the list with ]")
	case strings.HasPrefix(msg, "found unknown escape character"):
		return at(line, column, "inside double quotes a backslash starts an escape (\\n, \\\", \\\\): write \\\\ for a backslash, or use single quotes")
	}
	if used, want, ok := usedWhere(msg); ok {
		switch {
		case used == "sequence" && want == "mapping":
			return at(line, column, "a list (lines starting with \"- \") where a mapping (key: value lines) belongs: remove the \"- \"")
		case used == "mapping" && want == "sequence":
			return at(line, column, "a mapping where a list belongs: start each item with \"- \" (a dash and a space)")
		case used == "string" && want == "mapping" && tk != nil && missingSpace(tk.Value):
			k, v, _ := strings.Cut(tk.Value, ":")
			return at(line, column, "%q has no space after its colon, so YAML reads it as text: write \"%s: %s\"", tk.Value, k, v)
		}
		return at(line, column, "%s where %s belongs", kindWords(used), kindWords(want))
	}
	return yamlHint{}, false
}

// definedAt finds where a key written twice was first written.
var definedAt = regexp.MustCompile(`\[(\d+):\d+\]`)

// usedWhere reads "X was used where Y is expected".
func usedWhere(msg string) (used, want string, ok bool) {
	used, rest, ok := strings.Cut(msg, " was used where ")
	if !ok {
		return "", "", false
	}
	want, ok = strings.CutSuffix(rest, " is expected")
	return used, want, ok
}

// kindWords names a YAML node kind for people.
func kindWords(kind string) string {
	switch kind {
	case "mapping":
		return "a mapping (key: value lines)"
	case "sequence":
		return "a list (lines starting with \"- \")"
	case "string", "literal":
		return "text"
	case "int", "integer", "float":
		return "a number"
	case "bool", "boolean":
		return "true or false"
	case "null":
		return "an empty value"
	}
	return "a " + kind
}

// missingSpace reports whether text looks like a key whose colon lacks
// the space after it ("call:accountGet").
func missingSpace(text string) bool {
	k, v, ok := strings.Cut(text, ":")
	return ok && k != "" && v != "" && !strings.ContainsAny(k, " \t") && v[0] != ' ' && v[0] != '/'
}

// tabBefore finds a tab in the indentation of the lines up to and
// including line (1-based): YAML refuses tabs there, and the library
// then reports whatever it made of the line.
func tabBefore(lines []string, line int) (int, int, bool) {
	for i := 0; i < len(lines) && i < line; i++ {
		l := lines[i]
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if c := strings.IndexByte(indent, '\t'); c >= 0 {
			return i + 1, c + 1, true
		}
	}
	return 0, 0, false
}

// siblingColumn is the column where the keys of the mapping above line
// start: that of the nearest line above with content, after a "- " that
// opens a list item.
func siblingColumn(lines []string, line int) (int, bool) {
	for i := line - 2; i >= 0 && i < len(lines); i-- {
		l := lines[i]
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		col := len(l) - len(t) + 1
		for strings.HasPrefix(t, "- ") {
			rest := strings.TrimLeft(t[2:], " ")
			col += len(t) - len(rest)
			t = rest
		}
		return col, true
	}
	return 0, false
}

// quoteColumn is the column of the quote that opened unclosed text at or
// after column on line (the library points at the space before it).
func quoteColumn(lines []string, line, column int, quote byte) int {
	l := lineAt(lines, line)
	if column >= 1 && column <= len(l) {
		if i := strings.IndexByte(l[column-1:], quote); i >= 0 {
			return column + i
		}
	}
	return column
}

func lineAt(lines []string, line int) string {
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

func firstLine(s string) string { f, _, _ := strings.Cut(s, "\n"); return f }

func lastLine(s string) string { return s[strings.LastIndexByte(s, '\n')+1:] }
