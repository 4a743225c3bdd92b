// Package fax is faxes and fax lines as the API shows them: sending a fax
// (its documents taken in by the document package, its pages charged to
// the account) and the scheduler job that ends its transmission, get,
// list, delete and files; fax lines bought in an area code and shared
// with teammates; and the fax and fax-line views in the catalog.
package fax
