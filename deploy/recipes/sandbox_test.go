package recipes

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// root is the repository checkout this module sits in.
var root = func() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

// binary is the signsandbox the recipes start: SIGNSANDBOX_RECIPES_BINARY
// (CI passes the one it built), or one built from the checkout by TestMain.
var binary string

func TestMain(m *testing.M) {
	binary = os.Getenv("SIGNSANDBOX_RECIPES_BINARY")
	var tmp string
	if binary == "" {
		var err error
		if tmp, err = os.MkdirTemp("", "recipes-"); err != nil {
			panic(err)
		}
		binary = filepath.Join(tmp, "signsandbox")
		build := exec.Command("go", "build", "-o", binary, "./cmd/signsandbox")
		build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building signsandbox:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	if tmp != "" {
		os.RemoveAll(tmp)
	}
	os.Exit(code)
}

// sandboxEnv is the environment a recipe gives the container, made fit for
// this machine: the listen address a free loopback port (the containers'
// 0.0.0.0:8080 would clash), the data directory a temporary one.
func sandboxEnv(t *testing.T, recipe map[string]string) (env []string, base string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SIGNSANDBOX_") {
			env = append(env, kv)
		}
	}
	for k, v := range recipe {
		switch k {
		case "SIGNSANDBOX_ADDR":
			v = addr
		case "SIGNSANDBOX_DATA_DIR":
			v = t.TempDir()
		}
		env = append(env, k+"="+v)
	}
	if _, ok := recipe["SIGNSANDBOX_ADDR"]; !ok {
		env = append(env, "SIGNSANDBOX_ADDR="+addr)
	}
	return env, "http://" + addr
}

// startSandbox runs the binary with env until the test ends, once its
// liveness answers.
func startSandbox(t *testing.T, env []string, base string) {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = env
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-exited //nolint:errcheck // stopped by the SIGTERM above; how it exits is not what these tests check
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		if status(base+"/_sandbox/health") == http.StatusOK {
			return
		}
		select {
		case err := <-exited:
			t.Fatalf("signsandbox exited (%v) before it answered:\n%s", err, log.String())
		case <-ctx.Done():
			t.Fatalf("signsandbox did not answer within a minute:\n%s", log.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitReady waits, as the recipes do, until url answers 200, and fails the
// test after a minute with the last answer.
func waitReady(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		code, body := get(url)
		if code == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %d %s after a minute", url, code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// status is the status of a GET of url, 0 when it cannot be asked.
func status(url string) int {
	code, _ := get(url)
	return code
}

// get is the status and body of a GET of url, 0 when it cannot be asked.
func get(url string) (int, string) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(body)
}

// run runs a command with env and fails the test unless it exits 0.
func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, out)
	}
	return string(out)
}

var recipeRe = regexp.MustCompile(`(?m)^<!-- recipe: (.+?) -->\n(?:<!--.*-->\n)*(` + "```" + `\w*)\n((?s:.*?))\n` + "```" + `\n`)

// recipes are the blocks of docs/containers-and-ci.md marked
// <!-- recipe: NAME -->, by name, in order.
func recipes(t *testing.T) map[string][]string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(root, "docs", "containers-and-ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, m := range recipeRe.FindAllStringSubmatch(string(page), -1) {
		out[m[1]] = append(out[m[1]], m[3])
	}
	return out
}
