package apierr

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referenceDir finds ../shared/reference/dropbox-sign beside the repository,
// or skips the test.
func referenceDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			ref := filepath.Join(dir, "..", "shared", "reference", "dropbox-sign")
			if _, err := os.Stat(ref); err != nil {
				t.Skipf("reference material not available (%v): put ../shared/reference beside the repository", err)
			}
			return ref
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("reference material not available: no repository root above the working directory")
		}
		dir = parent
	}
}

// legacyRow matches a row of the "Error names" table of
// docs/warnings-and-errors-ref-docs.md: | `name` | description | status
var legacyRow = regexp.MustCompile("^\\|\\s*`([a-z_]+)`\\s*\\|[^|]*\\|\\s*(.*?)\\s*\\|?\\s*$")

// legacyStatuses reads the documented status of every error name; "N/A"
// rows map to 0.
func legacyStatuses(t *testing.T) map[Name]int {
	raw, err := os.ReadFile(filepath.Join(referenceDir(t), "docs", "warnings-and-errors-ref-docs.md"))
	require.NoError(t, err)
	text := string(raw)
	start := strings.Index(text, "## Error names")
	end := strings.Index(text, "## Warning names")
	require.True(t, start >= 0 && end > start, "the error table moved")
	out := map[Name]int{}
	status := regexp.MustCompile("`(\\d{3})`")
	for _, line := range strings.Split(text[start:end], "\n") {
		m := legacyRow.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		codes := status.FindAllStringSubmatch(m[2], -1)
		if len(codes) == 0 {
			require.Contains(t, m[2], "N/A", "row %q", line)
			out[Name(m[1])] = 0
			continue
		}
		n, _ := strconv.Atoi(codes[len(codes)-1][1])
		out[Name(m[1])] = n
	}
	require.GreaterOrEqual(t, len(out), 15, "the table should list the documented names")
	return out
}

// TestVocabularyMatchesTheOfficialDocs pins every error_name to its status
// against the official (legacy) error table, with the deliberate exceptions
// named here.
func TestVocabularyMatchesTheOfficialDocs(t *testing.T) {
	legacy := legacyStatuses(t)
	exceptions := map[Name]struct {
		status int
		why    string
	}{
		// The current OpenAPI file's 429 example (Error429Response) answers
		// exceeded_rate with 429; the legacy table still says 403.
		ExceededRate: {http.StatusTooManyRequests, "current spec example is 429"},
		// N/A in the legacy table, but the older SDKs' error enum has it and
		// the API answers refused reminders (embedded requests, too soon)
		// with a 400.
		InvalidReminder: {http.StatusBadRequest, "old SDK enum: 400"},
	}
	for name, want := range legacy {
		t.Run(string(name), func(t *testing.T) {
			if ex, ok := exceptions[name]; ok {
				require.True(t, Known(name))
				assert.Equal(t, ex.status, name.Status(), ex.why)
				return
			}
			if want == 0 {
				// Event and status names (template_error, invalid_file,
				// signature_request_invalid) are never HTTP answers.
				assert.False(t, Known(name), "%s has no HTTP status and must not be answerable", name)
				return
			}
			require.True(t, Known(name), "documented name %s is missing from the vocabulary", name)
			assert.Equal(t, want, name.Status())
		})
	}
	// Names the legacy table lacks come from the current spec's examples or
	// the older SDKs' enum; each is pinned here so that none changes silently.
	extra := map[Name]int{
		UnprocessableEntity:     http.StatusUnprocessableEntity,
		MaxFaxes:                http.StatusTooManyRequests,
		SignatureRequestExpired: http.StatusBadRequest,
		Unavailable:             http.StatusServiceUnavailable,
	}
	for _, name := range Names() {
		if _, ok := legacy[name]; ok {
			continue
		}
		want, ok := extra[name]
		require.True(t, ok, "%s is neither documented nor pinned by this test", name)
		assert.Equal(t, want, name.Status(), name)
	}
}

// TestSpecErrorExamples checks the official 4XX examples: the status in each
// file's name is the status of its error_name.
func TestSpecErrorExamples(t *testing.T) {
	dir := filepath.Join(referenceDir(t), "examples", "json")
	files, err := filepath.Glob(filepath.Join(dir, "Error[0-9][0-9][0-9]Response.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		base := filepath.Base(f)
		status, _ := strconv.Atoi(base[len("Error") : len("Error")+3])
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		// Some official examples have a trailing comma; the name is all
		// that matters here.
		m := regexp.MustCompile(`"error_name"\s*:\s*"([a-z_]+)"`).FindSubmatch(raw)
		require.NotNil(t, m, base)
		name := Name(m[1])
		assert.True(t, Known(name), base)
		assert.Equal(t, status, name.Status(), base)
	}
}

func TestErrorShape(t *testing.T) {
	e := Badf("signers[0][email_address]", "Invalid email address: %s", "x")
	b, err := json.Marshal(e.Body())
	require.NoError(t, err)
	assert.JSONEq(t, `{"error":{"error_msg":"Invalid email address: x","error_name":"bad_request","error_path":"signers[0][email_address]"}}`, string(b))

	b, err = json.Marshal(New(Unauthorized, MsgUnauthorizedNoCredentials).Body())
	require.NoError(t, err)
	assert.Equal(t, `{"error":{"error_msg":"Unauthorized user. No credentials supplied.","error_name":"unauthorized"}}`, string(b), "no error_path when there is none")

	assert.Equal(t, http.StatusBadRequest, Name("typo").Status(), "unknown names never become a 5xx")
	o := &Error{Name: Unknown, Msg: "x", StatusOverride: http.StatusServiceUnavailable}
	assert.Equal(t, http.StatusServiceUnavailable, o.Status())

	wrapped := fmt.Errorf("context: %w", NotFoundf("no %s", "thing"))
	got, ok := As(wrapped)
	require.True(t, ok)
	assert.Equal(t, NotFound, got.Name)
	_, ok = As(fmt.Errorf("plain"))
	assert.False(t, ok)

	p := Missing("title")
	assert.Equal(t, "title", p.Path)
	assert.Equal(t, "Missing required parameter: title", p.Msg)
	q := p.WithPath("subject")
	assert.Equal(t, "title", p.Path, "WithPath copies")
	assert.Equal(t, "subject", q.Path)
	assert.Contains(t, q.Error(), "(subject)")

	for ctor, want := range map[*Error]int{
		Gone(): 410, Forbiddenf("x"): 403, Conflictf("x"): 409, PaymentRequiredf("x"): 402, NotFoundf("x"): 404,
	} {
		assert.Equal(t, want, ctor.Status(), ctor.Name)
	}
	names := Names()
	assert.IsIncreasing(t, names)
}
