package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startFakeClockBinary starts the binary bin on a free loopback port; it
// returns the process, its address and a channel that receives its exit.
func startFakeClockBinary(t *testing.T, bin string) (*exec.Cmd, string, chan error) {
	t.Helper()
	srv := startBinary(t, exec.Command(bin, "--addr", "127.0.0.1:0", "--clock", "fake", "--log-level", "warn"))
	addr := strings.Replace(strings.TrimPrefix(srv.base, "http://"), "localhost", "127.0.0.1", 1)
	return srv.cmd, addr, srv.exited
}

// A request whose body is still coming in when SIGTERM arrives is answered
// in full, then the binary exits 0; a second signal during that wait stops
// it at once.
func TestBinarySIGTERMFinishesRequestsInFlight(t *testing.T) {
	bin := testBinary(t)
	body := `{"seconds": 3600}`
	head := "POST /_sandbox/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"

	cmd, addr, exited := startFakeClockBinary(t, bin)
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, head+body[:5])
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		t.Fatalf("exited with a request in flight: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	_, err = io.WriteString(c, body[5:])
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	select {
	case err := <-exited:
		require.NoError(t, err, "exit 0 after the last request")
	case <-time.After(5 * time.Second):
		t.Fatal("the binary did not exit after its last request")
	}

	cmd, addr, exited = startFakeClockBinary(t, bin)
	c2, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c2.Close()
	_, err = io.WriteString(c2, head+body[:5])
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		require.Error(t, err, "stopped by the second signal")
		t.Logf("second SIGTERM: stopped after %v", time.Since(start))
	case <-time.After(3 * time.Second):
		t.Fatal("the second SIGTERM did not stop the binary")
	}
}
