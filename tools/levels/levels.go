package main

// The levels of the module. Every package of the module sits on exactly one
// level and may import only packages of lower levels: the rule is the level
// a package is given, not a list of edges, so an import that would tie the
// tree into a knot fails the check, and moving a package is a decision
// taken in this table. Levels are numbered from the leaves; a name may cover
// several consecutive levels.
//
// Third-party modules are contained the same way: the code of a level may
// import only the modules its level lists (not those of lower levels, so
// that go-memdb stays behind state, world, journal, api and control). Test
// files may import any module listed at their level or below, and testOnly.
//
// Tests may also drive the whole sandbox: a test file may import the facade
// and the test kits, whatever its level (black-box tests through a shared
// test server).

// module is the module's path; packages are named relative to it.
const module = "github.com/signsandbox/signsandbox"

// level is one row of the table.
type level struct {
	name     string   // the tier: leaves, vocabulary, pipeline, resources, areas, facade, ...
	doc      string   // what the level holds, for docs/architecture.md
	packages []string // relative to module ("" is the module's root, which has no package)
	modules  []string // third-party modules the level's code may import
	// forTests marks a level every test file may import: the facade and
	// the test kits.
	forTests bool
}

// testOnly are the modules any test file may import.
var testOnly = []string{
	"github.com/stretchr/testify",
	"golang.org/x/mod", // cmd/signsandbox's tests read the module zip the release publishes
}

// levels is the table, lowest first.
var levels = []level{
	{
		name: "leaves",
		doc:  "import nothing of this module: the closed vocabularies, the stored rows, the row codec, PDF handling, embedded data",
		packages: []string{
			"fixtures", "scenarios",
			"sandbox/internal/apierr", "sandbox/internal/buildinfo", "sandbox/internal/callnote", "sandbox/internal/pdf",
			"sandbox/internal/jsonenc", "sandbox/internal/metrics", "sandbox/internal/model",
			"sandbox/internal/outbound", "sandbox/internal/rowcodec", "sandbox/internal/secret",
			"sandbox/internal/signpage",
		},
		modules: []string{
			"github.com/google/uuid", "github.com/gorilla/mux", "github.com/hashicorp/go-memdb",
			"github.com/pdfcpu/pdfcpu", "golang.org/x/image",
		},
	},
	{
		name:     "storage",
		doc:      "the memdb tables and their accessors, the blob store, accounting, export and import",
		packages: []string{"sandbox/internal/state"},
		modules:  []string{"github.com/google/uuid", "github.com/hashicorp/go-memdb"},
	},
	{
		name:     "foundations",
		doc:      "text extraction and text tags, over the PDF toolkit",
		packages: []string{"sandbox/internal/pdf/pdftext"},
		modules:  []string{"github.com/pdfcpu/pdfcpu"},
	},
	{
		name: "foundations",
		doc:  "a world, request decoding, the callback wire contract, e-mails as sent, the read side, the data directory",
		packages: []string{
			"sandbox/internal/catalog", "sandbox/internal/derived",
			"sandbox/internal/events", "sandbox/internal/fixtureload", "sandbox/internal/journal", "sandbox/internal/mail",
			"sandbox/internal/testvalues", "sandbox/internal/wire", "sandbox/internal/world",
		},
		modules: []string{"github.com/hashicorp/go-memdb", "github.com/jonboulle/clockwork"},
	},
	{
		name: "vocabulary",
		doc:  "parameter checks, older shapes, events and e-mails inside the transaction, the scenario format, the console, where credentials live",
		packages: []string{
			"sandbox/internal/console", "sandbox/internal/credentials", "sandbox/internal/legacy", "sandbox/internal/notify",
			"sandbox/internal/param", "sandbox/internal/scenario",
		},
		modules: []string{"github.com/goccy/go-yaml", "github.com/hashicorp/go-memdb"},
	},
	{
		name: "pipeline",
		// Below every resource, so that api holds only what every call
		// goes through; this replaced a cap on its line count.
		doc: "the HTTP edge, the request pipeline (Host, Call, Registry, the route table and router, auth, responses), the list query language",
		packages: []string{
			"sandbox/edge", "sandbox/internal/api", "sandbox/internal/search",
		},
		modules: []string{"github.com/gorilla/mux", "github.com/hashicorp/go-memdb", "github.com/jonboulle/clockwork"},
	},
	{
		name: "pipeline",
		doc:  "what the pipeline's areas lean on: callback deliveries, the SMTP relay, OAuth, what every page shares",
		packages: []string{
			"sandbox/internal/callbacks", "sandbox/internal/mailrelay", "sandbox/internal/oauth", "sandbox/internal/page",
		},
		modules: []string{"github.com/jonboulle/clockwork"},
	},
	{
		name:     "pipeline",
		doc:      "recording sessions as scenario files (with the callbacks they caused)",
		packages: []string{"sandbox/internal/recording"},
	},
	{
		name: "resources",
		doc:  "accounts, API apps, documents and files",
		packages: []string{
			"sandbox/internal/account", "sandbox/internal/apiapp", "sandbox/internal/document",
		},
	},
	{
		name:     "resources",
		doc:      "the form-field vocabulary (over documents), teams (over accounts)",
		packages: []string{"sandbox/internal/fields", "sandbox/internal/team"},
	},
	{
		name:     "resources",
		doc:      "faxes (over teams), reports, templates (over fields)",
		packages: []string{"sandbox/internal/fax", "sandbox/internal/report", "sandbox/internal/template"},
	},
	{
		name:     "resources",
		doc:      "signature requests (over templates)",
		packages: []string{"sandbox/internal/sigreq"},
	},
	{
		name:     "areas",
		doc:      "what drives signature requests: bulk send, scenarios at work, unclaimed drafts",
		packages: []string{"sandbox/internal/bulk", "sandbox/internal/scenarioworld", "sandbox/internal/unclaimed"},
		modules:  []string{"github.com/gorilla/mux"},
	},
	{
		name:     "areas",
		doc:      "the lifecycle of worlds on the control plane",
		packages: []string{"sandbox/internal/control"},
		modules:  []string{"github.com/hashicorp/go-memdb"},
	},
	{
		name: "facade",
		// Only clockwork of the third-party modules: the facade cannot
		// read tables (go-memdb) or route (gorilla/mux) itself, so
		// handlers and stores live in the packages below it.
		doc:      "New, options and the wiring of every package",
		packages: []string{"sandbox"},
		modules:  []string{"github.com/jonboulle/clockwork"},
		forTests: true,
	},
	{
		name: "test kits",
		doc:  "helpers for tests: a sandbox over HTTP, OpenAPI conformance, PDFs, e-mails as a client reads them",
		packages: []string{
			"sandbox/sandboxtest", "sandbox/internal/conformance", "sandbox/internal/pdf/pdftest",
			"sandbox/internal/mail/mailtest",
		},
		modules:  []string{"github.com/getkin/kin-openapi", "github.com/pdfcpu/pdfcpu"},
		forTests: true,
	},
	{
		name:     "test kits",
		doc:      "the checked test server of the internal packages' black-box tests",
		packages: []string{"sandbox/internal/apitest"},
		modules:  []string{"github.com/stretchr/testify"}, // its helpers fail the test with require, as the tests they serve do
		forTests: true,
	},
	{
		name: "commands",
		doc:  "the binaries and the repository's tools",
		packages: []string{
			"cmd/signsandbox", "cmd/signsandbox-bench", "tools/docexamples", "tools/levels", "tools/notices",
		},
		modules: []string{"github.com/jonboulle/clockwork", "golang.org/x/mod"}, // x/mod: the module proxy's path escaping (tools/notices)
	},
}
