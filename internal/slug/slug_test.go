package slug

import (
	"math"
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"deploy-with-deploy-sh", true},
		{"a", true},
		{"a1-b2", true},
		{"", false},
		{"-a", false},
		{"a-", false},
		{"a--b", false},
		{"A", false},
		{"../etc", false},
		{"a/b", false},
		{"a.md", false},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
	}
	for _, tt := range tests {
		if got := Valid(tt.name); got != tt.want {
			t.Errorf("Valid(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestMake(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Deploy with ./deploy.sh", "deploy-with-deploy-sh"},
		{"  Always run `make lint` first!  ", "always-run-make-lint-first"},
		{"../../etc/passwd", "etc-passwd"},
		{"日本語", ""},
		{strings.Repeat("word ", 20), strings.TrimSuffix(strings.Repeat("word-", 12), "-")},
	}
	for _, tt := range tests {
		got := Make(tt.in)
		if got != tt.want {
			t.Errorf("Make(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got != "" && !Valid(got) {
			t.Errorf("Make(%q) = %q is not valid", tt.in, got)
		}
	}
}

// TestProject: the folder names Claude Code 2.1.332 gives project paths. Its own function (read
// from its bundle, run under node) gave the names below; run in a temporary home, Claude Code made
// the folders "…-src-caf--app" for a café-app project and "…-de-78je1h" for a 265-byte path.
func TestProject(t *testing.T) {
	deep := "/home/ana/src/" + strings.Repeat("deep-project-folder-", 12) + "/x🙂y"
	tests := []struct{ path, want string }{
		{"/home/ana/shop", "-home-ana-shop"},
		{"/srv/my_app.v2", "-srv-my-app-v2"},
		{"/home/ana/src/café-app", "-home-ana-src-caf--app"}, // one dash per UTF-16 unit, not per byte
		{"/home/ana/x🙂y", "-home-ana-x--y"},                  // an emoji is two units
		{deep, "-home-ana-src" + strings.Repeat("-deep-project-folder", 9) + "-deep-p-jxhc38"},
		{"/home/ana/" + strings.Repeat("é", 250), "-home-ana" + strings.Repeat("-", 191) + "-a8qzdw"},
		{`C:\Users\ana\shop`, "C--Users-ana-shop"},
		{`c:\Users\ana\shop`, "C--Users-ana-shop"}, // the drive letter as Claude Code writes it
	}
	for _, tt := range tests {
		if got := Project(tt.path); got != tt.want {
			t.Errorf("Project(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// Math.abs(-2147483648) is 2147483648 in JavaScript; Go's negation of an int32 would wrap.
func TestClaudeHashSign(t *testing.T) {
	if got := abs(math.MinInt32); got != 1<<31 {
		t.Errorf("abs(MinInt32) = %d", got)
	}
	if got := claudeHash([]uint16{'a', 'b'}); got != 'a'*31+'b' {
		t.Errorf("claudeHash(ab) = %d", got)
	}
}

// TestStateName: dreamd's own names for paths keep their old form for short paths and stay a
// valid file name for deep ones.
func TestStateName(t *testing.T) {
	if got := StateName("/home/ana/.claude/projects/-home-ana-café/memory"); got != "-home-ana--claude-projects--home-ana-caf---memory" {
		t.Errorf("StateName = %q: an existing state folder must keep its name", got)
	}
	deep := "/home/ana/" + strings.Repeat("très-long-dossier/", 30)
	a, b := StateName(deep), StateName(deep+"x")
	if len(a) > MaxStateName || len(b) > MaxStateName || a == b {
		t.Errorf("deep names %q (%d) and %q (%d): must be short and distinct", a, len(a), b, len(b))
	}
}

// TestNamesOfMemories: what the store accepts as a memory's name, and what Make makes of text.
func TestNamesOfMemories(t *testing.T) {
	tests := []struct {
		in    string
		valid bool
		slug  string
	}{
		{"deploy-steps", true, "deploy-steps"},
		{"Deploy Steps!", false, "deploy-steps"},
		{"-x", false, "x"},
		{strings.Repeat("a", 65), false, ""},
		{"", false, ""},
	}
	for _, tt := range tests {
		if got := Valid(tt.in); got != tt.valid {
			t.Errorf("Valid(%q) = %v", tt.in, got)
		}
		got := Make(tt.in)
		if tt.slug != "" && got != tt.slug {
			t.Errorf("Make(%q) = %q, want %q", tt.in, got, tt.slug)
		}
		if got != "" && !Valid(got) {
			t.Errorf("Make(%q) = %q is not a valid name", tt.in, got)
		}
	}
}

func FuzzMake(f *testing.F) {
	f.Add("Deploy with ./deploy.sh")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		if got := Make(s); got != "" && !Valid(got) {
			t.Fatalf("Make(%q) = %q is not valid", s, got)
		}
	})
}

func TestCut(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"deploy-with-deploy-sh", 64, "deploy-with-deploy-sh"},
		{"deploy-with-deploy-sh", 12, "deploy-with"},
		{"deploy-with-deploy-sh", 6, "deploy"},
		{"abcdefgh", 4, "abcd"},
	}
	for _, tt := range tests {
		if got := Cut(tt.in, tt.max); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
