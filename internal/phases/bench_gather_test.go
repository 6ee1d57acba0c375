package phases

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/testutil/corpus"
	"github.com/dreamd/dreamd/internal/transcript"
)

// benchStore generates a realistic Claude Code corpus of one project (one store) of about size
// bytes in a temporary directory, and returns the Env that reads it and its target.
func benchStore(b *testing.B, size int64) (*Env, Target, corpus.Manifest) {
	b.Helper()
	dir := b.TempDir()
	m, err := corpus.Generate(filepath.Join(dir, "corpus"), corpus.Options{Projects: 1, Sessions: 25, TotalBytes: size, Seed: 1, Lessons: 10})
	if err != nil {
		b.Fatal(err)
	}
	red, err := redact.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	env := &Env{
		Sources:           []transcript.Source{{Kind: "claude", Path: m.Source}},
		StoreMode:         "claude",
		StoreRoot:         filepath.Join(dir, "projects"),
		StateDir:          filepath.Join(dir, "state"),
		Limits:            memory.DefaultLimits,
		MaxRetireFraction: 0.25,
		MaxInputTokens:    100000,
		Redactor:          red,
		Now:               func() time.Time { return time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) },
	}
	targets, _, err := Discover(env)
	if err != nil {
		b.Fatal(err)
	}
	if len(targets) != 1 {
		b.Fatalf("corpus of one project routed to %d stores", len(targets))
	}
	return env, targets[0], m
}

// lessonsKept counts the planted lessons whose marker is in the digest.
func lessonsKept(m corpus.Manifest, sessions []extract.Session) int {
	var all strings.Builder
	for _, s := range sessions {
		for _, t := range s.Turns {
			all.WriteString(t.Text)
			all.WriteByte('\n')
		}
	}
	n := 0
	for _, l := range m.Lessons {
		if strings.Contains(all.String(), l.Marker) {
			n++
		}
	}
	return n
}

// BenchmarkGather is the gather phase of a first pass over ~50 MB of one store: what is pending,
// then reading, redacting and cutting it to the budget of an empty store.
func BenchmarkGather(b *testing.B) {
	env, t, m := benchStore(b, 50<<20)
	budget := digestBudget(env, &store.Store{})
	b.SetBytes(m.Bytes)
	b.ReportAllocs()
	var g Gathered
	for b.Loop() {
		pending, err := Pending(t, Cursors{})
		if err != nil {
			b.Fatal(err)
		}
		if g, err = Gather(context.Background(), env, t.Paths.Store, pending, budget); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(lessonsKept(m, g.Sessions)), "lessons-kept")
	b.ReportMetric(float64(len(m.Lessons)), "lessons-planted")
}

// BenchmarkDigestFit is the digest cut alone: the read and redacted sessions of ~50 MB cut to the
// budget (tool output, then assistant turns, then user turns without a lesson).
func BenchmarkDigestFit(b *testing.B) {
	env, t, m := benchStore(b, 50<<20)
	pending, err := Pending(t, Cursors{})
	if err != nil {
		b.Fatal(err)
	}
	budget := digestBudget(env, &store.Store{})
	digested, _, err := readFiles(pending, budget)
	if err != nil {
		b.Fatal(err)
	}
	in := size(digested)
	b.ReportAllocs()
	var kept []digestFile
	for b.Loop() {
		b.StopTimer()
		files := cloneDigest(digested) // fit cuts in place
		b.StartTimer()
		_, kept = fit(files, budget)
	}
	var sessions []extract.Session
	for _, f := range kept {
		if !f.deferred {
			sessions = append(sessions, f.sessions...)
		}
	}
	b.ReportMetric(float64(in), "est-tokens-in")
	b.ReportMetric(float64(size(kept)), "est-tokens-out")
	b.ReportMetric(float64(lessonsKept(m, sessions)), "lessons-kept")
}

func cloneDigest(files []digestFile) []digestFile {
	out := slices.Clone(files)
	for i := range out {
		out[i].sessions = slices.Clone(out[i].sessions)
		for j := range out[i].sessions {
			out[i].sessions[j].Turns = slices.Clone(out[i].sessions[j].Turns)
		}
	}
	return out
}
