package sandbox

import (
	"github.com/signsandbox/signsandbox/sandbox/internal/api"
	"github.com/signsandbox/signsandbox/sandbox/internal/document"
	"github.com/signsandbox/signsandbox/sandbox/internal/state"
	"github.com/signsandbox/signsandbox/sandbox/internal/wire"
)

// collectDocuments is Collect under the name the fax operations
// (api_fax.go) still call it by; it goes when faxes leave the facade.
func collectDocuments(s *api.Host, c *api.Call, uploads []wire.File, fileURLs []string) ([]document.Pending, error) {
	return document.Collect(s, c, uploads, fileURLs)
}

// storeDocuments is Store under the name the fax operations (api_fax.go)
// still call it by; it goes when faxes leave the facade.
func storeDocuments(tx *state.Txn, docs []document.Pending) ([]state.Document, error) {
	return document.Store(tx, docs)
}
