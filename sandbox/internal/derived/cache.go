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
	// cost, when set, weighs entries (their bytes), and maxCost bounds the
	// total weight besides the number of entries.
	cost    func(V) int64
	maxCost int64
	total   int64
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	cost int64
}

// NewCache makes a cache of at most bound entries (at least one).
func NewCache[K comparable, V any](bound int) *Cache[K, V] {
	return &Cache[K, V]{max: max(1, bound), order: list.New(), entries: map[K]*list.Element{}}
}

// NewSizedCache makes a cache of at most bound entries that weigh at most
// maxCost together, each weighing cost(value). A value heavier than
// maxCost is answered but not kept.
func NewSizedCache[K comparable, V any](bound int, maxCost int64, cost func(V) int64) *Cache[K, V] {
	c := NewCache[K, V](bound)
	c.cost, c.maxCost = cost, maxCost
	return c
}

// Get returns the value for key, computing it with derive on a miss. Two
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
	e := &entry[K, V]{key: key, val: v}
	if c.cost != nil {
		if e.cost = c.cost(v); e.cost > c.maxCost {
			return v // not kept: it would push out everything else
		}
	}
	c.entries[key] = c.order.PushFront(e)
	c.total += e.cost
	for c.order.Len() > c.max || (c.cost != nil && c.total > c.maxCost) {
		last := c.order.Back()
		c.order.Remove(last)
		old := last.Value.(*entry[K, V])
		c.total -= old.cost
		delete(c.entries, old.key)
	}
	return v
}

// Lookup returns the cached value of key, if any.
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
