package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// killServer is a signsandbox process a test can SIGKILL.
type killServer struct {
	cmd    *exec.Cmd
	base   string
	exited chan error
}

// startKillServer starts bin on a free port with dataDir and waits until
// it is ready.
func startKillServer(t *testing.T, bin, dataDir string) *killServer {
	t.Helper()
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-level", "warn", "--clock", "fake", "--data-dir", dataDir)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	s := &killServer{cmd: cmd, exited: make(chan error, 1)}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-s.exited //nolint:errcheck // a server the test left running was just killed: its status is that signal
		}
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if line := lines.Text(); strings.Contains(line, "listening on ") {
			s.base = line[strings.Index(line, "http://"):]
			break
		}
	}
	go func() {
		_, _ = io.Copy(io.Discard, stdout)
		s.exited <- cmd.Wait()
	}()
	require.NotEmpty(t, s.base, "no banner; stderr: %s", stderr.String())
	resp, err := http.Get(s.base + "/_sandbox/ready")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "ready once the banner is out; stderr: %s", stderr.String())
	return s
}

// call makes one request and decodes a JSON answer into out.
func (s *killServer) call(key, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.SetBasicAuth(key, "")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err // the answer was cut: not acknowledged
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%w: %s", err, b)
		}
	}
	return resp.StatusCode, nil
}

// TestSIGKILLDuringLoadNeverLosesAcknowledgedState builds the binary, runs
// a load of world creations and API writes against it with --data-dir,
// SIGKILLs it in the middle, restarts it on the same directory, and checks
// that every world and every object a client saw acknowledged is there,
// round after round; a last SIGTERM and restart keeps them too.
func TestSIGKILLDuringLoadNeverLosesAcknowledgedState(t *testing.T) {
	bin := testBinary(t)
	dataDir := t.TempDir()

	type ackedApp struct{ key, name, clientID string }
	var mu sync.Mutex
	var worlds []string // API keys of acknowledged worlds
	var apps []ackedApp
	acked := 0

	const rounds = 4
	for round := 0; round < rounds; round++ {
		srv := startKillServer(t, bin, dataDir)

		// Everything acknowledged before this start is still there.
		for _, key := range worlds {
			var info struct {
				APIKey string `json:"api_key"`
			}
			status, err := srv.call(key, http.MethodGet, "/_sandbox/world", nil, &info)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, status, "round %d: an acknowledged world is gone", round)
			require.Equal(t, key, info.APIKey)
		}
		for _, a := range apps {
			var got struct {
				APIApp struct {
					Name string `json:"name"`
				} `json:"api_app"`
			}
			status, err := srv.call(a.key, http.MethodGet, "/v3/api_app/"+a.clientID, nil, &got)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, status, "round %d: acknowledged app %s is gone", round, a.name)
			require.Equal(t, a.name, got.APIApp.Name)
		}
		t.Logf("round %d: %d worlds and %d apps acknowledged so far are all there", round, len(worlds), len(apps))
		if round == rounds-1 {
			// SIGTERM: a clean stop flushes the journals too.
			require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
			require.NoError(t, <-srv.exited, "SIGTERM ends the server cleanly")
			again := startKillServer(t, bin, dataDir)
			for _, key := range worlds {
				status, err := again.call(key, http.MethodGet, "/_sandbox/world", nil, nil)
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, status, "a world is gone after SIGTERM")
			}
			break
		}

		stop := make(chan struct{})
		var wg sync.WaitGroup
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					if i%10 == 0 {
						var w struct {
							APIKey string `json:"api_key"`
						}
						if status, err := srv.call("", http.MethodPost, "/_sandbox/worlds", map[string]any{}, &w); err == nil && status == http.StatusCreated {
							mu.Lock()
							worlds = append(worlds, w.APIKey)
							mu.Unlock()
						}
						continue
					}
					mu.Lock()
					if len(worlds) == 0 {
						mu.Unlock()
						continue
					}
					key := worlds[(g+i)%len(worlds)]
					mu.Unlock()
					name := fmt.Sprintf("app r%d g%d i%d", round, g, i)
					var created struct {
						APIApp struct {
							ClientID string `json:"client_id"`
						} `json:"api_app"`
					}
					status, err := srv.call(key, http.MethodPost, "/v3/api_app", map[string]any{"name": name, "domains": []string{"example.com"}}, &created)
					if err == nil && status == http.StatusCreated {
						mu.Lock()
						apps = append(apps, ackedApp{key: key, name: name, clientID: created.APIApp.ClientID})
						acked++
						mu.Unlock()
					}
				}
			}(g)
		}
		time.Sleep(400 * time.Millisecond)
		// SIGKILL, mid-load.
		require.NoError(t, srv.cmd.Process.Kill())
		<-srv.exited //nolint:errcheck // its status is that SIGKILL
		close(stop)
		wg.Wait()
	}
	assert.Positive(t, acked, "the load made acknowledged writes")
}
