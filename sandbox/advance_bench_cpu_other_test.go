//go:build !unix

package sandbox_test

import "time"

// processCPU is not measured where getrusage is missing: the benchmark
// then reports no CPU per job.
func processCPU() time.Duration { return 0 }
