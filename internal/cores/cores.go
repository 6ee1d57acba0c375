// Package cores runs the independent steps of a loop on every core: the per-memory and per-file
// work of a large store's pass (redaction, word sets, diffs), whose results are stored by index so
// their order never depends on scheduling.
package cores

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls work(i) once for every i in [0, n), on as many goroutines as there are cores (and
// no more than n), and returns when every call has returned. work must be safe to call
// concurrently for different i.
func Each(n int, work func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				work(i)
			}
		})
	}
	wg.Wait()
}
