package enginetest

import (
	"syscall"
	"testing"
	"time"
)

// cpuMeter reports CPU time (user+system) per operation alongside the
// wall-clock ns/op: on a shared 2-core machine wall time swings with other
// load while CPU time stays comparable between runs. It also reports the
// process's peak resident memory, and that divided by instances.
type cpuMeter struct {
	start     time.Duration
	instances int
}

func rusage() (cpu time.Duration, maxRSS int64) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss * 1024
}

func startCPU(instances int) *cpuMeter {
	c, _ := rusage()
	return &cpuMeter{start: c, instances: instances}
}

func (m *cpuMeter) report(b *testing.B) {
	c, _ := rusage()
	m.reportCPU(b, c-m.start)
}

// reportCPU reports cpu, spent over b.N operations, and the peak RSS: for
// benchmarks that time only part of each iteration.
func (m *cpuMeter) reportCPU(b *testing.B, cpu time.Duration) {
	_, rss := rusage()
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
	if m.instances > 0 {
		b.ReportMetric(float64(rss)/float64(m.instances), "peak-RSS-B/instance")
	}
}

func sleepMs(n int) { time.Sleep(time.Duration(n) * time.Millisecond) }
