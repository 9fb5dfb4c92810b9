package testprocess

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PeakRSS is a process's peak resident set (VmHWM) in bytes; pid 0 is
// this process. It is 0 where /proc has no such figure (not Linux, or
// the process is gone).
func PeakRSS(pid int) uint64 {
	path := "/proc/self/status"
	if pid != 0 {
		path = fmt.Sprintf("/proc/%d/status", pid)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return vmHWM(string(b))
}

// vmHWM reads the VmHWM line of a /proc status file, in bytes.
func vmHWM(status string) uint64 {
	for _, line := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
