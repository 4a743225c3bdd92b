package pdftext

// A reader of PDF content streams: operands and operators with their byte
// ranges, which is what text extraction needs (and what hiding text tags
// needs to rewrite a text-showing operator in place). It tolerates what
// readers tolerate: a byte that starts no token is skipped, an unterminated
// string or array ends at the end of the stream.

import (
	"bytes"
	"strconv"
)

// Kinds of operands.
const (
	opdNumber = iota + 1
	opdString
	opdName
	opdArray
	opdOther // dictionaries, booleans, null
)

// Bounds of the reader: nesting of arrays and dictionaries, operands kept
// for one operator (operators take at most six; CMap sections list up to a
// hundred entries of three), elements kept in one array. What is beyond is
// read and dropped, so memory stays proportional to what is kept.
const (
	maxOperandDepth = 32
	maxOperands     = 1024
	maxArrayLen     = 1 << 16
)

// operand is one operand of an operator.
type operand struct {
	kind int
	num  float64
	str  []byte // string bytes (literal or hex), decoded
	name string
	arr  []operand
}

// contentOp is one operator with its operands. start is where its first
// operand (or the operator itself) begins, end just after the operator.
type contentOp struct {
	name       string
	args       []operand
	start, end int
}

// contentLexer reads one content stream.
type contentLexer struct {
	data []byte
	pos  int
}

// isDelim reports PDF delimiter characters.
func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\f', 0:
		return true
	}
	return false
}

// skipSpace skips white space and comments.
func (l *contentLexer) skipSpace() {
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == '%':
			for l.pos < len(l.data) && l.data[l.pos] != '\n' && l.data[l.pos] != '\r' {
				l.pos++
			}
		default:
			return
		}
	}
}

// eachOp calls fn for every operator of the stream, in order, until fn
// answers false.
func eachOp(data []byte, fn func(op contentOp) bool) {
	l := &contentLexer{data: data}
	var args []operand
	start := -1
	for {
		l.skipSpace()
		if l.pos >= len(l.data) {
			return
		}
		if start < 0 {
			start = l.pos
		}
		c := l.data[l.pos]
		if isDelim(c) || c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9') {
			if o, ok := l.operand(0); ok {
				if len(args) == maxOperands {
					args = append(args[:0], args[maxOperands/2:]...)
				}
				args = append(args, o)
			}
			continue
		}
		// A keyword: an operator, or true, false, null.
		kwStart := l.pos
		for l.pos < len(l.data) && !isSpace(l.data[l.pos]) && !isDelim(l.data[l.pos]) {
			l.pos++
		}
		kw := string(l.data[kwStart:l.pos])
		switch kw {
		case "true", "false", "null":
			if len(args) < maxOperands {
				args = append(args, operand{kind: opdOther})
			}
			continue
		}
		op := contentOp{name: kw, args: args, start: start, end: l.pos}
		if kw == "ID" {
			l.skipInlineImage()
			op.end = l.pos
		}
		if !fn(op) {
			return
		}
		args, start = nil, -1
	}
}

// skipInlineImage moves past the data of an inline image (after ID): the
// data ends at an EI keyword preceded by white space.
func (l *contentLexer) skipInlineImage() {
	if l.pos < len(l.data) && isSpace(l.data[l.pos]) {
		l.pos++
	}
	for i := l.pos; i+1 < len(l.data); i++ {
		if l.data[i] == 'E' && l.data[i+1] == 'I' && (i == 0 || isSpace(l.data[i-1])) &&
			(i+2 == len(l.data) || isSpace(l.data[i+2]) || isDelim(l.data[i+2])) {
			l.pos = i + 2
			return
		}
	}
	l.pos = len(l.data)
}

// operand reads the operand at pos. ok is false for a byte that starts no
// operand (it is skipped).
func (l *contentLexer) operand(depth int) (operand, bool) {
	c := l.data[l.pos]
	switch {
	case c == '(':
		return operand{kind: opdString, str: l.literal()}, true
	case c == '<' && l.pos+1 < len(l.data) && l.data[l.pos+1] == '<':
		l.dict(depth)
		return operand{kind: opdOther}, true
	case c == '<':
		return operand{kind: opdString, str: l.hex()}, true
	case c == '/':
		return operand{kind: opdName, name: l.name()}, true
	case c == '[':
		l.pos++
		var arr []operand
		for {
			l.skipSpace()
			if l.pos >= len(l.data) {
				break
			}
			if l.data[l.pos] == ']' {
				l.pos++
				break
			}
			if depth >= maxOperandDepth {
				l.pos++
				continue
			}
			if o, ok := l.element(depth + 1); ok && len(arr) < maxArrayLen {
				arr = append(arr, o)
			}
		}
		return operand{kind: opdArray, arr: arr}, true
	case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
		start := l.pos
		l.pos++
		for l.pos < len(l.data) {
			d := l.data[l.pos]
			if (d >= '0' && d <= '9') || d == '.' || d == '-' || d == '+' {
				l.pos++
				continue
			}
			break
		}
		return operand{kind: opdNumber, num: parseNumber(l.data[start:l.pos])}, true
	}
	l.pos++
	return operand{}, false
}

// element reads an operand inside an array or dictionary, where keywords
// (true, false, null) can appear.
func (l *contentLexer) element(depth int) (operand, bool) {
	c := l.data[l.pos]
	if isDelim(c) || c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9') {
		return l.operand(depth)
	}
	start := l.pos
	for l.pos < len(l.data) && !isSpace(l.data[l.pos]) && !isDelim(l.data[l.pos]) {
		l.pos++
	}
	if l.pos == start {
		l.pos++
		return operand{}, false
	}
	return operand{kind: opdOther}, true
}

// dict skips a dictionary (its content does not matter to extraction).
func (l *contentLexer) dict(depth int) {
	l.pos += 2
	for {
		l.skipSpace()
		if l.pos >= len(l.data) {
			return
		}
		if l.data[l.pos] == '>' && l.pos+1 < len(l.data) && l.data[l.pos+1] == '>' {
			l.pos += 2
			return
		}
		if depth >= maxOperandDepth {
			l.pos++
			continue
		}
		l.element(depth + 1)
	}
}

// parseNumber reads a PDF number leniently (as readers do: "1.2.3" and
// "--5" are taken as far as they make sense, anything else is 0).
func parseNumber(b []byte) float64 {
	// No real number is longer; the bound keeps the fallback below from
	// growing with the square of a hostile token's length.
	const maxNumberLen = 40
	s := string(b[:min(len(b), maxNumberLen)])
	for len(s) > 1 && (s[0] == '+' || s[0] == '-') && (s[1] == '+' || s[1] == '-') {
		s = s[1:]
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	for n := len(s) - 1; n > 0; n-- {
		if f, err := strconv.ParseFloat(s[:n], 64); err == nil {
			return f
		}
	}
	return 0
}

// literal reads a literal string with its escapes and balanced
// parentheses.
func (l *contentLexer) literal() []byte {
	l.pos++ // (
	var out []byte
	depth := 1
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
			out = append(out, c)
		case ')':
			depth--
			if depth == 0 {
				return out
			}
			out = append(out, c)
		case '\\':
			if l.pos >= len(l.data) {
				return out
			}
			e := l.data[l.pos]
			l.pos++
			switch e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\r':
				if l.pos < len(l.data) && l.data[l.pos] == '\n' {
					l.pos++
				}
			case '\n':
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v := int(e - '0')
				for k := 0; k < 2 && l.pos < len(l.data) && l.data[l.pos] >= '0' && l.data[l.pos] <= '7'; k++ {
					v = v*8 + int(l.data[l.pos]-'0')
					l.pos++
				}
				out = append(out, byte(v))
			default:
				out = append(out, e)
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

// hex reads a hexadecimal string; an odd final digit is followed by 0.
func (l *contentLexer) hex() []byte {
	l.pos++ // <
	var out []byte
	hi, have := byte(0), false
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		v, ok := hexVal(c)
		if !ok {
			continue
		}
		if have {
			out = append(out, hi<<4|v)
			have = false
		} else {
			hi, have = v, true
		}
	}
	if have {
		out = append(out, hi<<4)
	}
	return out
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// name reads a name with its #xx escapes.
func (l *contentLexer) name() string {
	l.pos++ // /
	start := l.pos
	for l.pos < len(l.data) && !isSpace(l.data[l.pos]) && !isDelim(l.data[l.pos]) {
		l.pos++
	}
	raw := l.data[start:l.pos]
	if !bytes.Contains(raw, []byte("#")) {
		return string(raw)
	}
	var out []byte
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) {
			h, ok1 := hexVal(raw[i+1])
			lo, ok2 := hexVal(raw[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|lo)
				i += 2
				continue
			}
		}
		out = append(out, raw[i])
	}
	return string(out)
}
