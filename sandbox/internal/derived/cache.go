// Package derived keeps files the sandbox derives from its inputs in a
// bounded cache, so that the same input is not rendered again on every
// request. Derivations are pure functions of their key (byte-for-byte
// deterministic), so a cached answer is exactly what rendering again would
// give, and the cache can be shared by every world of a process.
package derived

import (
	"container/list"
	"sync"
)

// Cache is a bounded least-recently-used memo of a pure function.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	order   *list.List // front: most recently used
	entries map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key K
	val V
}

// NewCache makes a cache of at most bound entries (at least one).
func NewCache[K comparable, V any](bound int) *Cache[K, V] {
	return &Cache[K, V]{max: max(1, bound), order: list.New(), entries: map[K]*list.Element{}}
}

// Get answers the value for key, computing it with derive on a miss. Two
// concurrent misses of one key may both derive; they get equal values.
func (c *Cache[K, V]) Get(key K, derive func(K) V) V {
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		v := el.Value.(*entry[K, V]).val
		c.mu.Unlock()
		return v
	}
	c.mu.Unlock()
	v := derive(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*entry[K, V]).val
	}
	c.entries[key] = c.order.PushFront(&entry[K, V]{key: key, val: v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*entry[K, V]).key)
	}
	return v
}

// Lookup answers the cached value of key, if any.
func (c *Cache[K, V]) Lookup(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Len is the number of cached entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
