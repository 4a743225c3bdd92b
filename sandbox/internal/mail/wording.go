package mail

import (
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// The kinds of e-mail the sandbox sends (notify.Mail*): each has its own
// wording here. A kind this table does not know gets a plain e-mail with
// its subject as the headline, its message and its link.
const (
	kindSignatureRequest = "signature_request"
	kindReminder         = "reminder"
	kindCompleted        = "completed"
	kindDeclined         = "declined"
	kindCanceled         = "canceled"
	kindReassigned       = "reassigned"
	kindTemplateShared   = "template_shared"
	kindReport           = "report"
	kindTeamInvite       = "team_invite"
	kindAccountConfirm   = "account_confirmation"
	kindFax              = "fax"
)

// Kinds lists the kinds with a wording of their own.
var Kinds = []string{
	kindSignatureRequest, kindReminder, kindCompleted, kindDeclined, kindCanceled, kindReassigned,
	kindTemplateShared, kindReport, kindTeamInvite, kindAccountConfirm, kindFax,
}

// content is what an e-mail says, before it is written as text and as
// HTML. Every string is plain text; the HTML writer escapes it.
type content struct {
	// Headline is the first sentence, the HTML part's heading.
	Headline string
	// Paragraphs follow it.
	Paragraphs []string
	// MessageFrom introduces Message, the requester's own words.
	MessageFrom string
	Message     string
	// Action labels the button that opens Link.
	Action string
	Link   string
	// Notes are the small print after the button.
	Notes []string
}

// quoted puts a title between quotation marks.
func quoted(s string) string { return "\u201c" + s + "\u201d" }

// party names someone by name and address, or whichever is known.
func party(name, addr string) string {
	switch {
	case name == "" || strings.EqualFold(name, addr):
		return addr
	case addr == "":
		return name
	}
	return name + " (" + addr + ")"
}

// sender is the party an e-mail comes from, as its text names them.
func sender(e *model.Email) string {
	if e.FromName == "" && e.ReplyTo == "" {
		return "Someone"
	}
	return party(e.FromName, e.ReplyTo)
}

// senderName is the sender's name alone, for "Message from ...".
func senderName(e *model.Email) string {
	if e.FromName != "" {
		return e.FromName
	}
	return e.ReplyTo
}

// wording is what an e-mail of e's kind says.
func wording(e *model.Email) content {
	title := quoted(e.Title)
	c := content{Link: e.Link}
	if e.Message != "" {
		c.MessageFrom, c.Message = "Message from "+senderName(e)+":", e.Message
	}
	switch e.Kind {
	case kindSignatureRequest:
		c.Headline = sender(e) + " has requested your signature on " + title + "."
		c.Action = "Review & sign"
		c.Notes = []string{"This link lets whoever holds it sign as " + e.To + ": please do not forward this e-mail."}
	case kindReminder:
		c.Headline = "Reminder: " + sender(e) + " is still waiting for your signature on " + title + "."
		c.Action = "Review & sign"
		c.Notes = []string{"This link lets whoever holds it sign as " + e.To + ": please do not forward this e-mail."}
	case kindCompleted:
		c.Headline = "Everyone has signed " + title + "."
		c.Paragraphs = []string{"The document is complete. A copy with every signature is ready to download."}
		c.Action = "Download the signed copy"
	case kindDeclined:
		c.Headline = title + " was declined."
		if e.Actor != "" {
			c.Paragraphs = append(c.Paragraphs, e.Actor+" declined to sign.")
		}
		if e.Note != "" {
			c.Paragraphs = append(c.Paragraphs, "Reason given: "+e.Note)
		}
		c.Paragraphs = append(c.Paragraphs, "The signature request is closed: nobody else needs to sign it.")
	case kindCanceled:
		c.Headline = sender(e) + " canceled the signature request for " + title + "."
		c.Paragraphs = []string{"You no longer need to sign this document."}
	case kindReassigned:
		c.Headline = "You reassigned " + title + "."
		if e.Actor != "" {
			c.Paragraphs = append(c.Paragraphs, e.Actor+" has been asked to sign in your place.")
		}
		if e.Note != "" {
			c.Paragraphs = append(c.Paragraphs, "Your note: "+e.Note)
		}
	case kindTemplateShared:
		c.Headline = sender(e) + " shared the template " + title + " with you."
		c.Paragraphs = []string{"You can now send signature requests with it."}
	case kindTeamInvite:
		c.Headline = sender(e) + " has invited you to join the team " + title + " on Dropbox Sign."
		c.Paragraphs = []string{"Members of a team share templates and see each other's signature requests."}
		c.Action = "Accept the invitation"
	case kindAccountConfirm:
		c.Headline = "Please confirm your e-mail address."
		c.Paragraphs = []string{
			"A Dropbox Sign account was created for " + e.To + ". Confirm that this address is yours to finish setting it up.",
			"In signsandbox, POST /_sandbox/accounts/{account_id}/confirm stands in for the confirmation link.",
		}
	case kindReport:
		c.Headline = "Your report is ready."
		if e.Title != "" {
			c.Paragraphs = []string{"The " + e.Title + " is ready to download as a CSV file."}
		}
		c.Action = "Download the report"
	case kindFax:
		c.Headline = "You received a fax: " + title + "."
		c.Action = "Download the fax"
	default:
		c.Headline = e.Subject
		c.Action = "Open"
	}
	if c.Link == "" {
		c.Action = ""
	}
	return c
}

// footer is the small print every e-mail ends with: who it was for and
// that no real service sent it.
func footer(e *model.Email) []string {
	out := []string{"signsandbox composed this e-mail for " + e.To +
		" as Dropbox Sign would send it. It was not sent by Dropbox Sign."}
	if e.Brand != nil && e.Brand.AppName != "" {
		out = append(out, "Sent through "+e.Brand.AppName+".")
	}
	return out
}
