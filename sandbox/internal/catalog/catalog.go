// Package catalog is the read side of a world: every kind of object,
// listed and shown as the official API shows it, without importing the code
// that owns the kind. Each resource adds its kind when it registers; readers
// only know kind names. It is the one registry of object views: the console
// lists and shows objects through it, and the event notifier renders the
// object an event carries through it (GetFor), for each account the event
// reports to.
package catalog

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/signsandbox/signsandbox/sandbox/internal/state"
)

// DefaultLimit is the page size of List when the filter gives none, and
// MaxLimit the largest it accepts.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// ErrUnknownKind is returned for a kind nobody registered.
var ErrUnknownKind = errors.New("catalog: unknown kind")

// Kind is one kind of object of a world: where its rows live and how the
// official API shows one. Build it with Of.
type Kind struct {
	// Name is the object's wire name ("signature_request", "template").
	Name string
	// Table is the state table its rows live in, keyed by the id index.
	Table string

	id func(row any) string
	// view renders a row as the official API shows it to viewer (an
	// account id; "" for the object's owner).
	view     func(tx *state.Txn, row any, viewer string) (any, error)
	involves func(tx *state.Txn, row any, accountID string) bool
}

// Of describes a kind whose rows are *T. id answers a row's id (the value
// of its table's id index); view renders the row as the official API shows
// it to its owner; involves reports whether an account owns or takes part
// in the object (nil: only Filter.AccountID "" lists it).
func Of[T any](name, table string, id func(*T) string, view func(tx *state.Txn, row *T) (any, error), involves func(tx *state.Txn, row *T, accountID string) bool) Kind {
	return OfViewer(name, table, id,
		func(tx *state.Txn, row *T, _ string) (any, error) { return view(tx, row) }, involves)
}

// OfViewer describes a kind shown differently to each account (a template's
// is_creator): view renders a row as the official API shows it to viewer, an
// account id, or to the object's owner when viewer is "" (Get and List ask
// that way).
func OfViewer[T any](name, table string, id func(*T) string, view func(tx *state.Txn, row *T, viewer string) (any, error), involves func(tx *state.Txn, row *T, accountID string) bool) Kind {
	k := Kind{
		Name:  name,
		Table: table,
		id:    func(row any) string { return id(row.(*T)) },
		view:  func(tx *state.Txn, row any, viewer string) (any, error) { return view(tx, row.(*T), viewer) },
	}
	if involves != nil {
		k.involves = func(tx *state.Txn, row any, accountID string) bool { return involves(tx, row.(*T), accountID) }
	}
	return k
}

// Filter narrows a List.
type Filter struct {
	// AccountID keeps the objects the account owns or takes part in ("":
	// every object of the world).
	AccountID string
	// Limit is the page size (DefaultLimit when 0, at most MaxLimit).
	Limit int
}

// Page is one page of a List: views in id order, and the cursor of the
// next page ("" after the last).
type Page struct {
	Items []any
	Next  string
}

// Catalog holds the kinds of a sandbox. It is filled while the sandbox is
// built and only read afterwards.
type Catalog struct {
	kinds map[string]Kind
}

// New returns an empty catalog.
func New() *Catalog { return &Catalog{kinds: map[string]Kind{}} }

// Add registers a kind; a name registered twice is a programming error.
func (c *Catalog) Add(k Kind) {
	if _, dup := c.kinds[k.Name]; dup {
		panic("catalog: kind registered twice: " + k.Name)
	}
	c.kinds[k.Name] = k
}

// Has reports whether a kind is registered.
func (c *Catalog) Has(kind string) bool {
	_, ok := c.kinds[kind]
	return ok
}

// Kinds lists the registered kind names, sorted.
func (c *Catalog) Kinds() []string {
	return slices.Sorted(maps.Keys(c.kinds))
}

func (c *Catalog) kind(name string) (Kind, error) {
	k, ok := c.kinds[name]
	if !ok {
		return Kind{}, fmt.Errorf("%w %q", ErrUnknownKind, name)
	}
	return k, nil
}

// Get shows one object as its owner sees it: state.ErrNotFound when the
// world has no such row.
func (c *Catalog) Get(tx *state.Txn, kind, id string) (any, error) {
	return c.GetFor(tx, kind, id, "")
}

// GetFor shows one object as GET shows it to viewer (an account id; "" for
// the object's owner): an event's object as each callback receiver sees it.
func (c *Catalog) GetFor(tx *state.Txn, kind, id, viewer string) (any, error) {
	k, err := c.kind(kind)
	if err != nil {
		return nil, err
	}
	row, err := tx.First(k.Table, state.IndexID, id)
	if err != nil {
		return nil, fmt.Errorf("catalog: %s: %w", kind, err)
	}
	if row == nil {
		return nil, state.ErrNotFound
	}
	return k.view(tx, row, viewer)
}

// List shows the objects of a kind in id order, from the one after cursor
// ("" for the first page): a page costs the rows it skips by filter plus
// its own, whatever the world holds before the cursor.
func (c *Catalog) List(tx *state.Txn, kind string, f Filter, cursor string) (Page, error) {
	k, err := c.kind(kind)
	if err != nil {
		return Page{}, err
	}
	limit := f.Limit
	switch {
	case limit <= 0:
		limit = DefaultLimit
	case limit > MaxLimit:
		limit = MaxLimit
	}
	it, err := tx.LowerBound(k.Table, state.IndexID, cursor)
	if err != nil {
		return Page{}, fmt.Errorf("catalog: %s: %w", kind, err)
	}
	var page Page
	last := ""
	for raw := it.Next(); raw != nil; raw = it.Next() {
		id := k.id(raw)
		if cursor != "" && id == cursor {
			continue
		}
		if f.AccountID != "" && (k.involves == nil || !k.involves(tx, raw, f.AccountID)) {
			continue
		}
		if len(page.Items) == limit {
			page.Next = last
			break
		}
		v, err := k.view(tx, raw, "")
		if err != nil {
			return Page{}, fmt.Errorf("catalog: %s %s: %w", kind, id, err)
		}
		page.Items = append(page.Items, v)
		last = id
	}
	return page, nil
}

// Count returns how many objects of a kind the world holds, counted
// without rendering or thawing any (state.CountRows).
func (c *Catalog) Count(tx *state.Txn, kind string) (int, error) {
	k, err := c.kind(kind)
	if err != nil {
		return 0, err
	}
	n, err := state.CountRows(tx, k.Table)
	if err != nil {
		return 0, fmt.Errorf("catalog: %s: %w", kind, err)
	}
	return n, nil
}
