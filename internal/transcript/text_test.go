package transcript

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"  short  ", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"one two three four five", 15, "one two t" + clipMark},
		{"héhéhéhéhé", 9, "hé" + clipMark},
		{"bad \xff utf8", 20, "bad  utf8"},
	}
	for _, tt := range tests {
		got := clip(tt.in, tt.max)
		if got != tt.want || len(got) > tt.max || !utf8.ValidString(got) {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestToolLine(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"Bash", `{"command":"make lint","description":"Lint"}`, "Bash: make lint"},
		{"Edit", `{"file_path":"/a/b.go","old_string":"x","new_string":"y"}`, "Edit: /a/b.go"},
		{"shell", `{"command":["bash","-lc","pnpm test"],"workdir":"/x"}`, "shell: pnpm test"},
		{"shell", `{"command":["git","status"]}`, "shell: git status"},
		{"Grep", `{"pattern":"TODO\n","path":"src"}`, "Grep: src"},
		{"refresh", `{}`, "refresh"},
		{"custom", `{"a":1}`, `custom: {"a":1}`},
		{"Task", `{"description":"multi\nline\ttask"}`, "Task: multi line task"},
		{"raw", `"free text input"`, "raw: free text input"},
	}
	for _, tt := range tests {
		if got := toolLine(tt.name, toolArg(tt.input)); got != tt.want {
			t.Errorf("toolLine(%s, %s) = %q, want %q", tt.name, tt.input, got, tt.want)
		}
	}
}

func TestStripBlocks(t *testing.T) {
	tests := []struct{ in, tag, want string }{
		{"a<x>b</x>c<x y=1>d</x>e", "x", "ace"},
		{"a<xy>b</xy>c", "x", "a<xy>b</xy>c"},
		{"a<x>unclosed", "x", "a"},
		{"no tags", "x", "no tags"},
	}
	for _, tt := range tests {
		if got := stripBlocks(tt.in, tt.tag); got != tt.want {
			t.Errorf("stripBlocks(%q, %q) = %q, want %q", tt.in, tt.tag, got, tt.want)
		}
	}
}

func TestPartsText(t *testing.T) {
	tests := []struct{ content, want string }{
		{`"plain"`, "plain"},
		{`["a", {"type":"text","text":"b"}, {"type":"image","source":{}}, {"type":"input_text","text":"c"}, {"text":"d"}]`, "a\nb\nc\nd"},
		{`null`, ""},
		{`{"text":"object"}`, ""},
	}
	for _, tt := range tests {
		if got := partsText(tt.content, 100); got != tt.want {
			t.Errorf("partsText(%s) = %q, want %q", tt.content, got, tt.want)
		}
	}
}

func TestParseTime(t *testing.T) {
	want := time.Date(2026, 5, 15, 8, 0, 0, 0, time.UTC)
	for _, in := range []string{`"2026-05-15T08:00:00Z"`, `"2026-05-15T08:00:00.000Z"`, `1778832000`, `1778832000000`} {
		if got := parseTime(gjson.Parse(in)); !got.Equal(want) {
			t.Errorf("parseTime(%s) = %v, want %v", in, got, want)
		}
	}
	for _, in := range []string{`"yesterday"`, `-5`, `null`, `{}`} {
		if got := parseTime(gjson.Parse(in)); !got.IsZero() {
			t.Errorf("parseTime(%s) = %v, want zero", in, got)
		}
	}
}

func TestCollapseBlankLines(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\nb", "a\nb"},
		{"a\n\nb", "a\n\nb"},
		{"a" + strings.Repeat("\n", 293) + "b", "a\n\nb"},
		{"a\n  \n\t\n\nb\n\n\n\nc", "a\n\nb\n\nc"},
	}
	for _, tt := range tests {
		if got := collapseBlankLines(tt.in); got != tt.want {
			t.Errorf("collapseBlankLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTrimBlankLines(t *testing.T) {
	for in, want := range map[string]string{
		"  fix the login  ": "fix the login",
		"\n   \n    The code is public\n        and has a README  \n\n": "    The code is public\n        and has a README",
		"Use pnpm.\n  - always\n": "Use pnpm.\n  - always",
		"   ":                     "",
	} {
		if got := trimBlankLines(in); got != want {
			t.Errorf("trimBlankLines(%q) = %q, want %q", in, got, want)
		}
	}
}
