package state

// The stored form of access rows: the id they no longer keep is computed
// for the index and written out in exports, so that exports, imports and
// the journal read and write the same JSON as when the id was a field.

import (
	"fmt"

	"github.com/signsandbox/signsandbox/sandbox/internal/model"
)

// accessIDIndexer indexes access rows by their computed id.
type accessIDIndexer struct{}

func (accessIDIndexer) FromObject(obj any) (bool, []byte, error) {
	a, ok := obj.(*model.SignatureRequestAccess)
	if !ok {
		return false, nil, fmt.Errorf("access id index: unexpected %T", obj)
	}
	return true, []byte(a.ID() + "\x00"), nil
}

// takesIDString marks the index as keyed by an id string (row counting and
// a write's own reads find access rows by it).
func (accessIDIndexer) takesIDString() {}

func (accessIDIndexer) FromArgs(args ...any) ([]byte, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("access id index: one argument expected")
	}
	s, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("access id index: argument must be a string")
	}
	return []byte(s + "\x00"), nil
}
