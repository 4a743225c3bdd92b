package state

// registrations is every table, bucketed table, compact index and Put
// counter of a world's store, in the order they are registered. It is the
// one place that says what the schema holds; each function lives beside the
// row type it registers.
//
// The order matters in three ways, each checked when it is broken (the
// registration functions panic at start-up):
//   - a table is registered before it is made bucketed, given a compact
//     index, options or a Put counter (registerBucketed, registerCompact
//     and setOptions look it up);
//   - compact index tags must not overlap, whatever the order;
//   - Put counters of one table run in the order they were added
//     (addPutCounter); no table holding blobs has another counter.
//
// Otherwise the list follows the names of the files the functions are in;
// a new table goes in at its file's place.
var registrations = []func(){
	registerAccounts,
	registerBlobTally,
	registerBlobs,
	registerRowBuckets,
	registerRowMarks,
	registerBulkSendJobs,
	registerCompactBuckets,
	registerConfig,
	registerDeliveries,
	countDeliveryStates,
	registerEmails,
	registerEvents,
	registerFaxes,
	registerFileSets,
	registerJobs,
	countScheduledJobs,
	registerReports,
	registerScenarios,
	registerSignatureRequests,
	registerMeta,
	registerTeams,
	registerTemplates,
	registerUnclaimedDrafts,
	registerUsage,
	// After every table it counts the blobs of.
	countBlobHolders,
}

// registered is set when the package's variables are initialized, before
// any function of the package can run: the registries are filled once and
// only read afterwards, so they need no lock on the hot paths. A variable
// initializer rather than an init function, so that the dependency is
// declared (Go initializes the registries it reads first) and there is one
// list to read instead of an order spread over two dozen files.
var registered = registerTables()

// registerTables runs every registration in order.
func registerTables() bool {
	for _, register := range registrations {
		register()
	}
	return true
}
