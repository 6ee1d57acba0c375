package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/phases"
)

// progressLine keeps one line of progress at the bottom of a terminal's stderr while stores are
// gathered and consolidated side by side. Log lines are written through it: it clears the line,
// writes the log line and draws the line again, so the two never interleave.
type progressLine struct {
	mu      sync.Mutex
	term    *os.File
	shown   string                     // the line on the terminal now
	active  map[string]phases.Progress // stores under way, by store directory
	started map[string]time.Time       // when each store's gathering started, for the time left
	order   []string                   // the stores in the order they started
	now     func() time.Time
}

func newProgressLine(term *os.File) *progressLine {
	return &progressLine{term: term, active: map[string]phases.Progress{}, started: map[string]time.Time{}, now: time.Now}
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
		l.started[p.Store] = l.now()
	}
	if done {
		delete(l.active, p.Store)
		delete(l.started, p.Store)
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
		if left, ok := timeLeft(p, l.now().Sub(l.started[p.Store])); ok {
			fmt.Fprintf(&b, ", about %s left", left)
		}
		if p.Left > 0 {
			fmt.Fprintf(&b, "; %d more sessions wait for the next passes", p.Left)
		}
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

// timeLeft estimates the rest of a store's gathering from its pace so far, once there is a pace
// to go by (a second, and some bytes read).
func timeLeft(p phases.Progress, elapsed time.Duration) (time.Duration, bool) {
	if elapsed < time.Second || p.Read <= 0 || p.Read >= p.Bytes {
		return 0, false
	}
	left := time.Duration(float64(elapsed) * float64(p.Bytes-p.Read) / float64(p.Read))
	return left.Round(time.Second), true
}
