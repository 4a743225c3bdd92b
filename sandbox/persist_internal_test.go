package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signsandbox/signsandbox/sandbox/internal/control"
)

// TestAJournalThatCannotWriteRefusesChanges: once the data directory
// cannot be written, writes answer 503 and change nothing, reads go on,
// and readiness says why; what was acknowledged before is what a restart
// brings back.
func TestAJournalThatCannotWriteRefusesChanges(t *testing.T) {
	dir := t.TempDir()
	s, err := New(WithDataDir(dir, "always"))
	require.NoError(t, err)
	key := s.DefaultAPIKey()
	rec := optDo(t, s, key, http.MethodPost, "/v3/api_app", `{"name":"kept","domains":["example.com"]}`)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())

	s.persist.dir.Fail(errors.New("no space left on device"))
	rec = optDo(t, s, key, http.MethodPost, "/v3/api_app", `{"name":"refused","domains":["example.com"]}`)
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code, rec.Body.String())
	assert.Contains(t, rec.Body.String(), `"error_name":"unavailable"`)
	rec = optDo(t, s, key, http.MethodGet, "/v3/api_app/list", "")
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.NotContains(t, rec.Body.String(), "refused", "a refused write changed nothing")
	before := rec.Body.String()
	rec = optDo(t, s, "", http.MethodGet, "/_sandbox/ready", "")
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	assert.Contains(t, rec.Body.String(), "no space left on device")
	s.Close()

	s2 := optSandbox(t, WithDataDir(dir, "always"))
	rec = optDo(t, s2, key, http.MethodGet, "/v3/api_app/list", "")
	assert.Equal(t, before, rec.Body.String(), "the restart brings back what was acknowledged")
	assert.Equal(t, http.StatusOK, optDo(t, s2, "", http.MethodGet, "/_sandbox/ready", "").Code)
}

// TestARestoreThatFailsKeepsTheData: an intact journal record that cannot
// be applied stops the start with an error naming the world, and the
// world's directory is left as it was for someone to look at.
func TestARestoreThatFailsKeepsTheData(t *testing.T) {
	dir := t.TempDir()
	s, err := New(WithDataDir(dir, "always"))
	require.NoError(t, err)
	_, err = s.host.CreateWorld("fake", time.Time{})
	require.NoError(t, err)
	s.Close()

	snap := filepath.Join(dir, "worlds", "w1", "snapshot.json")
	require.NoError(t, os.WriteFile(snap, []byte(`{"version":1,"gen":1,"tables":{"nonsense":[]}}`), 0o644))
	_, err = New(WithDataDir(dir, "always"))
	require.ErrorContains(t, err, "w1")
	_, err = os.Stat(snap)
	assert.NoError(t, err, "the world's data is still there")
}

// TestANewWorldTheDiskCannotKeepIsNotCreated: with the directory failed,
// POST /_sandbox/worlds answers 503 and leaves no world behind.
func TestANewWorldTheDiskCannotKeepIsNotCreated(t *testing.T) {
	s := optSandbox(t, WithDataDir(t.TempDir(), "always"))
	s.persist.dir.Fail(errors.New("read-only file system"))
	rec := optDo(t, s, "", http.MethodPost, "/_sandbox/worlds", `{}`)
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code, rec.Body.String())
	assert.Len(t, s.host.Worlds(), 1, "only the default world")
}

// TestAFailedStartReleasesTheDataDir: a start that fails while restoring
// the default world lets the next one open the directory (no stale lock).
func TestAFailedStartReleasesTheDataDir(t *testing.T) {
	dir := t.TempDir()
	s, err := New(WithDataDir(dir, ""))
	require.NoError(t, err)
	s.Close()
	snap := filepath.Join(dir, "worlds", "default", "snapshot.json")
	good, err := os.ReadFile(snap)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(snap, []byte("{"), 0o644))
	_, err = New(WithDataDir(dir, ""))
	require.ErrorContains(t, err, "default")
	require.NoError(t, os.WriteFile(snap, good, 0o644))
	s, err = New(WithDataDir(dir, ""))
	require.NoError(t, err, "the failed start released the lock")
	s.Close()
}

// TestCompactionUnderLoadKeepsEveryChange: with a tiny compaction size the
// journals are folded into snapshots again and again while calls, clock
// moves and a reset run; a restart still answers exactly as before.
func TestCompactionUnderLoadKeepsEveryChange(t *testing.T) {
	dir := t.TempDir()
	// Journal records leave derived rows out, so a small threshold makes
	// the writes below fold the journals several times. Compactions run in
	// goroutines of their own, so a loaded machine folds later: the writers
	// go on (up to 600 writes each) until four compactions have happened.
	small := func(cfg *config) error { cfg.compactBytes = 2048; return nil }
	s, err := New(WithDataDir(dir, "interval"), small)
	require.NoError(t, err)
	w, err := s.host.CreateWorld("fake", time.Time{})
	require.NoError(t, err)
	wKey := control.WorldInfoOf(s.host, w).APIKey
	defKey := s.DefaultAPIKey()
	var wg sync.WaitGroup
	for g, key := range []string{defKey, wKey, wKey} {
		wg.Add(1)
		go func(g int, key string) {
			defer wg.Done()
			for i := 0; i < 600 && (i < 60 || s.persist.dir.Stats().Compactions <= 3); i++ {
				rec := optDo(t, s, key, http.MethodPost, "/v3/api_app", fmt.Sprintf(`{"name":"g%d i%d","domains":["example.com"]}`, g, i))
				assert.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
				if i%20 == 0 {
					optDo(t, s, key, http.MethodPost, "/_sandbox/clock/advance", `{"seconds":30}`)
				}
			}
		}(g, key)
	}
	wg.Wait()
	require.Greater(t, s.persist.dir.Stats().Compactions, uint64(3), "the journals were folded several times")
	read := func(s *Sandbox) []string {
		var out []string
		for _, key := range []string{defKey, wKey} {
			for _, path := range []string{"/_sandbox/state", "/_sandbox/clock", "/v3/api_app/list?page_size=100"} {
				out = append(out, optDo(t, s, key, http.MethodGet, path, "").Body.String())
			}
		}
		return out
	}
	before := read(s)
	s.Close()
	s2 := optSandbox(t, WithDataDir(dir, "interval"))
	assert.Equal(t, before, read(s2))
}
