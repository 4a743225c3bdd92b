package wire

// PHP arrays. The service behind the API is a PHP application, and its
// official PHP SDK sends PHP arrays as they are: PHP has one array type for
// lists and maps, so json_encode writes an empty array as [] whatever it
// stands for ("metadata": [], as the official fax examples answer), and a
// list with a gap in its keys (after array_filter) as an object with
// numeric keys ({"0": {...}, "2": {...}}). The SDK keeps such keys on
// purpose: its test testExplicitIndexKeysAreKeptForNestedValues sends
// signers {"1": {...}} with a form field whose signer is 1. A PHP service
// reads both shapes into the same array, so the sandbox reads them as one:
//
//   - where an object is expected, an empty array (or the text [] of a
//     multipart part) is an empty object;
//   - where a list is expected, an object whose keys are all list indexes
//     (canonical decimals) is the list of its entries in index order, in
//     JSON, in a multipart part's JSON text and in bracket forms alike
//     (signers[0], signers[2]);
//   - the keys of signers, grouped_signers and signer_roles are the indexes
//     the signer of a form field and the signer_index of an attachment
//     name (ReadPHPArrays);
//   - an error names an entry of a top-level list by the key the client
//     gave it (KeyedError): operations count entries by position.
//
// A non-empty array where an object is expected, and an object with other
// keys where a list is expected, stay 400s naming the parameter.

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/signsandbox/signsandbox/sandbox/internal/apierr"
)

// IndexedList reads an object whose keys are all list indexes as the list
// of its entries in index order, with the keys in that order; ok is false
// when a key is not a canonical index ("01", "-1", "a").
func IndexedList(m map[string]any) (list []any, keys []string, ok bool) {
	type entry struct {
		i   int
		key string
	}
	entries := make([]entry, 0, len(m))
	for k := range m {
		i, isIndex := canonicalIndex(k)
		if !isIndex {
			return nil, nil, false
		}
		entries = append(entries, entry{i, k})
	}
	sort.Slice(entries, func(a, b int) bool { return entries[a].i < entries[b].i })
	list, keys = make([]any, len(entries)), make([]string, len(entries))
	for n, e := range entries {
		list[n], keys[n] = m[e.key], e.key
	}
	return list, keys, true
}

// consecutive reports whether keys are exactly 0, 1, 2, ... (a list
// without gaps, whose keys say nothing its positions do not).
func consecutive(keys []string) bool {
	for i, k := range keys {
		if k != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// freeFormObjects are the object parameters whose keys are the client's
// data, so that numeric keys there name no list entries.
var freeFormObjects = map[string]bool{"metadata": true}

// sparseIndexKeys answers the keys of form parameter name given with list
// indexes that are not 0, 1, 2, ... (signers[0], signers[2]), before
// normalizeValue makes it a list; nil for anything else.
func sparseIndexKeys(name string, v any) []string {
	if freeFormObjects[name] {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	if _, appended := m[appendKey]; appended {
		return nil
	}
	_, keys, ok := IndexedList(m)
	if !ok || consecutive(keys) {
		return nil
	}
	return keys
}

// signerLists are the list parameters whose entries the signer of a form
// field and the signer_index of an attachment name by index (one of them
// per request).
var signerLists = []string{"signers", "grouped_signers", "signer_roles"}

// ReadPHPArrays records the keys of every top-level list parameter given
// with gaps in its keys (JSON, a multipart part's JSON text; bracket forms
// were recorded when read), for KeyedError, and makes the keys of a signer
// list the indexes that form fields and attachments name: their signer and
// signer_index become the entry's position in the list the operation
// reads. A number that names no key is refused, naming the field. Lists
// without gaps are left alone.
func (b *Body) ReadPHPArrays() error {
	for name := range b.Tree {
		if b.ListKeys[name] != nil || freeFormObjects[name] {
			continue
		}
		if keys := b.listKeys(name); keys != nil && !consecutive(keys) {
			if b.ListKeys == nil {
				b.ListKeys = map[string][]string{}
			}
			b.ListKeys[name] = keys
		}
	}
	for _, name := range signerLists {
		keys := b.ListKeys[name]
		if keys == nil {
			continue
		}
		pos := make(map[string]int, len(keys))
		for i, k := range keys {
			pos[k] = i
		}
		for _, ref := range [][2]string{{"form_fields_per_document", "signer"}, {"attachments", "signer_index"}} {
			if err := b.renumber(ref[0], ref[1], name, keys, pos); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}

// KeyedError returns e with the entries of top-level lists given with gaps
// named by the keys the client gave them (signers[1] is signers[2] when the
// keys were 0 and 2), in its path and message; e itself when nothing
// changes.
func (b *Body) KeyedError(e *apierr.Error) *apierr.Error {
	if b == nil || len(b.ListKeys) == 0 || e == nil {
		return e
	}
	path, msg := b.keyed(e.Path), b.keyed(e.Msg)
	if path == e.Path && msg == e.Msg {
		return e
	}
	c := *e
	c.Path, c.Msg = path, msg
	return &c
}

// keyed rewrites name[N] of every recorded list in text to name[key].
func (b *Body) keyed(text string) string {
	if !strings.Contains(text, "[") {
		return text
	}
	var out strings.Builder
	rest := text
	for {
		i := strings.IndexByte(rest, '[')
		if i < 0 {
			break
		}
		end := strings.IndexByte(rest[i:], ']')
		if end < 0 {
			break
		}
		end += i
		name := lastName(rest[:i])
		keys := b.ListKeys[name]
		n, isIndex := canonicalIndex(rest[i+1 : end])
		// Only the first bracket after a parameter's name is its index:
		// signers[1][0] keeps its 0.
		if keys != nil && isIndex && n < len(keys) && name != "" {
			out.WriteString(rest[:i+1])
			out.WriteString(keys[n])
			out.WriteByte(']')
		} else {
			out.WriteString(rest[:end+1])
		}
		rest = rest[end+1:]
	}
	out.WriteString(rest)
	return out.String()
}

// lastName is the parameter name that text ends with (letters, digits and
// underscores right before a bracket), "" when it ends otherwise.
func lastName(text string) string {
	i := len(text)
	for i > 0 {
		c := text[i-1]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			i--
			continue
		}
		break
	}
	return text[i:]
}

// listKeys answers the keys of a parameter given as an object with index
// keys (JSON, or a multipart part's JSON text); nil otherwise.
func (b *Body) listKeys(name string) []string {
	switch v := b.Tree[name].(type) {
	case map[string]any:
		if _, keys, ok := IndexedList(v); ok {
			return keys
		}
	case string:
		if m, ok := jsonObjectText(v); ok {
			if _, keys, ok := IndexedList(m); ok && len(keys) > 0 {
				return keys
			}
		}
	}
	return nil
}

// jsonObjectText parses the JSON text of a multipart part holding an
// object; ok is false for anything else (the decoder reports bad JSON).
func jsonObjectText(s string) (map[string]any, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return nil, false
	}
	v, err := parseJSONText(s, "")
	m, ok := v.(map[string]any)
	return m, err == nil && ok
}

// renumber rewrites the index references key (signer, signer_index) of the
// entries of parameter param, which name entries of the list name by their
// keys, into positions. form_fields_per_document may be a list of lists
// (one per document). A parameter whose shape is wrong is left for the
// decoder to refuse.
func (b *Body) renumber(param, key, name string, keys []string, pos map[string]int) error {
	raw, ok := b.Tree[param]
	if !ok {
		return nil
	}
	if s, isText := raw.(string); isText {
		v, err := parseJSONText(strings.TrimSpace(s), param)
		if err != nil {
			return nil
		}
		raw = v
	}
	var walk func(v any, path string) error
	walk = func(v any, path string) error {
		entries, paths := entriesOf(v, path)
		for i, e := range entries {
			switch t := e.(type) {
			case []any, map[string]any:
				if m, isObj := t.(map[string]any); isObj {
					if _, _, isList := IndexedList(m); !isList || len(m) == 0 {
						if err := renumberOne(m, key, paths[i], name, keys, pos); err != nil {
							return err
						}
						continue
					}
				}
				if err := walk(t, paths[i]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(raw, param); err != nil {
		return err
	}
	b.Tree[param] = raw
	return nil
}

// entriesOf answers the entries of a list (or of an object with index
// keys) with their paths, by position as the operation counts them.
func entriesOf(v any, path string) ([]any, []string) {
	var list []any
	switch t := v.(type) {
	case []any:
		list = t
	case map[string]any:
		var ok bool
		if list, _, ok = IndexedList(t); !ok {
			return nil, nil
		}
	}
	paths := make([]string, len(list))
	for i := range list {
		paths[i] = path + "[" + strconv.Itoa(i) + "]"
	}
	return list, paths
}

// renumberOne rewrites one entry's reference: a whole number names a key of
// the list and becomes that entry's position; anything else (me_now,
// sender, a role name) is left as it is.
func renumberOne(entry map[string]any, key, path, name string, keys []string, pos map[string]int) error {
	v, ok := entry[key]
	if !ok {
		return nil
	}
	var text string
	switch t := v.(type) {
	case json.Number:
		text = string(t)
	case string:
		text = strings.TrimSpace(t)
	default:
		return nil
	}
	n, err := strconv.Atoi(text)
	if err != nil {
		return nil
	}
	p, found := pos[strconv.Itoa(n)]
	if !found {
		return apierr.Badf(path+"["+key+"]", "%s %d names no entry of %s, whose indexes are %s.", key, n, name, strings.Join(keys, ", "))
	}
	entry[key] = json.Number(strconv.Itoa(p))
	return nil
}
