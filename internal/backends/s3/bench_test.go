package s3

import (
	"fmt"
	"sync"
	"syscall"
	"testing"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// BenchmarkPersist writes a state of n instances as the next snapshot,
// under the lock object (taken and released by the call), against
// versitygw on loopback.
//
//	go test -run '^$' -bench Persist -benchtime 50x ./internal/backends/s3/
func BenchmarkPersist(b *testing.B) {
	srv := tests3.Start(b)
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			hc := newCountingClient()
			s := stateOf(b, openTest(b, testConfig(srv), openOptions{httpClient: hc}), fmt.Sprintf("p%d", n))
			a, c := backendtest.StateWith(n), backendtest.StateWith(n+1)
			b.ReportAllocs()
			before := hc.n.Load()
			for i := 0; b.Loop(); i++ {
				st := a
				if i%2 == 1 {
					st = c
				}
				if _, err := s.Persist(st); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(hc.n.Load()-before)/float64(b.N), "requests/op")
			reportRSS(b)
		})
	}
}

// BenchmarkSetObject records one finished instance per op during an
// apply: sequentially (each durable before the next starts, one journal
// object each) and from 10 goroutines at once (the engine's default
// parallelism, sharing journal objects through group commit). The apply
// is closed outside the timer.
//
//	go test -run '^$' -bench SetObject -benchtime 500x ./internal/backends/s3/
func BenchmarkSetObject(b *testing.B) {
	srv := tests3.Start(b)
	run := 0
	for _, par := range []int{1, 10} {
		b.Run(fmt.Sprintf("parallel=%d", par), func(b *testing.B) {
			hc := newCountingClient()
			s := stateOf(b, openTest(b, testConfig(srv), openOptions{httpClient: hc}), fmt.Sprintf("s%d-%d", par, run))
			run++
			rec, err := s.BeginApply(nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			before := hc.n.Load()
			b.ResetTimer()
			var wg sync.WaitGroup
			next := make(chan int)
			for range par {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range next {
						if err := rec.SetObject(backendtest.ObjectAddr(i), backendtest.Object(i), backendtest.Provider); err != nil {
							b.Error(err)
						}
					}
				}()
			}
			for i := range b.N {
				next <- i
			}
			close(next)
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(hc.n.Load()-before)/float64(b.N), "requests/op")
			reportRSS(b)
			if _, err := rec.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

func reportRSS(b *testing.B) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}

// BenchmarkRecorder10000 is statemgr's BenchmarkRecorder10000 on S3: an
// apply of 10,000 instances recorded by 10 workers, from BeginApply to
// Close (the state object written once, the journal deleted), for the
// figures beside the local backend's.
//
//	go test -run '^$' -bench Recorder10000 -benchtime 3x ./internal/backends/s3/
func BenchmarkRecorder10000(b *testing.B) {
	const n, workers = 10000, 10
	srv := tests3.Start(b)
	hc := newCountingClient()
	bk := openTest(b, testConfig(srv), openOptions{httpClient: hc})
	b.ReportAllocs()
	var requests int64
	for i := 0; b.Loop(); i++ {
		s := stateOf(b, bk, fmt.Sprintf("apply%d", i))
		before := hc.n.Load()
		rec, err := s.BeginApply(nil)
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for j := w; j < n; j += workers {
					if err := rec.SetObject(backendtest.ObjectAddr(j), backendtest.Object(j), backendtest.Provider); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if _, err := rec.Close(); err != nil {
			b.Fatal(err)
		}
		requests += hc.n.Load() - before
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/apply")
	reportRSS(b)
}
