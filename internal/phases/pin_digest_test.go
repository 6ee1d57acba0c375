package phases

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/testutil/corpus"
	"github.com/dreamd/dreamd/internal/testutil/golden"
	"github.com/dreamd/dreamd/internal/transcript"
)

// TestDigestIsPinned pins what gather makes of a corpus, byte for byte, across budgets that cut
// at every level (tool output, assistant prose, user turns without a lesson, whole files deferred,
// files left unread): the reading and the cut are restructured for speed, and what they choose to
// send must not move. The golden holds a hash of every digest and plan-facing list, and counts to
// read when it changes.
func TestDigestIsPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("generates two corpora")
	}
	shapes := []struct {
		name     string
		sessions int
		bytes    int64
		budgets  []int
	}{
		{"few large sessions", 24, 3 << 20, []int{40_000, 26_000, 22_000, 15_000, 8_000, 1_500}},
		{"backlog of small sessions", 400, 4 << 20, []int{100_000, 20_000, 3_000}},
	}
	var out strings.Builder
	for _, sh := range shapes {
		dir := t.TempDir()
		m, err := corpus.Generate(filepath.Join(dir, "corpus"), corpus.Options{Projects: 1, Sessions: sh.sessions, TotalBytes: sh.bytes, Seed: 7, Lessons: 12})
		if err != nil {
			t.Fatal(err)
		}
		// Modification times decide the reading order: make them the corpus's own, not the
		// order the files happened to be written in.
		for i, f := range m.Files {
			when := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration((i*7919)%len(m.Files)) * time.Minute)
			if err := os.Chtimes(f.Path, when, when); err != nil {
				t.Fatal(err)
			}
		}
		red, err := redact.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		env := &Env{
			Sources:        []transcript.Source{{Kind: "claude", Path: m.Source}},
			StoreMode:      "claude",
			StoreRoot:      filepath.Join(dir, "projects"),
			StateDir:       filepath.Join(dir, "state"),
			MaxInputTokens: 100000,
			Redactor:       red,
		}
		targets, _, err := Discover(env)
		if err != nil || len(targets) != 1 {
			t.Fatalf("Discover: %v, %d targets", err, len(targets))
		}
		for _, budget := range sh.budgets {
			pending, err := Pending(targets[0], nil)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Gather(context.Background(), env, targets[0].Paths.Store, pending, budget)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s, budget %d: %s\n", sh.name, budget, pinOf(g, m.Source))
		}
	}
	golden.Check(t, "testdata/digest-pin.golden", []byte(out.String()))
}

// pinOf is a digest's fingerprint: counts, and a hash of everything a prompt and a plan take
// from it (paths relative to the corpus, modification times left out).
func pinOf(g Gathered, source string) string {
	rel := func(p string) string { r, _ := filepath.Rel(source, p); return r }
	type file struct {
		Path, Session string
		From, To      [3]int64
		More          bool
		Sessions      []SessionRef
	}
	files := func(rs []FileRead) []file {
		out := make([]file, 0, len(rs))
		for _, r := range rs {
			out = append(out, file{rel(r.Path), r.Session, [3]int64{r.From.Offset, r.From.Lines, r.From.Size},
				[3]int64{r.To.Offset, r.To.Lines, r.To.Size}, r.To.More, r.Sessions})
		}
		return out
	}
	// A tool call's id is the generated corpus's, drawn anew each run: which error answers which
	// call is pinned by the turns' order, not by the ids.
	sessions := slices.Clone(g.Sessions)
	for i := range sessions {
		sessions[i].Turns = slices.Clone(sessions[i].Turns)
		for k := range sessions[i].Turns {
			sessions[i].Turns[k].Call = ""
		}
	}
	b, err := json.Marshal(struct {
		Sessions   any
		Read       []file
		Deferred   []file
		Cut        []string
		Redactions int
		Bytes      int64
	}{sessions, files(g.Read), files(g.Deferred), g.Cut, g.Redactions, g.Bytes})
	if err != nil {
		panic(err)
	}
	turns, chars := 0, 0
	for _, s := range g.Sessions {
		turns += len(s.Turns)
		for _, t := range s.Turns {
			chars += len(t.Text)
		}
	}
	return fmt.Sprintf("%d sessions, %d turns, %d chars, %d read, %d deferred, cut %q, sha256 %x",
		len(g.Sessions), turns, chars, len(g.Read), len(g.Deferred), slices.Clip(g.Cut), sha256.Sum256(b))
}
