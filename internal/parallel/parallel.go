package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// MinItems is the number of items from which work is spread over the
// cores: below it, starting goroutines costs more than it saves.
const MinItems = 64

// chunksPerWorker sets how finely the items are cut: enough chunks for
// the workers to even out, few enough that taking one is cheap.
const chunksPerWorker = 8

// ForEach calls f(i) for every i in [0, n), on every core when n is at
// least MinItems. Calls may run concurrently, so each must touch only
// what belongs to its index. ForEach returns when every call has.
func ForEach(n int, f func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < MinItems || workers < 2 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	size := max(1, n/(workers*chunksPerWorker))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(int64(size))) - size
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+size, n); i++ {
					f(i)
				}
			}
		}()
	}
	wg.Wait()
}
