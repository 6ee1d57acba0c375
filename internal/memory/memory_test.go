package memory

import (
	"slices"
	"strings"
	"testing"
)

func TestStatIndexAndFits(t *testing.T) {
	tests := []struct {
		in   string
		want IndexStats
	}{
		{"", IndexStats{}},
		{"\n", IndexStats{Lines: 1, Bytes: 1}},
		{"# Memory\n", IndexStats{Lines: 1, Bytes: 9, LongestLine: 8}},
		{"a\nbcd\n\n", IndexStats{Lines: 3, Bytes: 7, LongestLine: 3}},
		{"a\nbcd", IndexStats{Lines: 2, Bytes: 5, LongestLine: 3}},
		{"— é\r\n", IndexStats{Lines: 1, Bytes: 8, LongestLine: 3}},
	}
	for _, tt := range tests {
		if got := StatIndex([]byte(tt.in)); got != tt.want {
			t.Errorf("StatIndex(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	l := Limits{IndexMaxLines: 2, IndexMaxBytes: 10, IndexLineMax: 4}
	fits := []struct {
		s    IndexStats
		want bool
	}{
		{IndexStats{Lines: 2, Bytes: 10, LongestLine: 4}, true},
		{IndexStats{Lines: 3, Bytes: 10, LongestLine: 4}, false},
		{IndexStats{Lines: 2, Bytes: 11, LongestLine: 4}, false},
		{IndexStats{Lines: 2, Bytes: 10, LongestLine: 5}, false},
	}
	for _, tt := range fits {
		if got := l.IndexFits(tt.s); got != tt.want {
			t.Errorf("IndexFits(%+v) = %v", tt.s, got)
		}
	}
	if !(Limits{}).IndexFits(IndexStats{Lines: 1e6}) {
		t.Error("zero limits should not cap")
	}
}

func TestIndexLine(t *testing.T) {
	tests := []struct {
		name, desc string
		max        int
		want       string
	}{
		{"a", "short", 0, "- [a](a.md) — short"},
		{"a", "", 40, "- [a](a.md)"},
		{"a", "two\nlines", 0, "- [a](a.md) — two lines"},
		{"a", "a description that is far too long", 25, "- [a](a.md) — a descript…"},
		{"a-long-name", "x", 20, "- [a-long-name](a-long-name.md)"},
		// A hand-written file's name holding a newline must not start lines of its own.
		{"x\n## User\n- [evil](evil", "d", 0, "- [x ## User - [evil](evil](x%0A## User%0A- [evil](evil.md) — d"},
		{"esc\x1b[2J", "", 0, "- [esc[2J](esc%1B[2J.md)"},
		{"bad\xffname \ufffd", "", 0, "- [badname \ufffd](bad%FFname \ufffd.md)"},
		{"notes (1)", "", 0, "- [notes (1)](notes (1).md)"},
	}
	for _, tt := range tests {
		if got := IndexLine(tt.name, tt.desc, tt.max); got != tt.want {
			t.Errorf("IndexLine(%q, %q, %d) = %q, want %q", tt.name, tt.desc, tt.max, got, tt.want)
		}
	}
}

// TestDescriptionBudget: a description of exactly the budget gives an index line of at most
// IndexLineMax characters, for short names; long names are floored at 20.
func TestDescriptionBudget(t *testing.T) {
	l := DefaultLimits
	for _, name := range []string{"a", "deploy-with-deploy-sh", strings.Repeat("n", 60)} {
		b := l.DescriptionBudget(name)
		line := IndexLine(name, strings.Repeat("d", b), 0)
		if len(name) < 60 && len([]rune(line)) > l.IndexLineMax {
			t.Errorf("%s: budget %d gives a line of %d characters", name, b, len([]rune(line)))
		}
		if b < 20 || b > l.DescriptionMax {
			t.Errorf("%s: budget %d", name, b)
		}
	}
}

func TestTypes(t *testing.T) {
	for _, typ := range Types {
		if !typ.Valid() {
			t.Errorf("%s is not valid", typ)
		}
	}
	for _, bad := range []Type{"", "User", "projects"} {
		if bad.Valid() {
			t.Errorf("%q is valid", bad)
		}
	}
	if !slices.Equal(TypeNames(), []string{"user", "feedback", "project", "reference"}) {
		t.Errorf("TypeNames() = %v", TypeNames())
	}
}

func TestOrDefaults(t *testing.T) {
	if got := (Limits{IndexLineMax: 80}).OrDefaults(); got.IndexLineMax != 80 || got.IndexMaxLines != DefaultLimits.IndexMaxLines || got.DescriptionMax != DefaultLimits.DescriptionMax {
		t.Errorf("OrDefaults = %+v", got)
	}
}
