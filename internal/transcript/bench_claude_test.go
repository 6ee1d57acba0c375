package transcript_test

import (
	"path/filepath"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/corpus"
	"github.com/dreamd/dreamd/internal/transcript"
)

// BenchmarkClaudeReadCorpus reads generated Claude Code transcripts of realistic shape (see
// internal/testutil/corpus) from the start: many sessions of one project, and one long session with its
// giant tool-output lines. BenchmarkClaudeRead reads one hand-built transcript.
func BenchmarkClaudeReadCorpus(b *testing.B) {
	for _, bc := range []struct {
		name string
		opt  corpus.Options
	}{
		{"sessions", corpus.Options{Projects: 1, Sessions: 16, TotalBytes: 32 << 20, Seed: 1, Lessons: 4}},
		{"one-long-session", corpus.Options{Projects: 1, Sessions: 1, TotalBytes: 32 << 20, Seed: 2, Lessons: 1}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			m, err := corpus.Generate(filepath.Join(b.TempDir(), "corpus"), bc.opt)
			if err != nil {
				b.Fatal(err)
			}
			a, err := transcript.New("claude")
			if err != nil {
				b.Fatal(err)
			}
			files, _, err := a.Discover(transcript.Source{Kind: "claude", Path: m.Source})
			if err != nil {
				b.Fatal(err)
			}
			if len(files) != len(m.Files) {
				b.Fatalf("discovered %d of %d files", len(files), len(m.Files))
			}
			b.SetBytes(m.Bytes)
			b.ReportAllocs()
			turns := 0
			for b.Loop() {
				turns = 0
				for _, f := range files {
					r, err := a.Read(f, transcript.Cursor{})
					if err != nil {
						b.Fatal(err)
					}
					for _, s := range r.Sessions {
						turns += len(s.Turns)
					}
				}
			}
			b.ReportMetric(float64(turns), "turns")
		})
	}
}
