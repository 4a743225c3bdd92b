package state

import (
	"fmt"

	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// MaxImportDepth bounds the nesting of an imported state document. Rows nest
// a few levels inside the document; the deepest values they hold are
// metadata (16 levels at most, as API requests) and scenario rules (64, as
// scenario files), so 128 leaves room without letting a document of a few
// kilobytes make the decoder build a tree thousands of levels deep.
const MaxImportDepth = 128

// ImportError is a refused import: Path names the first bad entry in
// bracket notation (tables[jobs][2][kind]), as API errors name fields.
type ImportError struct {
	Path string
	Msg  string
}

func (e *ImportError) Error() string { return e.Path + ": " + e.Msg }

func rowPath(table string, i int, field string) string {
	p := fmt.Sprintf("tables[%s][%d]", table, i)
	if field != "" {
		p += "[" + field + "]"
	}
	return p
}

// ref is one reference a row holds: the exported field, the id, and the
// tables the id must name a row of (none: any table).
type ref struct {
	field string
	id    string
	to    []string
}

// refsOf lists the references of each table's rows that must resolve in a
// consistent world. Only references to rows the sandbox never deletes
// (accounts, signature requests) or whose deletion removes the rows that
// name them (templates, and the jobs of any object) are listed, so that
// every state the sandbox exports passes.
var refsOf = map[string]func(row any) []ref{
	TableAPIKeys: func(r any) []ref { return []ref{account("account_id", r.(*model.APIKey).AccountID)} },
	TableAPIApps: func(r any) []ref { return []ref{account("owner_account_id", r.(*model.APIApp).OwnerAccountID)} },
	TableOAuthToken: func(r any) []ref {
		return []ref{account("account_id", r.(*model.OAuthToken).AccountID)}
	},
	TableOAuthCodes: func(r any) []ref { return []ref{account("account_id", r.(*model.OAuthCode).AccountID)} },
	TableBulkSendJobs: func(r any) []ref {
		j := r.(*model.BulkSendJob)
		out := []ref{account("account_id", j.AccountID)}
		for i, id := range j.RequestIDs {
			out = append(out, ref{field: fmt.Sprintf("signature_request_ids][%d", i), id: id, to: []string{TableSignatureRequests}})
		}
		return out
	},
	TableSignatureRequests: func(r any) []ref {
		return []ref{account("requester_account_id", r.(*model.SignatureRequest).RequesterAccountID)}
	},
	TableSignatureRequestAccess: func(r any) []ref {
		a := r.(*model.SignatureRequestAccess)
		return []ref{account("account_id", a.AccountID),
			{field: "signature_request_id", id: a.RequestID, to: []string{TableSignatureRequests}}}
	},
	TableSignURLs: func(r any) []ref {
		return []ref{{field: "signature_request_id", id: r.(*model.SignURL).RequestID, to: []string{TableSignatureRequests}}}
	},
	TableTeamInvites: func(r any) []ref { return []ref{account("inviter_account_id", r.(*model.TeamInvite).InviterID)} },
	TableTemplates:   func(r any) []ref { return []ref{account("owner_account_id", r.(*model.Template).OwnerID)} },
	TableTemplateAccess: func(r any) []ref {
		a := r.(*model.TemplateAccess)
		return []ref{account("account_id", a.AccountID), {field: "template_id", id: a.TemplateID, to: []string{TableTemplates}}}
	},
	TableTemplateEditURLs: func(r any) []ref {
		u := r.(*model.TemplateEditURL)
		return []ref{account("account_id", u.AccountID), {field: "template_id", id: u.TemplateID, to: []string{TableTemplates}}}
	},
	TableUnclaimedDrafts: func(r any) []ref { return []ref{account("account_id", r.(*model.UnclaimedDraft).AccountID)} },
	TableFaxLines: func(r any) []ref {
		l := r.(*model.FaxLine)
		out := []ref{account("owner_account_id", l.OwnerAccountID)}
		for i, id := range l.AccountIDs {
			out = append(out, account(fmt.Sprintf("account_ids][%d", i), id))
		}
		return out
	},
	TableFaxes:   func(r any) []ref { return []ref{account("account_id", r.(*model.Fax).AccountID)} },
	TableReports: func(r any) []ref { return []ref{account("account_id", r.(*model.Report).AccountID)} },
	TableJobs: func(r any) []ref {
		if s := r.(*model.Job).Subject; s != "" {
			return []ref{{field: "subject", id: s}}
		}
		return nil
	},
}

func account(field, id string) ref { return ref{field: field, id: id, to: []string{TableAccounts}} }

// CheckImported checks what decoding alone cannot: that every reference
// resolves and every job kind is known. rows holds each table's rows in
// document order, so that the error names the first bad entry where the
// document has it.
func CheckImported(tx *memdb.Txn, names []string, rows map[string][]any, knownJob func(kind string) bool) error {
	all := TableNames()
	for _, name := range names {
		refs := refsOf[name]
		for i, row := range rows[name] {
			if name == TableJobs && knownJob != nil {
				if k := row.(*model.Job).Kind; !knownJob(k) {
					return &ImportError{Path: rowPath(name, i, "kind"), Msg: fmt.Sprintf("unknown job kind %q", k)}
				}
			}
			if refs == nil {
				continue
			}
			for _, r := range refs(row) {
				to := r.to
				if to == nil {
					to = all
				}
				if !exists(tx, to, r.id) {
					return &ImportError{Path: rowPath(name, i, r.field), Msg: fmt.Sprintf("%q names no row of %s", r.id, describeTables(r.to))}
				}
			}
		}
	}
	return nil
}

func exists(tx *memdb.Txn, tables []string, id string) bool {
	if id == "" {
		return false
	}
	for _, t := range tables {
		if hasRow(tx, t, id) {
			return true
		}
	}
	return false
}

func describeTables(tables []string) string {
	if tables == nil {
		return "any table"
	}
	if len(tables) == 1 {
		return "table " + tables[0]
	}
	return fmt.Sprint(tables)
}
