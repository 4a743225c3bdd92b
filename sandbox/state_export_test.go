package sandbox

// Test-only entry point for the black-box state tests (package
// sandbox_test): the rows of the default world as they are stored, to
// compare them with what their JSON decodes to.

import "github.com/signsandbox/signsandbox/sandbox/internal/state"

// StoredRows returns every row of every table of the default world, in id
// order, as stored.
func StoredRows(s *Sandbox) (map[string][]any, error) {
	tx := s.host.DefaultWorld().Store.Read()
	out := map[string][]any{}
	for _, name := range state.TableNames() {
		rows, err := state.Rows(tx, name)
		if err != nil {
			return nil, err
		}
		out[name] = rows
	}
	return out, nil
}
