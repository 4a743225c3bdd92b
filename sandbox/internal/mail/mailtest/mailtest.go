// Package mailtest reads the messages package mail composes as a
// recipient's mail client would, for tests: it checks their form (CRLF
// lines of at most 998 characters, one multipart/alternative body with a
// UTF-8 text/plain and text/html part) and answers the decoded header
// fields and parts.
package mailtest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
)

// Message is a message as a client shows it.
type Message struct {
	// Header holds the header fields as written (encoded).
	Header mail.Header
	// Text and HTML are the decoded parts.
	Text, HTML string
}

// Get is a header field decoded (RFC 2047), "" when absent.
func (m *Message) Get(name string) string {
	v := m.Header.Get(name)
	dec, err := new(mime.WordDecoder).DecodeHeader(v)
	if err != nil {
		return v
	}
	return dec
}

// Address is an address header field parsed: name and address.
func (m *Message) Address(name string) (*mail.Address, error) {
	return mail.ParseAddress(m.Header.Get(name))
}

// Parse reads raw, the bytes of a message, and checks its form.
func Parse(raw []byte) (*Message, error) {
	if err := checkLines(raw); err != nil {
		return nil, err
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read message: %w", err)
	}
	out := &Message{Header: msg.Header}
	if v := msg.Header.Get("MIME-Version"); v != "1.0" {
		return nil, fmt.Errorf("MIME-Version %q", v)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" || params["boundary"] == "" {
		return nil, fmt.Errorf("content type %q: %v", msg.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for i := 0; ; i++ {
		p, err := r.NextRawPart()
		if err == io.EOF {
			if i != 2 {
				return nil, fmt.Errorf("%d parts, want 2", i)
			}
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
		ct, cp, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if err != nil || cp["charset"] != "utf-8" {
			return nil, fmt.Errorf("part %d: content type %q", i, p.Header.Get("Content-Type"))
		}
		body, err := decode(p.Header.Get("Content-Transfer-Encoding"), p)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
		switch {
		case i == 0 && ct == "text/plain":
			out.Text = body
		case i == 1 && ct == "text/html":
			out.HTML = body
		default:
			return nil, fmt.Errorf("part %d is %s", i, ct)
		}
	}
}

func decode(cte string, r io.Reader) (string, error) {
	var b []byte
	var err error
	switch strings.ToLower(cte) {
	case "quoted-printable":
		b, err = io.ReadAll(quotedprintable.NewReader(r))
	case "base64":
		b, err = io.ReadAll(base64.NewDecoder(base64.StdEncoding, r))
	default:
		return "", fmt.Errorf("transfer encoding %q", cte)
	}
	// Lines are CRLF on the wire; a client shows them as lines.
	return strings.ReplaceAll(string(b), "\r\n", "\n"), err
}

// checkLines: every line ends in CRLF and holds at most 998 characters
// (RFC 5322 2.1.1); no bare CR or LF.
func checkLines(raw []byte) error {
	for n, line := range bytes.SplitAfter(raw, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if !bytes.HasSuffix(line, []byte("\r\n")) {
			return fmt.Errorf("line %d does not end in CRLF: %q", n+1, line)
		}
		if bytes.IndexByte(line[:len(line)-2], '\r') >= 0 {
			return fmt.Errorf("line %d holds a bare CR", n+1)
		}
		if len(line)-2 > 998 {
			return fmt.Errorf("line %d is %d characters long", n+1, len(line)-2)
		}
	}
	return nil
}

// Fields names the header fields of head (a block of header lines, such
// as the trace fields a receiving server adds above a message), in order.
func Fields(head []byte) ([]string, error) {
	var names []string
	for _, line := range strings.SplitAfter(string(head), "\r\n") {
		switch {
		case line == "":
		case line[0] == ' ' || line[0] == '\t':
			if len(names) == 0 {
				return nil, fmt.Errorf("a continuation line first: %q", line)
			}
		default:
			name, _, ok := strings.Cut(line, ":")
			if !ok || name == "" || strings.ContainsAny(name, " \t") {
				return nil, fmt.Errorf("not a header field: %q", line)
			}
			names = append(names, name)
		}
	}
	return names, nil
}
