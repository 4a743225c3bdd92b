package state

// How a bucketed table's buckets (bucket_rows.go) are stored: all of
// them in one row of row_buckets, a tree of fixed depth 16 wide at each
// level (bucketTree), not a row each.
//
// A row each made every bucket a go-immutable-radix entry of its own, and
// storing one copied the path to it through a tree of 8,192 keys: five
// nodes of up to 16 edges, each copy with a new change channel and an
// entry in the radix transaction's cache, about 2.8 KB per bucket and so
// 5.6 KB per send (the request's bucket and its access row's). The tree
// here copies three arrays of 16 pointers (about 400 bytes) to store a
// bucket, and memdb stores the table's one row in a tree of two keys. A
// write copies each array of the path once, however many of its buckets
// it shares (a clock advance's batch), and stored trees are never changed.

import (
	"fmt"
	"slices"

	memdb "github.com/hashicorp/go-memdb"
)

// bucketBits: a bucketed table has 1<<bucketBits buckets, numbered by 12
// bits in three levels of four.
const (
	bucketBits = 12
	treeWidth  = 16
)

// bucketTree is a bucketed table's row of row_buckets: its buckets, by
// number, in Pages[n>>8][n>>4&15][n&15] (nil: empty).
type bucketTree struct {
	Tag   string
	Pages [treeWidth]*bucketPages
}

type (
	bucketPages [treeWidth]*bucketPage
	bucketPage  [treeWidth]*rowBucket
)

// bucket answers bucket n of the tree (nil: empty, or no tree).
func (t *bucketTree) bucket(n uint64) *rowBucket {
	if t == nil {
		return nil
	}
	pages := t.Pages[n>>8&0xf]
	if pages == nil {
		return nil
	}
	page := pages[n>>4&0xf]
	if page == nil {
		return nil
	}
	return page[n&0xf]
}

// storedTree answers the tree of bt as tx holds it (nil: none).
func storedTree(tx *memdb.Txn, bt *bucketTable) *bucketTree {
	raw, err := tx.First(tableRowBuckets, IndexID, bt.tag)
	if err != nil || raw == nil {
		return nil // the table and its id index are the schema's
	}
	return raw.(*bucketTree)
}

// withBuckets answers a tree that is stored with the buckets changed
// (refs, all of one table, in order; an empty bucket is left out), built
// on stored: each array on a changed bucket's path is copied once.
func withBuckets(stored *bucketTree, tag string, refs []bucketRef, changed map[bucketRef]*rowBucket) *bucketTree {
	t := &bucketTree{Tag: tag}
	if stored != nil {
		t.Pages = stored.Pages
	}
	var pagesCopied [treeWidth]bool
	var pageCopied [treeWidth * treeWidth]bool
	for _, ref := range refs {
		i, j := ref.n>>8&0xf, ref.n>>4&0xff
		if !pagesCopied[i] {
			pagesCopied[i] = true
			c := new(bucketPages)
			if t.Pages[i] != nil {
				*c = *t.Pages[i]
			}
			t.Pages[i] = c
		}
		pages := t.Pages[i]
		if !pageCopied[j] {
			pageCopied[j] = true
			c := new(bucketPage)
			if pages[j&0xf] != nil {
				*c = *pages[j&0xf]
			}
			pages[j&0xf] = c
		}
		b := changed[ref]
		switch {
		case len(b.Rows) == 0:
			b = nil
		case cap(b.Rows) > len(b.Rows)+len(b.Rows)/4+1:
			b.Rows = slices.Clip(slices.Clone(b.Rows)) // the room a batch grew is not kept
		}
		pages[j&0xf][ref.n&0xf] = b
	}
	return t
}

// eachTreeBucket calls fn with every bucket of a tree that holds rows,
// and its number, in number order.
func eachTreeBucket(t *bucketTree, fn func(n uint64, b *rowBucket)) {
	if t == nil {
		return
	}
	for i, pages := range t.Pages {
		if pages == nil {
			continue
		}
		for j, page := range pages {
			if page == nil {
				continue
			}
			for k, b := range page {
				if b != nil {
					fn(uint64(i)<<8|uint64(j)<<4|uint64(k), b)
				}
			}
		}
	}
}

// putTree stores a tree.
func putTree(tx *memdb.Txn, t *bucketTree) error {
	if err := tx.Insert(tableRowBuckets, t); err != nil {
		return fmt.Errorf("state: insert %s: %w", tableRowBuckets, err)
	}
	return nil
}
