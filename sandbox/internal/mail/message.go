package mail

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"mime/quotedprintable"
	"strings"
	"time"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// The sandbox's sender: every e-mail comes from this address (the real
// service's e-mails come from its own), with the party it is from as the
// display name, and its Message-IDs are in its domain. ".test" is
// reserved (RFC 2606): no mail to it can leave for the Internet by
// mistake.
const (
	SenderAddress = "noreply@mail.signsandbox.test"
	SenderName    = "Dropbox Sign"
	messageDomain = "mail.signsandbox.test"
)

// fromName is the display name of the From header: "X via Dropbox Sign"
// for an e-mail someone sent through the service to someone else (a
// request, an invitation), the service's name for its own notices and for
// e-mails to the sender themselves.
func fromName(e *model.Email) string {
	name := strings.TrimSpace(e.FromName)
	if name == "" {
		name = e.ReplyTo
	}
	if name == "" || ownMail(e) {
		return SenderName
	}
	return name + " via " + SenderName
}

// ownMail reports whether e goes to the party it is from (the completed
// copy to the requester): it has no Reply-To then.
func ownMail(e *model.Email) bool { return strings.EqualFold(e.ReplyTo, e.To) }

// From is the From header of e as a person reads it (not encoded).
func From(e *model.Email) string { return fromName(e) + " <" + SenderAddress + ">" }

// ReplyTo is the Reply-To header of e as a person reads it ("" for none).
func ReplyTo(e *model.Email) string {
	if e.ReplyTo == "" || ownMail(e) {
		return ""
	}
	if e.FromName == "" {
		return e.ReplyTo
	}
	return e.FromName + " <" + e.ReplyTo + ">"
}

// Recipient is the address e is delivered to (the SMTP envelope's), ""
// when its recipient is no address.
func Recipient(e *model.Email) string {
	to := cleanAddress(e.To)
	if !strings.Contains(to, "@") {
		return ""
	}
	return to
}

// MessageID is e's Message-ID, angle brackets included.
func MessageID(e *model.Email) string { return "<" + token(e.ID) + "@" + messageDomain + ">" }

// token is id if it can stand in a Message-ID or a boundary as it is (the
// sandbox's ids can), else a hash of it (an imported world's odd id).
func token(id string) string {
	ok := id != "" && len(id) <= 64
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
	}
	if ok && !strings.HasPrefix(id, ".") && !strings.HasSuffix(id, ".") && !strings.Contains(id, "..") {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// Date is e's Date header: the world-clock instant it was sent, in UTC.
func Date(e *model.Email) string { return time.Unix(e.SentAt, 0).UTC().Format(time.RFC1123Z) }

// Header is one header field of a composed message, decoded.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Headers are e's header fields in the order the message writes them, as
// a person reads them (not encoded): the console's headers view.
func Headers(e *model.Email) []Header {
	var out []Header
	for _, h := range headerFields(e) {
		out = append(out, Header{h.name, h.display})
	}
	return out
}

// field is a header field with its value as written and as read.
type field struct{ name, value, display string }

func headerFields(e *model.Email) []field {
	to := e.To
	if e.Name != "" {
		to = e.Name + " <" + e.To + ">"
	}
	out := []field{
		{"Date", Date(e), Date(e)},
		{"From", address(fromName(e), SenderAddress), From(e)},
	}
	if r := ReplyTo(e); r != "" {
		out = append(out, field{"Reply-To", address(e.FromName, e.ReplyTo), r})
	}
	out = append(out,
		field{"To", address(e.Name, e.To), to},
		field{"Message-ID", MessageID(e), MessageID(e)},
		field{"Subject", encodeText(e.Subject), strings.TrimSpace(cleanText(e.Subject))},
		field{"MIME-Version", "1.0", "1.0"},
		field{"Content-Type", `multipart/alternative; boundary="` + boundary(e) + `"`, `multipart/alternative; boundary="` + boundary(e) + `"`},
		field{"Auto-Submitted", "auto-generated", "auto-generated"},
		field{"X-Signsandbox-Kind", encodeText(e.Kind), cleanText(e.Kind)},
		field{"X-Signsandbox-Email-Id", encodeText(e.ID), cleanText(e.ID)},
	)
	if e.SignatureRequestID != "" {
		out = append(out, field{"X-Signsandbox-Signature-Request-Id", encodeText(e.SignatureRequestID), cleanText(e.SignatureRequestID)})
	}
	return out
}

// boundary separates the parts. It cannot occur in them: "=_" never
// appears in quoted-printable (where "=" starts an escape of two hex
// digits or a soft break) nor in base64 (which has no "_").
func boundary(e *model.Email) string {
	sum := sha256.Sum256([]byte(e.ID))
	return "=_signsandbox_" + hex.EncodeToString(sum[:12])
}

// Compose is e as a message/rfc822 document: headers, then a
// multipart/alternative body with the text part first and the HTML part
// last (the one clients prefer), lines ending in CRLF. The same e always
// gives the same bytes.
func Compose(e *model.Email) []byte {
	var h strings.Builder
	for _, f := range headerFields(e) {
		writeHeader(&h, header{f.name, f.value})
	}
	var b bytes.Buffer
	b.WriteString(h.String())
	b.WriteString("\r\nThis is a multi-part message in MIME format.\r\n")
	bd := boundary(e)
	writePart(&b, bd, "text/plain", Text(e))
	writePart(&b, bd, "text/html", HTML(e))
	b.WriteString("\r\n--" + bd + "--\r\n")
	return b.Bytes()
}

// writePart writes one part: quoted-printable, which keeps text in Latin
// scripts readable in the source, or base64 when most of the text would
// need escaping (other scripts), which is shorter then.
func writePart(b *bytes.Buffer, bd, contentType, text string) {
	b.WriteString("\r\n--" + bd + "\r\n")
	b.WriteString("Content-Type: " + contentType + "; charset=utf-8\r\n")
	text = strings.ToValidUTF8(text, "\uFFFD")
	if escapedShare(text) > 0.3 {
		b.WriteString("Content-Transfer-Encoding: base64\r\n\r\n")
		enc := base64.StdEncoding.EncodeToString([]byte(crlf(text)))
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc)
		return
	}
	b.WriteString("Content-Transfer-Encoding: quoted-printable\r\n\r\n")
	w := quotedprintable.NewWriter(b)
	_, _ = w.Write([]byte(text)) // a bytes.Buffer does not fail
	_ = w.Close()
}

// escapedShare is the share of text's bytes quoted-printable escapes.
func escapedShare(text string) float64 {
	if text == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c >= 0x80 || c == '=' {
			n++
		}
	}
	return float64(n) / float64(len(text))
}

// crlf ends every line of text with CRLF.
func crlf(text string) string {
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
}
