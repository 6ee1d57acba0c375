package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dreamd/dreamd/internal/phases"
)

// progressLine keeps one line of progress at the bottom of a terminal's stderr while stores are
// gathered and consolidated side by side. Log lines are written through it: it clears the line,
// writes the log line and draws the line again, so the two never interleave.
type progressLine struct {
	mu     sync.Mutex
	term   *os.File
	shown  string                     // the line on the terminal now
	active map[string]phases.Progress // stores under way, by store directory
	order  []string                   // the stores in the order they started
}

func newProgressLine(term *os.File) *progressLine {
	return &progressLine{term: term, active: map[string]phases.Progress{}}
}

// Fd lets the log handler see the terminal behind the line (for colour).
func (l *progressLine) Fd() uintptr { return l.term.Fd() }

// Write writes a log line above the progress line.
func (l *progressLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clear()
	n, err := l.term.Write(p)
	l.draw()
	return n, err
}

// update records a store's progress and redraws the line.
func (l *progressLine) update(p phases.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	done := p.Stage == phases.Finished || p.Stage == phases.Gathering && p.Done == p.Files
	if _, ok := l.active[p.Store]; !ok && !done {
		l.order = append(l.order, p.Store)
	}
	if done {
		delete(l.active, p.Store)
		l.order = slices.DeleteFunc(l.order, func(s string) bool { return s == p.Store })
	} else {
		l.active[p.Store] = p
	}
	l.clear()
	l.draw()
}

// finish takes the line off the terminal.
func (l *progressLine) finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clear()
	clear(l.active)
	l.order = nil
}

func (l *progressLine) clear() {
	if l.shown != "" {
		io.WriteString(l.term, "\r\x1b[K")
		l.shown = ""
	}
}

// draw shows the store that started first, and how many others are under way.
func (l *progressLine) draw() {
	if len(l.order) == 0 {
		return
	}
	p := l.active[l.order[0]]
	var b strings.Builder
	switch p.Stage {
	case phases.Consolidating:
		fmt.Fprintf(&b, "consolidating %s…", storeName(p.Store))
	default:
		fmt.Fprintf(&b, "gathering %s: %d/%d files, %.1f/%.1f MB", storeName(p.Store), p.Done, p.Files, float64(p.Read)/(1<<20), float64(p.Bytes)/(1<<20))
	}
	if more := len(l.order) - 1; more > 0 {
		fmt.Fprintf(&b, " (+%d more)", more)
	}
	l.shown = b.String()
	io.WriteString(l.term, l.shown)
}

// storeName is the short name of a store: its project folder for Claude's layout
// (…/projects/-home-ana-shop/memory), else the directory's own name.
func storeName(dir string) string {
	if filepath.Base(dir) == "memory" {
		return filepath.Base(filepath.Dir(dir))
	}
	return filepath.Base(dir)
}
