// Command gencorpus writes a synthetic Claude Code transcript corpus of realistic shape (see
// internal/testutil/corpus) and prints its manifest as JSON: the files, and the lessons planted in them.
//
//	gencorpus -dir /tmp/c -projects 10 -sessions 200 -size 400MB -seed 1 -lessons 20
//
// With -store-root and -memories, every project also gets a Claude Code memory store of that many
// memories at <store-root>/-home-bench-p<N>/memory, as a pass would find on a used machine.
//
// Other modes write what the scaling axes of scripts/bench.sh need:
//
//	gencorpus -mode small -dir /tmp/c -projects 50 -sessions 50000 -file-size 5KB
//	    many small transcripts (a few exchanges each, about -file-size) round-robin over the
//	    projects; prints a short manifest. -one-line: each is a single user record instead
//	    (100,000 of them in one project: the shape of a harness that starts a session per task)
//	gencorpus -mode store -store DIR -memories 10000 [-similar]
//	    one memory store of hand-written-looking memories and its MEMORY.md; -similar writes them
//	    in clusters of rewordings of one lesson (near-duplicates everywhere)
//	gencorpus -mode append -file F.jsonl -turn K
//	    appends one exchange to a transcript, as a resumed session, whose user turn states lesson K
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dreamd/dreamd/internal/testutil/corpus"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	dir := fs.String("dir", "", "directory to write the corpus into (required); files go to DIR/claude")
	projects := fs.Int("projects", 10, "number of projects")
	sessions := fs.Int("sessions", 200, "number of session files")
	size := fs.String("size", "400MB", "total size: bytes, or with a KB, MB or GB suffix (powers of 1024)")
	seed := fs.Int64("seed", 1, "random seed; the same seed writes the same corpus")
	lessons := fs.Int("lessons", 20, "explicit user lessons to plant")
	storeRoot := fs.String("store-root", "", "with -memories: Claude Code projects root to seed memory stores under")
	memories := fs.Int("memories", 0, "memories to write into each project's store under -store-root (-mode store: into -store)")
	mode := fs.String("mode", "corpus", "corpus, small, store or append (see the package comment)")
	fileSize := fs.String("file-size", "5KB", "-mode small: the size of each transcript")
	oneLine := fs.Bool("one-line", false, "-mode small: every transcript is a single user record")
	storeDir := fs.String("store", "", "-mode store: the memory store directory to write")
	similar := fs.Bool("similar", false, "-mode store: memories in clusters of near-duplicate rewordings")
	file := fs.String("file", "", "-mode append: the transcript to append to")
	turn := fs.Int("turn", 0, "-mode append: which lesson the appended user turn states")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch *mode {
	case "corpus":
	case "small":
		if *dir == "" {
			return fmt.Errorf("-dir is required")
		}
		each, err := parseSize(*fileSize)
		if err != nil {
			return fmt.Errorf("-file-size: %w", err)
		}
		if *projects < 1 || *sessions < 1 {
			return fmt.Errorf("-mode small needs -projects and -sessions of at least 1")
		}
		m, err := writeSmall(*dir, *projects, *sessions, each, *oneLine, *seed)
		if err != nil {
			return err
		}
		return printJSON(m)
	case "store":
		if *storeDir == "" || *memories < 1 {
			return fmt.Errorf("-mode store needs -store and -memories")
		}
		st, err := writeMemories(*storeDir, *memories, *similar, *seed)
		if err != nil {
			return err
		}
		return printJSON(st)
	case "append":
		if *file == "" {
			return fmt.Errorf("-mode append needs -file")
		}
		return appendSession(*file, *turn, *seed)
	default:
		return fmt.Errorf("-mode %q: want corpus, small, store or append", *mode)
	}
	if *dir == "" {
		return fmt.Errorf("-dir is required")
	}
	bytes, err := parseSize(*size)
	if err != nil {
		return fmt.Errorf("-size: %w", err)
	}
	m, err := corpus.Generate(*dir, corpus.Options{Projects: *projects, Sessions: *sessions, TotalBytes: bytes, Seed: *seed, Lessons: *lessons})
	if err != nil {
		return err
	}
	if *memories > 0 {
		if *storeRoot == "" {
			return fmt.Errorf("-memories needs -store-root")
		}
		for p := 1; p <= *projects; p++ {
			store := filepath.Join(*storeRoot, corpus.ProjectSlug(p), "memory")
			if _, err := corpus.WriteStore(store, *memories, *seed+int64(p)); err != nil {
				return err
			}
		}
	}
	return printJSON(m)
}

func printJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// parseSize reads "400MB", "2G", "512k" or a plain byte count.
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		factor int64
	}{{"GB", 1 << 30}, {"G", 1 << 30}, {"MB", 1 << 20}, {"M", 1 << 20}, {"KB", 1 << 10}, {"K", 1 << 10}, {"B", 1}}
	upper := strings.ToUpper(strings.TrimSpace(s))
	factor := int64(1)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(upper, u.suffix); ok {
			upper, factor = strings.TrimSpace(rest), u.factor
			break
		}
	}
	n, err := strconv.ParseFloat(upper, 64)
	bytes := n * float64(factor)
	// NaN fails every comparison, so it is caught by asking for the range positively.
	if err != nil || !(bytes >= 1 && bytes <= 1<<50) {
		return 0, fmt.Errorf("%q is not a size between 1 byte and 1 PB", s)
	}
	return int64(bytes), nil
}
