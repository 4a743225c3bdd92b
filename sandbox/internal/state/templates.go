package state

import (
	memdb "github.com/hashicorp/go-memdb"
	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// Template tables and indexes.
const (
	TableTemplates = "templates"
	// TableTemplateAccess has one row per (template, account that may use
	// it): the owner and every account it was shared with. Lists read it by
	// account, newest template first, without touching other accounts' rows.
	TableTemplateAccess = "template_access"
	// TableTemplateEditURLs holds the edit URLs handed out for embedded
	// templates (create_embedded_draft, embedded/edit_url).
	TableTemplateEditURLs = "template_edit_urls"

	// IndexTemplate finds rows by template id.
	IndexTemplate = "template"
)

// registerTemplates adds the templates, their access rows and edit URLs.
func registerTemplates() {
	Register[model.Template](&memdb.TableSchema{
		Name: TableTemplates,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
		},
	})
	Register[model.TemplateAccess](&memdb.TableSchema{
		Name: TableTemplateAccess,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID: {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}},
			IndexAccount: {Name: IndexAccount, Unique: true, Indexer: &memdb.CompoundIndex{Indexes: []memdb.Indexer{
				&memdb.StringFieldIndex{Field: "AccountID"},
				&UintKey{Field: "Seq"},
			}}},
			IndexTemplate: {Name: IndexTemplate, Indexer: &memdb.StringFieldIndex{Field: "TemplateID"}},
		},
	})
	Register[model.TemplateEditURL](&memdb.TableSchema{
		Name: TableTemplateEditURLs,
		Indexes: map[string]*memdb.IndexSchema{
			IndexID:       {Name: IndexID, Unique: true, Indexer: &memdb.StringFieldIndex{Field: "Token"}},
			IndexTemplate: {Name: IndexTemplate, Indexer: &memdb.StringFieldIndex{Field: "TemplateID"}},
		},
	})
}

// GetTemplate reads a template (ErrNotFound when the world has none with
// that id).
func GetTemplate(tx *Txn, id string) (*model.Template, error) {
	return Get[model.Template](tx, TableTemplates, id)
}

func accessID(templateID, accountID string) string { return templateID + "/" + accountID }

// PutTemplate stores a template and brings its access rows in line with
// OwnerID and SharedWith.
func PutTemplate(tx *Txn, t *model.Template) error {
	if err := Put(tx, TableTemplates, t); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, a := range t.Accounts() {
		want[a] = true
	}
	rows, err := All[model.TemplateAccess](tx, TableTemplateAccess, IndexTemplate, t.ID)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, r := range rows {
		if !want[r.AccountID] {
			if err := tx.Delete(TableTemplateAccess, r); err != nil {
				return err
			}
			continue
		}
		have[r.AccountID] = true
	}
	for _, a := range t.Accounts() {
		if have[a] {
			continue
		}
		have[a] = true
		if err := Put(tx, TableTemplateAccess, &model.TemplateAccess{ID: accessID(t.ID, a), TemplateID: t.ID, AccountID: a, Seq: t.Seq}); err != nil {
			return err
		}
	}
	return nil
}

// DeleteTemplate removes a template with its access rows and edit URLs,
// and releases its document blobs (kept while requests made from it name
// them).
func DeleteTemplate(tx *Txn, id string) error {
	t, err := GetTemplate(tx, id)
	if err != nil {
		return err
	}
	if err := releaseHolder(tx, t); err != nil {
		return err
	}
	if _, err := tx.DeleteAll(TableTemplateAccess, IndexTemplate, id); err != nil {
		return err
	}
	if _, err := tx.DeleteAll(TableTemplateEditURLs, IndexTemplate, id); err != nil {
		return err
	}
	return tx.Delete(TableTemplates, t)
}

// TemplatesOf calls fn with the templates an account may use, newest first,
// until fn returns false. It reads only that account's access rows.
func TemplatesOf(tx *Txn, accountID string, fn func(*model.Template) bool) error {
	it, err := tx.mem.GetReverse(TableTemplateAccess, IndexAccount+"_prefix", OnlyID(accountID))
	if err != nil {
		return err
	}
	for raw := it.Next(); raw != nil; raw = it.Next() {
		a := raw.(*model.TemplateAccess)
		t, err := GetTemplate(tx, a.TemplateID)
		if err != nil {
			continue
		}
		if !fn(t) {
			return nil
		}
	}
	return nil
}
