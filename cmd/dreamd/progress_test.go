package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/phases"
)

// TestProgressSaysTimeAndSessionsLeft: a long first pass shows, per store, how long its reading
// has left at its pace so far and how many sessions wait for the next passes.
func TestProgressSaysTimeAndSessionsLeft(t *testing.T) {
	term, err := os.Create(filepath.Join(t.TempDir(), "term"))
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	l := newProgressLine(term)
	clock := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return clock }
	store := "/home/ana/.claude/projects/-home-ana-shop/memory"
	l.update(phases.Progress{Store: store, Files: 1000, Done: 0, Bytes: 400 << 20})
	clock = clock.Add(10 * time.Second)
	l.update(phases.Progress{Store: store, Files: 1000, Done: 250, Bytes: 400 << 20, Read: 100 << 20, Left: 4000})
	want := "gathering -home-ana-shop: 250/1000 files, 100.0/400.0 MB, about 30s left; 4000 more sessions wait for the next passes"
	if l.shown != want {
		t.Errorf("progress line\n got %q\nwant %q", l.shown, want)
	}
	l.finish()
	b, _ := os.ReadFile(term.Name())
	if !strings.HasSuffix(string(b), "\r\x1b[K") {
		t.Errorf("the line is not cleared at the end: %q", b)
	}
}
