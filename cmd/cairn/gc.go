package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the collector's growth target for a command run: the heap
// may grow to five times what survived the last collection (Go's default
// is twice). A cairn command is short-lived and allocates most of its
// memory as garbage (parser tokens, intermediate values), so collecting
// less often saves a fifth to a third of a large run's CPU time, for about
// half as much memory again at its peak.
const gcPercent = 400

// tuneGC sets the collector for a command run: gcPercent, under a soft
// memory limit of a quarter of the machine's memory, so a very large
// configuration collects as often as it must rather than running the
// machine out of memory. GOGC and GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		if total := totalMemory(); total > 0 {
			debug.SetMemoryLimit(int64(total / 4))
		}
	}
}
