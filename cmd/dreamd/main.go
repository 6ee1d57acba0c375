// Command dreamd consolidates coding-agent transcripts into durable memory.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
)

// Build information, set with -ldflags "-X main.version=… -X main.commit=…".
var (
	version = "dev"
	commit  = ""
)

func main() {
	tuneGC()
	if path := os.Getenv("DREAMD_CPUPROFILE"); path != "" {
		stopProfile := startProfile(path)
		defer stopProfile()
	}
	if path := os.Getenv("DREAMD_MEMPROFILE"); path != "" {
		defer writeAllocs(path)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := &globalOptions{Out: os.Stdout, Err: os.Stderr}
	cmd := newRootCmd(g)
	err := cmd.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dreamd:", err)
	}
	code := exitCode(err)
	if code != 0 {
		stop()
		os.Exit(code)
	}
}

// tuneGC collects less often than Go's default: a pass allocates in bursts (whole transcript
// lines) over a small live heap, so collecting at 4x growth saves about 15% of a full pass, and
// the soft limit keeps the peak near 100 MiB whatever the transcripts. GOGC and GOMEMLIMIT in the
// environment still win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(100 << 20)
	}
}

// startProfile writes a CPU profile of the whole process to path (DREAMD_CPUPROFILE, for
// developers measuring a pass with go tool pprof).
func startProfile(path string) func() {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dreamd: DREAMD_CPUPROFILE:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "dreamd: DREAMD_CPUPROFILE:", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// writeAllocs writes a profile of every allocation the process made to path (DREAMD_MEMPROFILE,
// for developers: go tool pprof -sample_index=alloc_space).
func writeAllocs(path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dreamd: DREAMD_MEMPROFILE:", err)
	}
}
