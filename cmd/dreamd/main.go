// Command dreamd consolidates coding-agent transcripts into durable memory.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Build information, set with -ldflags "-X main.version=… -X main.commit=…".
var (
	version = "dev"
	commit  = ""
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := &globalOptions{Out: os.Stdout, Err: os.Stderr, In: os.Stdin}
	cmd := newRootCmd(g)
	err := cmd.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dreamd:", err)
	}
	os.Exit(exitCode(err))
}
