package state

import (
	"strings"
)

// EmailKey normalizes an e-mail address for lookups: addresses compare
// case-insensitively, as they do in the real service.
func EmailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// Clone returns a shallow copy of a stored row, the first step of every change
// (memdb rows are shared with readers and never changed in place).
func Clone[T any](row *T) *T {
	c := *row
	return &c
}
