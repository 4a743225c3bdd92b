package state

import (
	"fmt"
	"sync/atomic"
)

// Budget bounds the file bytes several stores hold together: a server's
// worlds share one, beside each world's own Config.MaxWorldBytes. It counts
// distinct contents (UniqueBytes, what the files take in memory), and a
// write that would take it over its limit is refused whole (ErrBudget):
// nothing already stored is lost.
type Budget struct {
	limit int64
	used  atomic.Int64
}

// NewBudget makes a budget of limit bytes (0 or less: no limit, only
// counted).
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// Limit is the budget's bound in bytes (0 or less: none).
func (b *Budget) Limit() int64 { return b.limit }

// Used is what the stores hold now.
func (b *Budget) Used() int64 { return b.used.Load() }

// Fits reports whether n more bytes would stay within the limit (a check
// before the write, so that the caller can name the field that adds them).
func (b *Budget) Fits(n int64) bool { return b.limit <= 0 || b.used.Load()+n <= b.limit }

// reserve counts n more bytes when they fit.
func (b *Budget) reserve(n int64) bool {
	for {
		cur := b.used.Load()
		if b.limit > 0 && cur+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(cur, cur+n) {
			return true
		}
	}
}

// BudgetError is the refusal of a write that would take a Budget over its
// limit.
type BudgetError struct {
	Limit, Used, Adding int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("these files (%d bytes) would take the server's stored files to %d bytes, over its limit of %d bytes",
		e.Adding, e.Used+e.Adding, e.Limit)
}

// SetBudget makes the store count its distinct file bytes in b (nil: in
// none) and refuse writes that would take b over its limit. What the store
// already holds is counted at once.
func (s *Store) SetBudget(b *Budget) {
	s.swap.Lock()
	defer s.swap.Unlock()
	held := readUsage(s.db.Load().Txn(false)).ContentBytes
	if s.budget != nil {
		s.budget.used.Add(-held)
	}
	s.budget = b
	if b != nil {
		b.used.Add(held)
	}
}

// budgetDelta settles a write's change of distinct file bytes with the
// budget before it commits: growth is reserved or the write refused.
func (s *Store) budgetDelta(tx *Txn, before int64) (int64, error) {
	if s.budget == nil {
		return 0, nil
	}
	delta := readUsage(tx.mem).ContentBytes - before
	if delta > 0 && !s.budget.reserve(delta) {
		return 0, &BudgetError{Limit: s.budget.limit, Used: s.budget.Used(), Adding: delta}
	}
	return delta, nil
}

// ServerBudget is the budget the transaction's store counts in, or nil: a
// write checks it before it stores files, so that its refusal names the
// parameter that brought them (the commit refuses anything that slips past).
func ServerBudget(tx *Txn) *Budget { return tx.budget }

// NewContentBytes is how many bytes storing datas would add to the world's
// distinct contents: bytes it already holds, or that come twice among
// datas, count once or not at all, as the store will keep them.
func NewContentBytes(tx *Txn, datas ...[]byte) (int64, error) {
	var n int64
	seen := map[string]bool{}
	for _, d := range datas {
		h := contentHash(d)
		if seen[h] {
			continue
		}
		seen[h] = true
		raw, err := tx.First(tableBlobContents, IndexID, h)
		if err != nil {
			return 0, fmt.Errorf("state: %s: %w", tableBlobContents, err)
		}
		if raw == nil {
			n += int64(len(d))
		}
	}
	return n, nil
}
