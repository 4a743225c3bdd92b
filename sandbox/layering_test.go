package sandbox_test

import (
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module is the import path every package of the repository starts with.
const module = "github.com/signsandbox/signsandbox/"

// allowedImports is the layering of the packages under sandbox/: for each
// package (its path below the module), the packages of this module its
// non-test code may import. A package missing here fails the test, so a
// new package is placed in the layering when it is made; an import not
// listed fails it too, so an edge that would turn the tree into a knot is
// a decision someone takes in this table, not an accident. The README's
// Layout section describes the same tree.
var allowedImports = map[string][]string{
	// The facade wires everything.
	"sandbox": {
		"fixtures", "scenarios", "sandbox/edge",
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/page",
		"sandbox/internal/oauth", "sandbox/internal/account", "sandbox/internal/apiapp",
		"sandbox/internal/fax", "sandbox/internal/template", "sandbox/internal/sigreq", "sandbox/internal/unclaimed", "sandbox/internal/bulk",
		"sandbox/internal/team", "sandbox/internal/report", "sandbox/internal/callbacks", "sandbox/internal/recording",
		"sandbox/internal/stage", "sandbox/internal/control",
		"sandbox/internal/document", "sandbox/internal/console", "sandbox/internal/derived", "sandbox/internal/events",
		"sandbox/internal/fields", "sandbox/internal/files", "sandbox/internal/fixture",
		"sandbox/internal/legacy", "sandbox/internal/notify", "sandbox/internal/param",
		"sandbox/internal/scenario", "sandbox/internal/search", "sandbox/internal/signpage", "sandbox/internal/state",
		"sandbox/internal/wire", "sandbox/internal/world", "sandbox/internal/secret", "sandbox/internal/metrics", "sandbox/internal/journal",
		"sandbox/internal/outbound", "sandbox/internal/buildinfo", "sandbox/internal/callnote", "sandbox/internal/mail", "sandbox/internal/mailrelay",
	},
	// The HTTP edge in front of the handler.
	"sandbox/edge": {"sandbox/internal/apierr", "sandbox/internal/callnote"},
	// The test kit drives a sandbox over HTTP.
	"sandbox/sandboxtest": {"sandbox", "sandbox/internal/events", "sandbox/internal/world"},

	// The request pipeline: the world registry (Host), the call, the
	// registry of operations, control routes, jobs and hooks, responses,
	// auth, paging, rate limits, routing. It knows no resource.
	"sandbox/internal/api": {
		"sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/files", "sandbox/internal/fixture",
		"sandbox/internal/legacy", "sandbox/internal/metrics", "sandbox/internal/notify", "sandbox/internal/secret", "sandbox/internal/state",
		"sandbox/internal/wire", "sandbox/internal/world", "sandbox/internal/routeindex", "sandbox/internal/jsonenc", "sandbox/internal/operations",
		"sandbox/internal/authheader", "sandbox/internal/buildinfo", "sandbox/internal/callnote", "sandbox/internal/credentials",
	},

	// World lifecycle on the control plane: worlds, clock, configuration,
	// reset, API keys, export and import, the outbox.
	"sandbox/internal/control": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/callbacks", "sandbox/internal/mail",
		"sandbox/internal/mailrelay", "sandbox/internal/stage", "sandbox/internal/state", "sandbox/internal/wire",
		"sandbox/internal/world",
	},

	// Scenarios at work in a world: load and seed, rules and their
	// effects, scenario jobs, /_sandbox/scenarios.
	"sandbox/internal/stage": {
		"scenarios", "sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/document",
		"sandbox/internal/fields", "sandbox/internal/notify", "sandbox/internal/scenario", "sandbox/internal/sigreq",
		"sandbox/internal/state", "sandbox/internal/template", "sandbox/internal/wire", "sandbox/internal/world",
	},

	// Resources, one package each, leaves first.
	"sandbox/internal/bulk": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/sigreq",
		"sandbox/internal/state", "sandbox/internal/template", "sandbox/internal/wire", "sandbox/internal/world",
	},
	"sandbox/internal/unclaimed": {
		"sandbox/internal/api", "sandbox/internal/apiapp", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/document",
		"sandbox/internal/fields", "sandbox/internal/page", "sandbox/internal/param", "sandbox/internal/signpage",
		"sandbox/internal/sigreq", "sandbox/internal/state", "sandbox/internal/world",
	},
	"sandbox/internal/sigreq": {
		"sandbox/internal/api", "sandbox/internal/apiapp", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/document",
		"sandbox/internal/fields", "sandbox/internal/files", "sandbox/internal/notify", "sandbox/internal/page",
		"sandbox/internal/param", "sandbox/internal/search", "sandbox/internal/signpage", "sandbox/internal/state",
		"sandbox/internal/template", "sandbox/internal/testvalues", "sandbox/internal/wire", "sandbox/internal/world", "sandbox/internal/jsonenc",
	},
	"sandbox/internal/template": {
		"sandbox/internal/api", "sandbox/internal/apiapp", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/document",
		"sandbox/internal/fields", "sandbox/internal/files", "sandbox/internal/notify", "sandbox/internal/page",
		"sandbox/internal/param", "sandbox/internal/search", "sandbox/internal/signpage", "sandbox/internal/state",
		"sandbox/internal/testvalues", "sandbox/internal/wire", "sandbox/internal/world",
	},
	"sandbox/internal/fax": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/document",
		"sandbox/internal/files", "sandbox/internal/notify", "sandbox/internal/param", "sandbox/internal/state",
		"sandbox/internal/team", "sandbox/internal/wire", "sandbox/internal/world",
	},
	"sandbox/internal/report": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/notify", "sandbox/internal/page",
		"sandbox/internal/state", "sandbox/internal/team", "sandbox/internal/world",
	},
	"sandbox/internal/team": {
		"sandbox/internal/account", "sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/catalog",
		"sandbox/internal/notify", "sandbox/internal/page", "sandbox/internal/param", "sandbox/internal/state",
		"sandbox/internal/world",
	},
	"sandbox/internal/account": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/notify",
		"sandbox/internal/oauth", "sandbox/internal/param", "sandbox/internal/state", "sandbox/internal/world",
	},
	// apiapp's white labeling read side (page_brand.go) gives the pages
	// their brand, so it knows signpage's Brand; the areas that serve
	// pages (sigreq, template, unclaimed) ask it for their app's brand.
	"sandbox/internal/apiapp": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/catalog", "sandbox/internal/oauth",
		"sandbox/internal/param", "sandbox/internal/signpage", "sandbox/internal/state", "sandbox/internal/wire",
	},
	"sandbox/internal/oauth": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/param", "sandbox/internal/state", "sandbox/internal/world",
	},

	// The outbox's e-mails relayed over SMTP after commit.
	"sandbox/internal/mailrelay": {
		"sandbox/internal/api", "sandbox/internal/mail", "sandbox/internal/state", "sandbox/internal/world",
	},

	// Callback deliveries after commit: workers, sender, queues, control.
	"sandbox/internal/callbacks": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/events", "sandbox/internal/notify",
		"sandbox/internal/outbound", "sandbox/internal/state", "sandbox/internal/world",
	},

	// Recording sessions as scenario files: world calls, the proxy.
	"sandbox/internal/recording": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/callbacks", "sandbox/internal/scenario",
		"sandbox/internal/state", "sandbox/internal/wire", "sandbox/internal/world",
	},

	// Documents and files: intake, prepared files, downloads, file URLs.
	"sandbox/internal/document": {
		"sandbox/internal/api", "sandbox/internal/apierr", "sandbox/internal/derived", "sandbox/internal/files",
		"sandbox/internal/outbound", "sandbox/internal/page", "sandbox/internal/signpage", "sandbox/internal/state",
		"sandbox/internal/wire", "sandbox/internal/world",
	},

	// What every HTML page shares: its world, the embedded protocol.
	"sandbox/internal/page": {"sandbox/internal/api", "sandbox/internal/state", "sandbox/internal/world"},

	// Vocabulary shared by the areas of the facade.
	"sandbox/internal/fields": {
		"sandbox/internal/apierr", "sandbox/internal/document", "sandbox/internal/files", "sandbox/internal/param",
		"sandbox/internal/state", "sandbox/internal/wire",
	},
	"sandbox/internal/catalog": {"sandbox/internal/state"},
	// The console's page, assets and paged reads.
	"sandbox/internal/console": {"sandbox/internal/catalog", "sandbox/internal/events", "sandbox/internal/mail", "sandbox/internal/state"},
	// The pages for people who hold a link (signing, template editor,
	// claim): markup, assets and headers; what they show comes from the
	// facade.
	"sandbox/internal/signpage": {},
	"sandbox/internal/notify":   {"sandbox/internal/events", "sandbox/internal/jsonenc", "sandbox/internal/state"},
	// E-mails composed as the messages a recipient receives.
	"sandbox/internal/mail":          {"sandbox/internal/state"},
	"sandbox/internal/mail/mailtest": {},
	"sandbox/internal/param":         {"sandbox/internal/apierr", "sandbox/internal/wire"},
	"sandbox/internal/search":        {"sandbox/internal/apierr", "sandbox/internal/param", "sandbox/internal/state"},
	// The reserved test values' vocabulary (what an address or file asks
	// for); sigreq and template carry them out.
	"sandbox/internal/testvalues": {"sandbox/internal/state"},
	"sandbox/internal/legacy":     {"sandbox/internal/apierr", "sandbox/internal/wire"},
	// Derived files (placeholders, inspections) computed once and cached.
	"sandbox/internal/derived": {"sandbox/internal/files"},

	// Leaves: a world and its database, wire decoding, files, fixtures,
	// scenario documents, the closed vocabularies.
	"sandbox/internal/world":   {"sandbox/internal/state"},
	"sandbox/internal/fixture": {"sandbox/internal/state"},
	"sandbox/internal/wire":    {"sandbox/internal/apierr"},
	"sandbox/internal/state":   {},
	"sandbox/internal/secret":  {},
	// The destination rules of the connections made for callers.
	"sandbox/internal/outbound":        {},
	"sandbox/internal/metrics":         {},
	"sandbox/internal/journal":         {"sandbox/internal/state"},
	"sandbox/internal/files":           {},
	"sandbox/internal/files/filestest": {},
	"sandbox/internal/scenario":        {"sandbox/internal/wire"},
	"sandbox/internal/events":          {"sandbox/internal/jsonenc"},
	"sandbox/internal/apierr":          {},
	"sandbox/internal/routeindex":      {},
	"sandbox/internal/jsonenc":         {},
	"sandbox/internal/operations":      {},
	"sandbox/internal/authheader":      {"sandbox/internal/apierr"},
	"sandbox/internal/conformance":     {},
	"sandbox/internal/buildinfo":       {},
	// What the sandbox tells the server's access log about a request.
	"sandbox/internal/callnote": {},
	// Where a credential lives, and where a deleted one lived.
	"sandbox/internal/credentials": {"sandbox/internal/state", "sandbox/internal/world"},
}

// TestLayering fails when a package under sandbox/ imports a package of
// this module that allowedImports does not allow it, or when a package is
// missing from the table (or the table names one that no longer exists).
// It reads the import clauses of the non-test files, so it needs no build.
func TestLayering(t *testing.T) {
	found := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Join("sandbox", filepath.Dir(path)))
		if found[pkg] == nil {
			found[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if rel, ok := strings.CutPrefix(p, module); ok {
				found[pkg][rel] = true
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, found, "sandbox", "run from the sandbox directory")
	for _, problem := range layeringProblems(found, allowedImports) {
		t.Error(problem)
	}
}

// layeringProblems compares the imports found with the allowed ones.
func layeringProblems(found map[string]map[string]bool, allowed map[string][]string) []string {
	var out []string
	for _, pkg := range slices.Sorted(maps.Keys(found)) {
		ok, listed := allowed[pkg]
		if !listed {
			out = append(out, "package "+pkg+" is not in allowedImports: place it in the layering")
			continue
		}
		for _, imp := range slices.Sorted(maps.Keys(found[pkg])) {
			if !slices.Contains(ok, imp) {
				out = append(out, pkg+" imports "+imp+", which allowedImports does not allow")
			}
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(allowed)) {
		if _, ok := found[pkg]; !ok {
			out = append(out, "allowedImports names "+pkg+", which has no Go files any more")
		}
	}
	return out
}

// TestLayeringCatchesAForbiddenEdge: the check names an edge the table does
// not allow, a package the table lacks and an entry without a package.
func TestLayeringCatchesAForbiddenEdge(t *testing.T) {
	found := map[string]map[string]bool{
		"sandbox/internal/param": {"sandbox/internal/apierr": true, "sandbox": true},
		"sandbox/internal/new":   {},
	}
	allowed := map[string][]string{
		"sandbox/internal/param": {"sandbox/internal/apierr"},
		"sandbox/internal/gone":  {},
	}
	assert.Equal(t, []string{
		"package sandbox/internal/new is not in allowedImports: place it in the layering",
		"sandbox/internal/param imports sandbox, which allowedImports does not allow",
		"allowedImports names sandbox/internal/gone, which has no Go files any more",
	}, layeringProblems(found, allowed))
}
