// Package recipes checks the container recipes of docs/containers-and-ci.md
// without a container engine: compose.yaml is loaded by compose-go, the
// Compose specification's own loader (schema included, so an unknown key
// fails); the CI service snippets are parsed; and the binary, started with
// the environment each recipe gives the container, passes the recipe's
// health check or answers its wait endpoint. The Go Testcontainers recipe is
// testcontainers_test.go, which compiles here and runs where Docker is.
// A module of its own, so that the sandbox's module takes none of these
// dependencies.
package recipes

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"go.yaml.in/yaml/v3"
)

const composeToken = "recipes-admin-token"

func loadCompose(t *testing.T) *types.Project {
	t.Helper()
	proj, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  root,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(root, "compose.yaml")}},
		Environment: types.Mapping{"SIGNSANDBOX_ADMIN_TOKEN": composeToken},
	})
	if err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return proj
}

func envOf(s types.ServiceConfig) map[string]string {
	env := map[string]string{}
	for k, v := range s.Environment {
		if v != nil {
			env[k] = *v
		}
	}
	return env
}

// TestComposeFile: the sandbox service's settings agree with each other and
// with the image, and the binary started with its environment passes its
// health check and serves the app's command.
func TestComposeFile(t *testing.T) {
	proj := loadCompose(t)
	sandbox, ok := proj.Services["sandbox"]
	if !ok {
		t.Fatal("no sandbox service")
	}
	app, ok := proj.Services["app"]
	if !ok {
		t.Fatal("no app service")
	}
	env := envOf(sandbox)

	if !strings.HasPrefix(sandbox.Image, "ghcr.io/signsandbox/signsandbox:") {
		t.Errorf("image %q", sandbox.Image)
	}
	if env["SIGNSANDBOX_ADDR"] != "0.0.0.0:8080" {
		t.Errorf("SIGNSANDBOX_ADDR %q, want 0.0.0.0:8080 (the port the recipes publish)", env["SIGNSANDBOX_ADDR"])
	}
	if !slices.ContainsFunc(sandbox.Ports, func(p types.ServicePortConfig) bool { return p.Target == 8080 }) {
		t.Error("port 8080 is not published")
	}
	if env["SIGNSANDBOX_ADMIN_TOKEN"] != composeToken {
		t.Errorf("SIGNSANDBOX_ADMIN_TOKEN is %q, not taken from the environment", env["SIGNSANDBOX_ADMIN_TOKEN"])
	}
	if hosts := strings.Split(env["SIGNSANDBOX_ALLOWED_HOSTS"], ","); !slices.Contains(hosts, "sandbox") {
		t.Errorf("SIGNSANDBOX_ALLOWED_HOSTS %q does not name the service", env["SIGNSANDBOX_ALLOWED_HOSTS"])
	}
	if u, err := url.Parse(env["SIGNSANDBOX_BASE_URL"]); err != nil || u.Hostname() != "sandbox" || u.Port() != "8080" {
		t.Errorf("SIGNSANDBOX_BASE_URL %q is not the service's address", env["SIGNSANDBOX_BASE_URL"])
	}
	if out := strings.Split(env["SIGNSANDBOX_ALLOW_OUTBOUND"], ","); !slices.Contains(out, "app") {
		t.Errorf("SIGNSANDBOX_ALLOW_OUTBOUND %q does not name the app, which receives callbacks", env["SIGNSANDBOX_ALLOW_OUTBOUND"])
	}
	dataDir := env["SIGNSANDBOX_DATA_DIR"]
	if !slices.ContainsFunc(sandbox.Volumes, func(v types.ServiceVolumeConfig) bool {
		_, declared := proj.Volumes[v.Source]
		return v.Type == types.VolumeTypeVolume && declared && v.Target == dataDir
	}) {
		t.Errorf("SIGNSANDBOX_DATA_DIR %q is not a named volume's mount", dataDir)
	}
	dockerfile, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dockerfile), "VOLUME "+dataDir) {
		t.Errorf("the Dockerfile declares no VOLUME %s", dataDir)
	}
	hc := sandbox.HealthCheck
	if hc == nil || len(hc.Test) < 3 || hc.Test[0] != "CMD" {
		t.Fatalf("health check %v: want [CMD <binary> healthcheck --ready]", hc)
	}
	if !strings.Contains(string(dockerfile), `ENTRYPOINT ["`+hc.Test[1]+`"]`) {
		t.Errorf("the health check runs %s, which is not the image's entry point", hc.Test[1])
	}
	if !slices.Contains(hc.Test, "--ready") {
		t.Error("the health check asks liveness only: want --ready")
	}
	if dep, ok := app.DependsOn["sandbox"]; !ok || dep.Condition != types.ServiceConditionHealthy {
		t.Errorf("app depends on sandbox as %+v, want condition service_healthy", app.DependsOn)
	}

	procEnv, base := sandboxEnv(t, env)
	startSandbox(t, procEnv, base)
	waitReady(t, base+"/_sandbox/ready") // Docker retries the check; readiness may lag liveness at start
	run(t, procEnv, binary, hc.Test[2:]...)

	// The app's command, against the started binary in place of the service.
	if !slices.Equal(app.Entrypoint, types.ShellCommand{"/bin/sh", "-c"}) || len(app.Command) != 1 {
		t.Fatalf("app runs %q %q: want a /bin/sh -c script", app.Entrypoint, app.Command)
	}
	appEnv := append(os.Environ(), "SIGNSANDBOX_URL="+base, "SIGNSANDBOX_ADMIN_TOKEN="+envOf(app)["SIGNSANDBOX_ADMIN_TOKEN"])
	if out := run(t, appEnv, "/bin/sh", "-c", app.Command[0]); !strings.Contains(out, `"account":`) {
		t.Errorf("the app's command did not read an account:\n%s", out)
	}
}

var healthCmdRe = regexp.MustCompile(`--health-cmd "([^"]+)"`)

// TestGitHubActionsService: the service's env starts the binary, and its
// health command passes.
func TestGitHubActionsService(t *testing.T) {
	blocks := recipes(t)["github-actions"]
	if len(blocks) != 1 {
		t.Fatalf("%d github-actions recipes, want 1", len(blocks))
	}
	var wf struct {
		Jobs map[string]struct {
			Services map[string]struct {
				Image   string            `yaml:"image"`
				Ports   []string          `yaml:"ports"`
				Env     map[string]string `yaml:"env"`
				Options string            `yaml:"options"`
			} `yaml:"services"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(blocks[0]), &wf); err != nil {
		t.Fatal(err)
	}
	svc, ok := wf.Jobs["test"].Services["signsandbox"]
	if !ok {
		t.Fatal("no jobs.test.services.signsandbox")
	}
	if !slices.Contains(svc.Ports, "8080:8080") {
		t.Errorf("ports %v: want 8080:8080", svc.Ports)
	}
	m := healthCmdRe.FindStringSubmatch(svc.Options)
	if m == nil {
		t.Fatalf("no --health-cmd in %q", svc.Options)
	}
	args := strings.Fields(m[1])
	if args[0] != "signsandbox" || !slices.Contains(args, "--ready") {
		t.Fatalf("health command %q: want signsandbox healthcheck --ready", m[1])
	}
	env, base := sandboxEnv(t, svc.Env)
	startSandbox(t, env, base)
	waitReady(t, base+"/_sandbox/ready") // GitHub retries the check; readiness may lag liveness at start
	run(t, env, binary, args[1:]...)
}

var readyURLRe = regexp.MustCompile(`http://signsandbox:8080(/_sandbox/ready)`)

// TestGitLabService: the service's variables start the binary, and it
// answers the URL the job's script waits on.
func TestGitLabService(t *testing.T) {
	blocks := recipes(t)["gitlab-ci"]
	if len(blocks) != 1 {
		t.Fatalf("%d gitlab-ci recipes, want 1", len(blocks))
	}
	var job map[string]struct {
		Services []struct {
			Name      string            `yaml:"name"`
			Alias     string            `yaml:"alias"`
			Variables map[string]string `yaml:"variables"`
		} `yaml:"services"`
		Script []string `yaml:"script"`
	}
	if err := yaml.Unmarshal([]byte(blocks[0]), &job); err != nil {
		t.Fatal(err)
	}
	test := job["test"]
	if len(test.Services) != 1 || test.Services[0].Alias != "signsandbox" {
		t.Fatalf("services %+v: want one, aliased signsandbox", test.Services)
	}
	vars := test.Services[0].Variables
	if !slices.Contains(strings.Split(vars["SIGNSANDBOX_ALLOWED_HOSTS"], ","), "signsandbox") {
		t.Errorf("SIGNSANDBOX_ALLOWED_HOSTS %q does not name the alias", vars["SIGNSANDBOX_ALLOWED_HOSTS"])
	}
	m := readyURLRe.FindStringSubmatch(strings.Join(test.Script, "\n"))
	if m == nil {
		t.Fatal("the script does not wait on http://signsandbox:8080/_sandbox/ready")
	}
	if _, ok := vars["SIGNSANDBOX_ADDR"]; !ok {
		vars["SIGNSANDBOX_ADDR"] = "0.0.0.0:8080" // the image's
	}
	env, base := sandboxEnv(t, vars)
	startSandbox(t, env, base)
	waitReady(t, base+m[1])
}

// TestTestcontainersRecipes: every Testcontainers recipe maps port 8080 and
// waits on /_sandbox/ready, which the image's binary answers.
func TestTestcontainersRecipes(t *testing.T) {
	blocks := recipes(t)["testcontainers"]
	if len(blocks) != 5 {
		t.Fatalf("%d testcontainers recipes, want 5 (Java, Python, Node, Go, .NET)", len(blocks))
	}
	for i, b := range blocks {
		if !strings.Contains(b, "8080") || !strings.Contains(b, `"/_sandbox/ready"`) && !strings.Contains(b, `'/_sandbox/ready'`) {
			t.Errorf("recipe %d does not wait on /_sandbox/ready at port 8080:\n%s", i+1, b)
		}
	}
	env, base := sandboxEnv(t, map[string]string{"SIGNSANDBOX_ADDR": "0.0.0.0:8080"})
	startSandbox(t, env, base)
	waitReady(t, base+"/_sandbox/ready")
}
