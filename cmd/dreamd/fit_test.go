package main

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTableFit(t *testing.T) {
	wide := table{
		header: []string{"ID", "PATH", "N", "NOTE"},
		rows:   [][]string{{"a1", "/home/ana/.claude/projects/-home-ana-src-shop/memory", "12", "a long note about what happened in this run"}},
		gives:  []give{keep, elideMiddle, keep, elideEnd},
		drop:   []int{2, 3},
	}
	for _, tt := range []struct {
		name   string
		width  int
		header string
		row    string
	}{
		{"no limit", 0, "ID PATH N NOTE", "a1 /home/ana/.claude/projects/-home-ana-src-shop/memory 12 a long note about what happened in this run"},
		{"fits", 200, "ID PATH N NOTE", "a1 /home/ana/.claude/projects/-home-ana-src-shop/memory 12 a long note about what happened in this run"},
		{"shortened", 70, "ID PATH N NOTE", "a1 /home/ana/.cla…src-shop/memory 12 a long note about what happen…"},
		{"columns dropped", 40, "ID PATH", "a1 /home/ana/.claude…na-src-shop/memory"},
		{"nothing left to give", 10, "ID PATH", "a1 /home…memory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := wide.fit(tt.width)
			if h := strings.Join(got.header, " "); h != tt.header {
				t.Errorf("header %q, want %q", h, tt.header)
			}
			if r := strings.Join(got.rows[0], " "); r != tt.row {
				t.Errorf("row %q, want %q", r, tt.row)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want []string
	}{
		{"short", 10, []string{"short"}},
		{"one two three four", 9, []string{"one two", "three", "four"}},
		{"averyveryverylongword x", 5, []string{"averyveryverylongword", "x"}},
		{"no limit at all here", 0, []string{"no limit at all here"}},
	} {
		if got := wrap(tt.s, tt.n); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// TestTablesFitTheTerminal runs status, history and sessions on a terminal 80 columns wide (a
// pseudo-terminal from script(1)): no line is wider; piped, the same commands print every path whole.
func TestTablesFitTheTerminal(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) not installed")
	}
	s := newExampleSandbox(t, needApplied)
	for _, cmd := range []string{"status", "history", "sessions"} {
		out, errOut, code := s.shell("COLUMNS=80 script -qec 'dreamd " + cmd + "' /dev/null")
		if code != 0 {
			t.Fatalf("%s on a terminal: exit %d\n%s%s", cmd, code, out, errOut)
		}
		for _, line := range strings.Split(strings.ReplaceAll(out, "\r", ""), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 && !strings.HasPrefix(line, "store ") {
				t.Errorf("%s: a line of %d columns on an 80-column terminal:\n%s", cmd, n, line)
			}
		}
		piped, _, _ := s.shell("COLUMNS=80 dreamd " + cmd + " | cat")
		if cmd != "status" && !strings.Contains(piped, "/memory") || strings.Contains(piped, "…/") {
			t.Errorf("%s piped is not whole:\n%s", cmd, piped)
		}
	}
}
