package state

import (
	"cmp"
	"slices"
)

// inStoreOrder answers the keys of the buckets a write changed in the
// order it stores them: by the tag of their table or index, then by
// bucket number. A fixed order keeps memdb's changes, and so journals,
// the same from run to run; a map's order would not.
func inStoreOrder[K comparable, V any](changed map[K]V, tag func(K) string, n func(K) uint64) []K {
	refs := make([]K, 0, len(changed))
	for ref := range changed {
		refs = append(refs, ref)
	}
	slices.SortFunc(refs, func(a, b K) int {
		if c := cmp.Compare(tag(a), tag(b)); c != 0 {
			return c
		}
		return cmp.Compare(n(a), n(b))
	})
	return refs
}
