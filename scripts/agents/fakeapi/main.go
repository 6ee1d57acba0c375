// Command fakeapi is a local model endpoint for driving the real agent CLIs in scripts/agents: it
// speaks the Anthropic Messages API (Claude Code), the OpenAI Responses API (Codex CLI), the
// Gemini generateContent API (Gemini CLI) and OpenAI Chat Completions (OpenCode, Kilo, Crush and
// the other OpenAI-compatible clients), each streamed as its CLI asks, and answers from a tiny
// script instead of a model, so a session is the same every time:
//
//   - the person's message asks to "run the linter"   → a shell tool call of `make lint` (which fails
//     in the scratch project: it has no Makefile, so the CLI records a tool error);
//   - it asks to "ask a sub-agent"                     → a call of the CLI's sub-agent tool, when the
//     request offers one, with a prompt that starts "Sub-agent task:";
//   - it asks to "call the dreamd recall tool"         → a call of dreamd's MCP recall tool;
//   - it asks to "run the frontend tests"              → `pnpm test` (the shell has none), then `npm test`,
//     in the project's frontend/ by the CLI's own working-directory argument (commands.go);
//   - it asks to "ask me which chart library"          → a call of the CLI's structured-question tool
//     (questions.go), "Which chart library should the dashboard use?", Recharts or Chart.js;
//   - a tool result                                    → a short closing text;
//   - anything else                                    → "Noted." (or the JSON a side call wants).
//
// Every request body is written to -record DIR as NNNN-<api>.json (with the path and the method
// as the first line), so the script can check what the CLI sent: the memory text dreamd wrote,
// the MCP tools it linked.
//
//	fakeapi -addr 127.0.0.1:0 -record DIR -addr-file FILE
//
// It writes the address it listens on (127.0.0.1:PORT) to -addr-file and runs until SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fakeapi:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("fakeapi", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	record := fs.String("record", "", "directory to write every request body to (required)")
	addrFile := fs.String("addr-file", "", "file to write the address listened on to, once listening")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *record == "" {
		return errors.New("-record is required")
	}
	if err := os.MkdirAll(*record, 0o755); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
			return err
		}
	}
	srv := &http.Server{Handler: newServer(*record)}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
