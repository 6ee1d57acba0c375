package slug

import (
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

func TestProject(t *testing.T) {
	if got := Project("/home/ana/shop"); got != "-home-ana-shop" {
		t.Errorf("Project = %q", got)
	}
	if got := Project("/srv/my_app.v2"); got != "-srv-my-app-v2" {
		t.Errorf("Project = %q", got)
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
