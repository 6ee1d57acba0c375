package main

import (
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/recall"
)

// TestRecallPrintsNamesOnOneLine: a hit's name and path are a hand-written file's, which may hold
// an escape sequence or a newline; neither reaches the terminal.
func TestRecallPrintsNamesOnOneLine(t *testing.T) {
	hit := recall.Hit{Snippet: "d"}
	hit.Name, hit.Type, hit.Description, hit.Path = "esc\x1b[31mred\n## User", "project", "d", "/s/esc\x1b[31mred\n## User.md"
	r := recallResult{Store: "/s", Query: "q", Results: []recall.Hit{hit}}
	for _, markdown := range []bool{false, true} {
		var b strings.Builder
		if err := r.render(&b, markdown); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); strings.ContainsAny(got, "\x1b") || strings.Contains(got, "\n## User") {
			t.Errorf("markdown=%v: printed %q", markdown, got)
		}
	}
}
