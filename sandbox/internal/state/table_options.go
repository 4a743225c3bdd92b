package state

// tableOptions is what the generic code does for a table beyond storing
// its rows, declared by the table's registration (tables.go lists them)
// instead of branched on by table name in Put and the row counts.
type tableOptions struct {
	// beforePut makes the row Put stores of the row Put is given, and
	// drops what the write keeps of the table (a request row keeps the
	// file set stored under its id; a new configuration drops the
	// configuration the write cached).
	beforePut func(tx *Txn, row any) any
	// putCounters keep the accounting of the table in step with Put, in
	// the order they were added (addPutCounter).
	putCounters []func(tx *Txn, row any) error
	// countFields moves by n the counts Usage keeps of a row's fields (a
	// delivery's attempts by result); row may be nil.
	countFields func(c *AttemptCounts, row any, n int64)
	// carries is the number of rows of carriedTable a row holds inside
	// it (a request row's file set is a file_sets row); row may be nil. A
	// counting write counts them with the row; a tracked write lists them
	// as changes of their own (withFileSetChanges), which count as rows.
	carries      func(row any) int64
	carriedTable string
}

// setOptions changes the options of a registered table (from a
// registration in tables.go, after Register).
func setOptions(table string, set func(*tableOptions)) {
	registryMu.Lock()
	defer registryMu.Unlock()
	d, ok := registry[table]
	if !ok {
		panic("state: options for a table not registered: " + table)
	}
	set(&d.opts)
	registry[table] = d
	rowInfos.Store(nil) // built again with the options
}

// addPutCounter adds fn to the counters Put runs for table (after those
// added before it).
func addPutCounter(table string, fn func(tx *Txn, row any) error) {
	setOptions(table, func(o *tableOptions) { o.putCounters = append(o.putCounters, fn) })
}

// optionsOf returns the options of a registered table (nil: not
// registered).
func optionsOf(table string) *tableOptions {
	if ri := rowInfoOf(table); ri != nil {
		return &ri.opts
	}
	return nil
}

// countRow moves what a counting write counts of a row besides the row
// itself, as it changes from before to after (either nil).
func (t *Txn) countRow(o *tableOptions, before, after any) {
	if o.countFields != nil {
		o.countFields(&t.eng.rows.counts.attempts, before, -1)
		o.countFields(&t.eng.rows.counts.attempts, after, 1)
	}
	if o.carries != nil {
		if n := o.carries(after) - o.carries(before); n != 0 {
			t.eng.rows.counts.add(o.carriedTable, n)
		}
	}
}
