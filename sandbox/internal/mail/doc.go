// Package mail composes the e-mails of the outbox as the messages a
// recipient's mail client would receive: multipart/alternative with a
// text/plain and a text/html part in UTF-8, headers (From, Reply-To, To,
// Subject, Date, Message-ID, MIME-Version) encoded as RFC 5322 and RFC
// 2047 want them, the wording of each kind of e-mail, and the white
// labeling of the API app a request was sent through.
//
// The outbox keeps a small record per e-mail (model.Email); a message is
// composed from it whenever it is read (the control plane's views, the
// SMTP relay), and the same record always gives the same bytes: the date
// is the world-clock instant it was sent, the Message-ID and the MIME
// boundary come from its id.
package mail
