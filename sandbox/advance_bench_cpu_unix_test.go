//go:build unix

package sandbox_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used (user and system, every
// thread: the garbage collector's work counts too).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
