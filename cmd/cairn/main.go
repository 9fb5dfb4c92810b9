package main

import (
	"os"
	"runtime/pprof"

	"github.com/cairn-iac/cairn/internal/command"
)

func main() {
	os.Exit(run())
}

// run runs the command line. CAIRN_CPU_PROFILE=FILE writes a CPU profile of
// the whole run, for performance work on real configurations.
func run() int {
	tuneGC()
	if path := os.Getenv("CAIRN_CPU_PROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			defer f.Close() // runs after StopCPUProfile has flushed
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	return command.Run(os.Args[1:], command.Streams{})
}
