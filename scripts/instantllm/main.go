// Command instantllm is an OpenAI-compatible /v1/chat/completions server for benchmarks: it answers
// every request at once (or after -latency) with a valid, empty consolidation
// ({"summary":…,"operations":[]}), and logs each request's size in bytes, its approximate prompt
// tokens, how many requests were in flight when it arrived and which planted lessons of a corpus
// manifest (see scripts/gencorpus) it carries, one JSON line per request.
//
//	instantllm -addr 127.0.0.1:0 -manifest manifest.json -log requests.jsonl [-latency 500ms]
//
// -latency holds every reply back, as a remote model would; the summary's max_in_flight then shows
// whether a client kept more calls open at once than it is configured to (llm.concurrency).
//
// It prints the base URL to configure (http://127.0.0.1:PORT/v1) on stdout once it listens, and
// runs until SIGINT or SIGTERM. With -summarize it instead reads a request log and prints the
// figures scripts/bench.sh reports, as key=value lines.
package main

import (
	"context"
	"encoding/json"
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
		fmt.Fprintln(os.Stderr, "instantllm:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("instantllm", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port, printed on stdout)")
	manifest := fs.String("manifest", "", "corpus manifest whose planted lessons to look for in requests")
	logPath := fs.String("log", "", "file to append one JSON line per request to (required to serve)")
	summarize := fs.String("summarize", "", "print the figures of this request log and exit")
	latency := fs.Duration("latency", 0, "hold every reply back this long (e.g. 500ms), as a remote model would")
	if err := fs.Parse(args); err != nil {
		return err
	}
	lessons, err := loadLessons(*manifest)
	if err != nil {
		return err
	}
	if *summarize != "" {
		return printSummary(os.Stdout, *summarize, lessons)
	}
	if *logPath == "" {
		return errors.New("-log is required")
	}
	logFile, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	h := newHandler(logFile, lessons)
	h.latency = *latency
	srv := &http.Server{Handler: h.routes()}
	fmt.Printf("http://%s/v1\n", ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	shutdown := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdown <- srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	// Shutdown returns once every handler has finished, so no request is still being received.
	if err := <-shutdown; err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "instantllm: %d requests in flight at most\n", h.MaxInFlight())
	return h.Close()
}

// lesson is what instantllm needs of a planted lesson from the manifest.
type lesson struct {
	Marker  string `json:"marker"`
	Text    string `json:"text"`
	Project string `json:"project"`
}

func loadLessons(path string) ([]lesson, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m struct {
		Lessons []lesson `json:"lessons"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	return m.Lessons, nil
}
