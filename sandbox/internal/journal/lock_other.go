//go:build !unix

package journal

import "os"

// lockFile opens the lock file; without flock the directory is not
// protected against a second server.
func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
}

func unlockFile(f *os.File) error { return f.Close() }
