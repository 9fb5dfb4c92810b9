package render

import (
	"runtime"
	"sync"
)

// parallelMin is the number of items from which work is spread over the
// cores: below it, starting goroutines costs more than it saves.
const parallelMin = 64

// forEachIndex calls f(i) for every i in [0, n), on every core when n is
// large. Each call must touch only what belongs to index i.
func forEachIndex(n int, f func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < parallelMin || workers < 2 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				f(i)
			}
		}()
	}
	wg.Wait()
}
