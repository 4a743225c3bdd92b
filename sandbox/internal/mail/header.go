package mail

import (
	"encoding/base64"
	"net/mail"
	"strings"
	"unicode/utf8"
)

// maxLine is the length header lines are folded to when they can be
// (RFC 5322's "SHOULD"); no line the package writes passes 998.
const maxLine = 78

// cleanText makes s safe in a header: line breaks, tabs and other control
// characters become spaces (a caller's title cannot add a header), and
// bytes that are not UTF-8 become U+FFFD.
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

// header is one header field: its name and its value as written (already
// encoded), which writeHeader folds.
type header struct{ name, value string }

// writeHeader appends "name: value" CRLF, folded at spaces to lines of at
// most maxLine characters where the value allows it. Folding only
// inserts CRLF before an existing space (inside a quoted string too,
// which RFC 5322 allows), so unfolding (3.2.2) gives the value back.
func writeHeader(b *strings.Builder, h header) {
	line := h.name + ": "
	width := len(line)
	b.WriteString(line)
	v := h.value
	for v != "" {
		cut := nextFold(v)
		word := v[:cut]
		v = v[cut:]
		if width > len(h.name)+2 && width+len(word) > maxLine && strings.HasPrefix(word, " ") {
			b.WriteString("\r\n")
			width = 0
		}
		b.WriteString(word)
		width += len(word)
	}
	b.WriteString("\r\n")
}

// nextFold answers the length of the first unit of v that folding keeps
// whole: a space (or the start) and the word after it.
func nextFold(v string) int {
	if i := strings.IndexByte(v[1:], ' '); i >= 0 {
		return i + 1
	}
	return len(v)
}

// encodeText is an unstructured header value (Subject): printable ASCII as
// it is, anything else as RFC 2047 encoded-words. ASCII that would read as
// an encoded-word ("=?...?=") or hold a word too long to fold is encoded
// too, so that a client shows exactly the text.
func encodeText(s string) string {
	s = strings.TrimSpace(cleanText(s)) // a header's value has no outer spaces
	if plainASCII(s) {
		return s
	}
	return strings.Join(encodedWords(s), " ")
}

// maxPlainWord is the longest word a header writes as it is: a line
// holds it with the header's name.
const maxPlainWord = maxLine - len("Reply-To: ")

// plainASCII reports whether s can be written as it is: printable ASCII,
// nothing that looks like an encoded-word, no word longer than a line.
func plainASCII(s string) bool {
	if strings.Contains(s, "=?") {
		return false
	}
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' {
			return false
		}
		if run++; c == ' ' {
			run = 0
		}
		if run > maxPlainWord {
			return false
		}
	}
	return true
}

// qSafe are the characters a Q-encoded word may carry as they are, in
// any header position (RFC 2047 section 5 (3)).
func qSafe(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '!' || c == '*' || c == '+' || c == '-' || c == '/'
}

// maxWordText is the room for encoded text in one encoded-word: with
// "=?utf-8?q?" and "?=" (12) it stays within RFC 2047's 75 characters,
// and after a header's name ("Reply-To: ") within a line.
const maxWordText = maxLine - len("Reply-To: ") - 12

// encodedWords encodes s (valid UTF-8) as RFC 2047 encoded-words of at
// most 75 characters each, never splitting a character: Q encoding,
// which leaves mostly-Latin text readable in the source, unless B is
// shorter.
func encodedWords(s string) []string {
	qLen := 0
	for i := 0; i < len(s); i++ {
		if qSafe(s[i]) || s[i] == ' ' {
			qLen++
		} else {
			qLen += 3
		}
	}
	if qLen > base64.StdEncoding.EncodedLen(len(s))*5/4 {
		return bWords(s)
	}
	return qWords(s)
}

func qWords(s string) []string {
	const hex = "0123456789ABCDEF"
	var words []string
	var cur []byte
	for len(s) > 0 {
		_, size := utf8.DecodeRuneInString(s)
		var enc []byte
		for _, c := range []byte(s[:size]) {
			switch {
			case c == ' ':
				enc = append(enc, '_')
			case qSafe(c):
				enc = append(enc, c)
			default:
				enc = append(enc, '=', hex[c>>4], hex[c&15])
			}
		}
		if len(cur)+len(enc) > maxWordText {
			words = append(words, "=?utf-8?q?"+string(cur)+"?=")
			cur = cur[:0]
		}
		cur = append(cur, enc...)
		s = s[size:]
	}
	return append(words, "=?utf-8?q?"+string(cur)+"?=")
}

func bWords(s string) []string {
	const maxRaw = maxWordText / 4 * 3 // 45 bytes make 60 characters
	var words []string
	for len(s) > 0 {
		n := 0
		for n < len(s) {
			_, size := utf8.DecodeRuneInString(s[n:])
			if n+size > maxRaw {
				break
			}
			n += size
		}
		words = append(words, "=?utf-8?b?"+base64.StdEncoding.EncodeToString([]byte(s[:n]))+"?=")
		s = s[n:]
	}
	return words
}

// address is a mailbox as a header shows it: "Name" <addr>, the name
// quoted as needed (net/mail) or, unless it is plain ASCII in words a
// line holds, as encoded-words; or the bare address.
func address(name, addr string) string {
	name, addr = strings.TrimSpace(cleanText(name)), cleanAddress(addr)
	switch {
	case name == "":
		return (&mail.Address{Address: addr}).String()
	case plainASCII(name):
		return (&mail.Address{Name: name, Address: addr}).String()
	}
	box := (&mail.Address{Address: addr}).String()
	return strings.Join(encodedWords(name), " ") + " " + box
}

// cleanAddress is an e-mail address as headers and the SMTP envelope may
// carry it: no spaces, controls or angle brackets (the API accepted only
// addresses, but an imported world may hold anything).
func cleanAddress(addr string) string {
	addr = strings.ToValidUTF8(addr, "")
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f || r == '<' || r == '>' || r == '"' || r == '\\' || r == '\u2028' || r == '\u2029' {
			return -1
		}
		return r
	}, addr)
}
