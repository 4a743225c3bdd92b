package state

import memdb "github.com/hashicorp/go-memdb"

// stringField is memdb's StringFieldIndex on a string field of *T, read
// without reflection. memdb asks a table's id index for a row's key two
// or three times per Insert (to find the row it replaces, for the index,
// for the replaced row's entry), and StringFieldIndex finds the field by
// name through reflection and copies the string twice to make the key.
// The tables every clock advance job writes (requests, e-mails, events,
// compact buckets) read their ids through this instead. The keys are
// StringFieldIndex's, byte for byte, and so are lookups (FromArgs makes
// the same key; PrefixFromArgs is the embedded index's own): nothing
// stored or looked up changes.
type stringField[T any] struct {
	memdb.StringFieldIndex
	get func(*T) string
}

// fieldIndex is the id index on field of *T, which get reads.
func fieldIndex[T any](field string, get func(*T) string) *stringField[T] {
	return &stringField[T]{StringFieldIndex: memdb.StringFieldIndex{Field: field}, get: get}
}

// FromObject is the key of a row: its field and a NUL, none for an empty
// field; anything but a *T is StringFieldIndex's to answer.
func (f *stringField[T]) FromObject(obj any) (bool, []byte, error) {
	r, ok := obj.(*T)
	if !ok || r == nil {
		return f.StringFieldIndex.FromObject(obj)
	}
	s := f.get(r)
	if s == "" {
		return false, nil, nil
	}
	key := make([]byte, len(s)+1)
	copy(key, s)
	return true, key, nil
}

// FromArgs is the key of a lookup by id: the id and a NUL, as
// StringFieldIndex makes it, in one allocation where StringFieldIndex
// makes two (it appends the NUL to a string, then copies that into
// bytes). A write reads the rows it is about to change by id, and a full
// log's trim every entry it drops. Anything else is StringFieldIndex's
// to answer.
func (f *stringField[T]) FromArgs(args ...any) ([]byte, error) {
	if len(args) == 1 && !f.Lowercase {
		switch a := args[0].(type) {
		case string:
			key := make([]byte, len(a)+1)
			copy(key, a)
			return key, nil
		case lookupKey:
			return a, nil
		}
	}
	return f.StringFieldIndex.FromArgs(args...)
}

// lookupKey is the whole key of a lookup by a stringField index (the id
// and its NUL), made by a caller that builds ids in bytes anyway
// (compactIndex.bucketLookup), so that it is not copied again.
type lookupKey []byte

// takesIDString: lookups take the id string (idStringIndexer).
func (*stringField[T]) takesIDString() {}

// rowIDOf reads a row's id (ok false for anything but a *T).
func (f *stringField[T]) rowIDOf(row any) (string, bool) {
	r, ok := row.(*T)
	if !ok || r == nil {
		return "", false
	}
	return f.get(r), true
}

// stringFieldIndex is the StringFieldIndex whose keys the index makes.
func (f *stringField[T]) stringFieldIndex() *memdb.StringFieldIndex { return &f.StringFieldIndex }

// rowIDReader is an id index that reads a row's id itself (stringField).
type rowIDReader interface {
	rowIDOf(row any) (string, bool)
}
