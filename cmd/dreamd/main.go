// Command dreamd consolidates coding-agent transcripts into durable memory.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// Build information, set with -ldflags "-X main.version=… -X main.commit=…".
var (
	version = "dev"
	commit  = ""
)

func main() {
	if path := os.Getenv("DREAMD_CPUPROFILE"); path != "" {
		stopProfile := startProfile(path)
		defer stopProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := &globalOptions{Out: os.Stdout, Err: os.Stderr, In: os.Stdin}
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
