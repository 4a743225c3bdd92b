package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Operation is one API operation the vocabulary knows.
type Operation struct {
	ID     string
	Method string
	// Path is relative to /v3, with {param} placeholders.
	Path string
}

// Vocabulary is what the loader checks names against: the sandbox passes
// its route table, the official event types and the error names.
type Vocabulary struct {
	Operations []Operation
	EventTypes []string
	// ErrorStatus maps every known error_name to its HTTP status.
	ErrorStatus map[string]int
	// CheckConfig validates a partial world configuration; it answers the
	// key at fault (dotted, relative to config) and a message, or "", "".
	CheckConfig func(cfg map[string]any) (key, msg string)
}

// Op finds an operation by id.
func (v *Vocabulary) Op(id string) (Operation, bool) {
	for _, o := range v.Operations {
		if o.ID == id {
			return o, true
		}
	}
	return Operation{}, false
}

func (v *Vocabulary) knownEvent(t string) bool { return slices.Contains(v.EventTypes, t) }

// Issue is one problem of a scenario file, located by line, column and key.
type Issue struct {
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Key is the dotted path of the offending key (rules[1].match.operation).
	Key string `json:"key,omitempty"`
	Msg string `json:"message"`
}

func (i Issue) String() string {
	var b strings.Builder
	b.WriteString(i.File)
	if i.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", i.Line, i.Column)
	}
	b.WriteString(": ")
	if i.Key != "" {
		b.WriteString(i.Key)
		b.WriteString(": ")
	}
	b.WriteString(i.Msg)
	return b.String()
}

// Error is a refused scenario file: every problem found, in file order.
type Error struct {
	Issues []Issue
}

func (e *Error) Error() string {
	parts := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		parts[i] = is.String()
	}
	return strings.Join(parts, "\n")
}

// maxIssues bounds how many problems one refusal lists.
const maxIssues = 20

// Parse reads a scenario file strictly: unknown keys, wrong types,
// duplicate keys, unknown operations, event types and error names, and
// contradictions are refused with the file, line and key of each. It reads
// files given to `signsandbox run` (scenarios with steps, recordings), so
// its budget is the larger one of run files.
func Parse(file string, data []byte, voc *Vocabulary) (*Document, error) {
	p, err := parseDocument(file, data, voc, runFileBudget)
	if err != nil {
		return nil, err
	}
	return p.Doc, nil
}

// Parsed is a checked document that can still locate its keys, for
// problems found later (while seeding a world).
type Parsed struct {
	Doc  *Document
	File string
	root ast.Node
}

// Issue locates a problem at a path of the document.
func (p *Parsed) Issue(path []any, msg string) *Error {
	ln, cl := locate(p.root, path)
	return &Error{Issues: []Issue{{File: p.File, Line: ln, Column: cl, Key: keyString(path), Msg: msg}}}
}

// ParseDocument is Parse keeping the document's positions, for scenarios
// loaded into a world (within MaxDocumentBytes, MaxDepth and MaxTokens).
func ParseDocument(file string, data []byte, voc *Vocabulary) (parsed *Parsed, err error) {
	return parseDocument(file, data, voc, scenarioBudget)
}

func parseDocument(file string, data []byte, voc *Vocabulary, budget shapeBudget) (parsed *Parsed, err error) {
	if file == "" {
		file = "scenario"
	}
	defer func() {
		if r := recover(); r != nil {
			parsed, err = nil, &Error{Issues: []Issue{{File: file, Msg: fmt.Sprintf("the file could not be read: %v", r)}}}
		}
	}()
	if is := checkShape(file, data, budget); is != nil {
		return nil, &Error{Issues: []Issue{*is}}
	}
	f, perr := parser.ParseBytes(data, 0)
	if perr != nil {
		return nil, &Error{Issues: []Issue{yamlIssue(file, data, nil, perr)}}
	}
	if len(f.Docs) != 1 || f.Docs[0] == nil || f.Docs[0].Body == nil {
		if len(f.Docs) > 1 {
			return nil, &Error{Issues: []Issue{{File: file, Msg: "a scenario file holds one document (found several separated by ---)"}}}
		}
		return nil, &Error{Issues: []Issue{{File: file, Msg: "the file is empty: a scenario needs at least a name"}}}
	}
	root := f.Docs[0].Body
	if _, ok := unwrap(root).(*ast.MappingNode); !ok {
		if _, ok := unwrap(root).(*ast.MappingValueNode); !ok {
			return nil, &Error{Issues: []Issue{{File: file, Line: line(root), Column: col(root),
				Msg: "a scenario is a mapping with a name and any of config, seed, rules, steps"}}}
		}
	}
	if aliases := ast.Filter(ast.AliasType, root); len(aliases) > 0 {
		// An alias expands to a copy of its anchor, so a few lines of
		// nested aliases can expand to gigabytes: they are refused.
		a := aliases[0]
		is := Issue{File: file, Line: line(a), Column: col(a), Msg: "aliases (*name) are not supported in scenario files: write the value out"}
		if p, ok := pathAt(root, is.Line, is.Column, nil); ok {
			is.Key = keyString(p)
		}
		return nil, &Error{Issues: []Issue{is}}
	}
	if voc == nil {
		voc = &Vocabulary{}
	}
	doc := &Document{}
	if derr := yaml.NodeToValue(root, doc, yaml.Strict()); derr != nil {
		return nil, &Error{Issues: []Issue{yamlIssue(file, data, root, derr)}}
	}
	normalizeDocument(doc)
	v := &validator{voc: voc, doc: doc}
	v.document()
	if len(v.issues) == 0 {
		return &Parsed{Doc: doc, File: file, root: root}, nil
	}
	out := &Error{}
	for _, is := range v.issues {
		ln, cl := locate(root, is.path)
		out.Issues = append(out.Issues, Issue{File: file, Line: ln, Column: cl, Key: keyString(is.path), Msg: is.msg})
		if len(out.Issues) == maxIssues {
			break
		}
	}
	return nil, out
}

// yamlIssue turns a go-yaml error into an Issue with its position and, when
// the position falls on a key, that key's path. A mistake hintYAML knows
// is told in plain words, at the place it was made, before the library's
// own message.
func yamlIssue(file string, data []byte, root ast.Node, err error) Issue {
	is := Issue{File: file, Msg: err.Error()}
	var tk *token.Token
	var ye yaml.Error
	if errors.As(err, &ye) {
		is.Msg = ye.GetMessage()
		if tk = ye.GetToken(); tk != nil && tk.Position != nil {
			is.Line, is.Column = tk.Position.Line, tk.Position.Column
		}
	}
	is.Msg = strings.TrimSpace(strings.NewReplacer("\n", " ", "\t", `\t`).Replace(is.Msg))
	if h, ok := hintYAML(is.Msg, tk, data); ok {
		is.Line, is.Column = h.line, h.column
		is.Msg = h.msg + " (YAML: " + is.Msg + ")"
	}
	if root != nil && is.Line > 0 {
		if p, ok := pathAt(root, is.Line, is.Column, nil); ok {
			is.Key = keyString(p)
		}
	}
	return is
}

func unwrap(n ast.Node) ast.Node {
	for {
		switch t := n.(type) {
		case *ast.TagNode:
			n = t.Value
		case *ast.AnchorNode:
			n = t.Value
		default:
			return n
		}
	}
}

func line(n ast.Node) int {
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

func col(n ast.Node) int {
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return 0
	}
	return n.GetToken().Position.Column
}

// mappingValues lists the key/value pairs of a mapping node (a mapping
// with one pair may come as the pair itself).
func mappingValues(n ast.Node) []*ast.MappingValueNode {
	switch t := unwrap(n).(type) {
	case *ast.MappingNode:
		return t.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{t}
	}
	return nil
}

func keyText(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	return strings.TrimSpace(k.String())
}

// locate finds the line and column of a path: the key of the last mapping
// step, or the element of the last sequence step. It stops at the deepest
// node that exists.
func locate(root ast.Node, path []any) (int, int) {
	n := root
	ln, cl := line(root), col(root)
	if mvs := mappingValues(root); len(mvs) > 0 {
		ln, cl = line(mvs[0].Key), col(mvs[0].Key)
	}
	for _, p := range path {
		switch k := p.(type) {
		case string:
			found := false
			for _, mv := range mappingValues(n) {
				if keyText(mv.Key) == k {
					ln, cl = line(mv.Key), col(mv.Key)
					n, found = mv.Value, true
					break
				}
			}
			if !found {
				return ln, cl
			}
		case int:
			seq, ok := unwrap(n).(*ast.SequenceNode)
			if !ok || k < 0 || k >= len(seq.Values) {
				return ln, cl
			}
			n = seq.Values[k]
			ln, cl = line(n), col(n)
		}
	}
	return ln, cl
}

// pathAt finds the path of the deepest key or element at a position.
func pathAt(n ast.Node, ln, cl int, prefix []any) ([]any, bool) {
	for _, mv := range mappingValues(n) {
		if line(mv.Key) == ln && col(mv.Key) == cl {
			return append(prefix, keyText(mv.Key)), true
		}
		if p, ok := pathAt(mv.Value, ln, cl, append(append([]any(nil), prefix...), keyText(mv.Key))); ok {
			return p, true
		}
		if line(mv.Value) == ln && col(mv.Value) == cl {
			return append(prefix, keyText(mv.Key)), true
		}
	}
	if seq, ok := unwrap(n).(*ast.SequenceNode); ok {
		for i, v := range seq.Values {
			p := append(append([]any(nil), prefix...), i)
			if sub, ok := pathAt(v, ln, cl, p); ok {
				return sub, true
			}
			if line(v) == ln && col(v) == cl {
				return p, true
			}
		}
	}
	return nil, false
}

// keyString writes a path as rules[1].match.operation.
func keyString(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch k := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		}
	}
	return b.String()
}
