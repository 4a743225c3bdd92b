package scenarios_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox"
	"github.com/signsandbox/signsandbox/scenarios"
)

// claims pins what each ready scenario must contain to do what its name
// says: the rule or seed that causes it and the expectations that prove
// it. A scenario whose steps stop checking its point fails here even if it
// still runs green.
var claims = map[string][]string{
	"template-error": {"fail_template:", "types: [template_error]", "event_type: template_created}\n      count: 0",
		"status: 409", "status: 422"},
	"email-bounce": {"bounce: {after: 10m}", "event_type: signature_request_email_bounce", "bounced: true",
		"call: signatureRequestUpdate", "email_address: carol@example.com"},
	"canceled-410": {"call: signatureRequestCancel", "event_type: signature_request_canceled",
		"call: signatureRequestGet", "call: signatureRequestFiles\n", "call: signatureRequestFilesAsDataUri",
		"call: signatureRequestFilesAsFileUrl", "call: signatureRequestRemind", "sign: ", "status: 410, error: deleted"},
	"signer-declines": {"signer_action: {do: decline", "is_declined: true", "event_type: signature_request_declined",
		"decline_reason: The price is wrong."},
	"request-expires": {"expires_at: ${now + 3d}", "status_code: expired", "event_type: signature_request_expired",
		"error: signature_request_expired"},
	"reminders": {"call: signatureRequestRemind", "error: invalid_reminder", "advance: 30m", "advance: 31m", "kind: reminder}\n      count: 2",
		"last_reminded_at: ${seed.nda.created_at + 3d}", "kind: reminder}\n      count: 4", "last_reminded_at: ${seed.nda.created_at + 7d}"},
	"quota-exhausted": {"exhaust_quota:", "status: 402, error: payment_required", "test_mode: true"},
	"rate-limited":    {"rate_limit: {limit: 3, window: 1m}", "status: 429, error: exceeded_rate", "advance: 61s"},
	"callback-down":   {"callback: {fault: unreachable}", "window: {until: 24h}", "wait_callbacks: true", "state: delivered", "contains: unreachable"},
	"file-error":      {"fail_file:", "types: [file_error]", "status_code: error_file", "has_error: true", `text: "this is not a PDF"`},
	"processing-fails": {"fail_processing: {status_code: error_unknown", "fail_processing: {status_code: error_invalid_email",
		"y: 900", "types: [unknown_error]", "types: [signature_request_invalid]", "status_code: error_component_position",
		"signatures[1].status_code: error_invalid_email", "warning_name: form_fields_placement"},
	"happy-path": {"order: 0", "order: 1", "not this signer's turn", "signature_request_all_signed", "signature_request_downloadable", "content_type: application/pdf"},
}

func TestLibraryIsComplete(t *testing.T) {
	var want []string
	for name := range claims {
		want = append(want, name)
	}
	assert.ElementsMatch(t, want, scenarios.Names())
	for _, name := range scenarios.Names() {
		b, err := scenarios.Read(name)
		require.NoError(t, err)
		assert.Contains(t, string(b), "name: "+name+"\n", "the file's name is its scenario name")
		assert.Contains(t, string(b), "description: ")
		for _, c := range claims[name] {
			assert.Contains(t, string(b), c, "%s must keep checking this", name)
		}
	}
	_, err := scenarios.Read("../go")
	assert.Error(t, err)
}

func files(t *testing.T) []sandbox.ScenarioFile {
	t.Helper()
	var out []sandbox.ScenarioFile
	for _, name := range scenarios.Names() {
		b, err := scenarios.Read(name)
		require.NoError(t, err)
		out = append(out, sandbox.ScenarioFile{Name: name + ".yaml", Data: b})
	}
	return out
}

func TestReadyScenariosInProcess(t *testing.T) {
	for _, f := range files(t) {
		t.Run(f.Name, func(t *testing.T) {
			var out bytes.Buffer
			res := sandbox.RunScenarios(context.Background(), []sandbox.ScenarioFile{f}, sandbox.RunOptions{Out: &out})
			require.Len(t, res, 1)
			assert.True(t, res[0].OK(), "%s\n%+v", out.String(), res[0])
			assert.Positive(t, res[0].Steps)
		})
	}
}

// buildBinary builds signsandbox into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not available: the built binary cannot be tested")
	}
	bin := filepath.Join(t.TempDir(), "signsandbox")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/signsandbox/signsandbox/cmd/signsandbox")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// serveBinary starts the binary on a free port and answers its base URL.
func serveBinary(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--log-level", "error"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = io.Discard
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				lines <- m[1]
			}
		}
	}()
	select {
	case base := <-lines:
		return base
	case <-time.After(30 * time.Second):
		t.Fatal("the binary did not start listening")
		return ""
	}
}

// Each ready scenario runs green against the built binary: through the Go
// runner with a target, and through `signsandbox run --target` (exit 0),
// and the binary's own in-process run.
func TestReadyScenariosAgainstTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	base := serveBinary(t, bin)
	for _, f := range files(t) {
		t.Run(f.Name, func(t *testing.T) {
			var out bytes.Buffer
			res := sandbox.RunScenarios(context.Background(), []sandbox.ScenarioFile{f}, sandbox.RunOptions{Target: base, Out: &out})
			assert.True(t, res[0].OK(), "%s\n%+v", out.String(), res[0])
		})
	}
	dir := t.TempDir()
	var paths []string
	for _, f := range files(t) {
		p := filepath.Join(dir, f.Name)
		require.NoError(t, os.WriteFile(p, f.Data, 0o644))
		paths = append(paths, p)
	}
	cmd := exec.Command(bin, append([]string{"run", "--target", base}, paths...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	n := len(paths)
	assert.Contains(t, string(out), fmt.Sprintf("%d scenario file(s): %d passed, 0 failed", n, n))

	cmd = exec.Command(bin, "run", "happy-path", "canceled-410")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "2 scenario file(s): 2 passed, 0 failed")

	// A changed expectation makes run fail (exit 1) with a diff at the field.
	changed := strings.Replace(string(files(t)[0].Data), "count: 0", "count: 3", 1)
	p := filepath.Join(dir, "changed.yaml")
	require.NoError(t, os.WriteFile(p, []byte(changed), 0o644))
	cmd = exec.Command(bin, "run", "--target", base, p)
	out, err = cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "callbacks.count: want 3, got 0")
}

// The README's seed and rules examples load as written (wrapped in a
// name), so the reference cannot drift from the loader.
func TestReadmeExamplesLoad(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	loaded := 0
	for i, b := range blocks {
		body := b[1]
		if !strings.HasPrefix(body, "seed:") && !strings.HasPrefix(body, "rules:") {
			continue
		}
		doc := fmt.Sprintf("name: readme-%d\n%s", i, body)
		sb, err := sandbox.New(sandbox.WithOfflineFiles(), sandbox.WithScenario(fmt.Sprintf("README block %d", i), []byte(doc)))
		if assert.NoError(t, err, "README block %d", i) {
			sb.Close()
		}
		loaded++
	}
	assert.Equal(t, 2, loaded)
}
