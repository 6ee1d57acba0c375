package store

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/memory"
)

func indexMemories() []*Memory {
	return []*Memory{
		{Name: "release-freeze", Type: "project", Description: "No deploys on Fridays after 14:00"},
		{Name: "ana-prefers-tabs", Type: "user", Description: "Ana prefers tabs in Go and spaces in YAML"},
		{Name: "deploy-with-deploy-sh", Type: "project", Description: "Deploys go through ./deploy.sh, which refuses to run on a dirty git tree"},
		{Name: "grafana-dashboards", Type: "reference", Description: "Latency dashboards live at grafana.internal/d/api"},
		{Name: "untyped", Type: "", Description: "A memory without a type goes under Project"},
		{Name: "no-mocks-in-db-tests", Type: "feedback", Description: "Integration tests hit a real database,\n  not mocks"},
	}
}

func TestRenderIndex(t *testing.T) {
	checkGolden(t, "index.golden", RenderIndex(indexMemories()))
	if got := string(RenderIndex(nil)); got != "# Memory\n" {
		t.Errorf("empty index = %q", got)
	}
	checkGolden(t, "index-within-60.golden", RenderIndexWithin(indexMemories(), 60))
}

func TestIndexLine(t *testing.T) {
	m := &Memory{Name: "abc", Description: "one two  three\tfour"}
	full := "- [abc](abc.md) — one two three four" // 36 characters
	tests := []struct {
		lineMax int
		want    string
	}{
		{0, full},
		{36, full},
		{35, "- [abc](abc.md) — one two three fo…"},
		{29, "- [abc](abc.md) — one two th…"},
		{28, "- [abc](abc.md) — one two t…"},
		{27, "- [abc](abc.md) — one two…"}, // no space left before the ellipsis
		{20, "- [abc](abc.md) — o…"},
		{19, "- [abc](abc.md)"},
		{5, "- [abc](abc.md)"},
	}
	for _, tt := range tests {
		got := IndexLine(m, tt.lineMax)
		if got != tt.want {
			t.Errorf("IndexLine(%d) = %q, want %q", tt.lineMax, got, tt.want)
		}
		if tt.lineMax >= 20 && utf8.RuneCountInString(got) > tt.lineMax {
			t.Errorf("IndexLine(%d) is %d characters", tt.lineMax, utf8.RuneCountInString(got))
		}
	}
	if got := IndexLine(&Memory{Name: "bare"}, 100); got != "- [bare](bare.md)" {
		t.Errorf("no description: %q", got)
	}
}

func TestRenderedIndexFits(t *testing.T) {
	idx := RenderIndexWithin(indexMemories(), memory.DefaultLimits.IndexLineMax)
	if !memory.DefaultLimits.IndexFits(memory.StatIndex(idx)) {
		t.Errorf("rendered index does not fit: %+v", memory.StatIndex(idx))
	}
}

func TestIndexExtras(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"derived index", string(RenderIndex(indexMemories())), ""},
		{"empty", "", ""},
		{"claude style entries", "# Memory Index\n\n- [Tabs](ana-prefers-tabs.md) - tabs\n* [x](x.md)\n", ""},
		{
			"notes among entries",
			"# Memory\n\nRemember: staging resets nightly.\n\n## User\n- [a](a.md) — x\nSee also [docs](https://x.org/a.md).\n\n\n- plain bullet\n",
			"Remember: staging resets nightly.\n\nSee also [docs](https://x.org/a.md).\n\n- plain bullet\n",
		},
		{"other heading with content", "## Notes\r\nkeep me\r\n", "## Notes\nkeep me\n"},
		{"headings only", "# Memory\n## Notes\n\n### More\n", ""},
		{"link to a nested file is content", "- [a](dir/a.md) — x\n", "- [a](dir/a.md) — x\n"},
		{"names a person chose", string(RenderIndex([]*Memory{
			{Name: "notes(1)", Description: "Hand note", Type: "user"},
			{Name: "Orders DB", Description: "MySQL (until May)", Type: "project"},
			{Name: "a]b", Description: "x](y.md) z", Type: "project"},
		})), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := IndexExtras([]byte(tt.in))
			if got != tt.want {
				t.Errorf("IndexExtras =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func FuzzIndexExtras(f *testing.F) {
	f.Add(string(RenderIndex(indexMemories())))
	f.Add("# Memory\n\nnote\n\n- [a](a.md) — x\n## Notes\n")
	f.Add("\r\n\r\n- [x](y.md)\r\ntext\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		got := IndexExtras([]byte(s))
		if again := IndexExtras([]byte(got)); again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, got, again)
		}
		if got != "" && !strings.HasSuffix(got, "\n") {
			t.Fatalf("%q: extras %q do not end in a newline", s, got)
		}
		for line := range strings.SplitSeq(got, "\n") {
			if indexEntry.MatchString(line) {
				t.Fatalf("%q: extras keep an index entry %q", s, line)
			}
		}
	})
}
