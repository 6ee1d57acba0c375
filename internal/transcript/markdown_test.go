package transcript

import (
	"slices"
	"testing"
	"time"
)

func TestMarkdownDate(t *testing.T) {
	mtime := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name, title string
		want        time.Time
	}{
		{"2026-05-15-08h00", "", time.Date(2026, 5, 15, 8, 0, 0, 0, time.Local)},
		{"2026-05-15T0930", "", time.Date(2026, 5, 15, 9, 30, 0, 0, time.Local)},
		{"2026-05-15", "", time.Date(2026, 5, 15, 0, 0, 0, 0, time.Local)},
		{"notes", "Retro of 2026-04-02 14:05", time.Date(2026, 4, 2, 14, 5, 0, 0, time.Local)},
		{"2026-13-45", "no date here", mtime},
		{"notes", "", mtime},
	}
	for _, tt := range tests {
		if got := markdownDate(tt.name, tt.title, mtime); !got.Equal(tt.want) {
			t.Errorf("markdownDate(%q, %q) = %v, want %v", tt.name, tt.title, got, tt.want)
		}
	}
}

func TestBulletItems(t *testing.T) {
	tests := []struct {
		lines []string
		want  []string
	}{
		{[]string{"- one", "- two"}, []string{"one", "two"}},
		{[]string{"* wrapped", "  onto two lines", "  - nested detail", "1. numbered"}, []string{"wrapped onto two lines nested detail", "numbered"}},
		{[]string{"A paragraph", "of prose.", "", "- then a bullet"}, []string{"A paragraph of prose.", "then a bullet"}},
		{[]string{"", ""}, nil},
	}
	for _, tt := range tests {
		if got := bulletItems(tt.lines); !slices.Equal(got, tt.want) {
			t.Errorf("bulletItems(%q) = %q, want %q", tt.lines, got, tt.want)
		}
	}
}

func TestSplitMarkdown(t *testing.T) {
	doc := "---\ntags: [x]\n---\n# Title\ntags: a, b\nIntro.\n## Summary\nS.\n```\n## not a heading\n```\n## Open threads\n- t\n"
	title, sections := splitMarkdown(doc)
	if title != "Title" || len(sections) != 3 {
		t.Fatalf("title %q, sections %+v", title, sections)
	}
	if !slices.Equal(sections[0].lines, []string{"Intro."}) || sections[1].name != "Summary" ||
		!slices.Equal(sections[1].lines, []string{"S.", "```", "## not a heading", "```"}) || sections[2].name != "Open threads" {
		t.Errorf("sections %+v", sections)
	}
}
