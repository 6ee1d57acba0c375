package corpus

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/memory"
)

func TestWriteStore(t *testing.T) {
	for _, n := range []int{0, 1, 40} {
		dir := t.TempDir()
		total, err := WriteStore(dir, n, 3)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != n+1 {
			t.Fatalf("WriteStore(%d) wrote %d files, want %d and MEMORY.md", n, len(entries), n)
		}
		var sum int64
		name := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			sum += int64(len(data))
			if e.Name() == "MEMORY.md" {
				checkIndex(t, string(data), n)
				continue
			}
			stem := strings.TrimSuffix(e.Name(), ".md")
			text := string(data)
			if !name.MatchString(stem) || len(stem) > 64 {
				t.Errorf("memory name %q is not a slug of at most 64 characters", stem)
			}
			fm, body, ok := strings.Cut(strings.TrimPrefix(text, "---\n"), "---\n")
			if !ok || !strings.HasPrefix(text, "---\n") || !strings.Contains(body, "**Why:**") {
				t.Fatalf("%s: want front matter and a body:\n%s", e.Name(), text)
			}
			if !strings.Contains(fm, "name: "+stem+"\n") || !regexp.MustCompile(`(?m)^type: (user|feedback|project|reference)$`).MatchString(fm) {
				t.Errorf("%s: front matter without its name or a valid type:\n%s", e.Name(), fm)
			}
		}
		if sum != total {
			t.Errorf("WriteStore(%d) reported %d bytes, wrote %d", n, total, sum)
		}
	}
}

// checkIndex checks MEMORY.md lists n memories, by type in the index order, each line within 150
// characters.
func checkIndex(t *testing.T, index string, n int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(index, "\n"), "\n")
	if lines[0] != "# Memory" {
		t.Errorf("index starts with %q", lines[0])
	}
	entries := 0
	var sections []string
	for _, l := range lines {
		if utf8.RuneCountInString(l) > 150 {
			t.Errorf("index line of %d characters: %s", utf8.RuneCountInString(l), l)
		}
		if typ, ok := strings.CutPrefix(l, "## "); ok {
			sections = append(sections, strings.ToLower(typ))
		}
		if strings.HasPrefix(l, "- [") {
			entries++
		}
	}
	if entries != n {
		t.Errorf("index lists %d memories, want %d", entries, n)
	}
	sorted := slices.SortedFunc(slices.Values(sections), func(a, b string) int {
		return slices.Index(memory.Types, memory.Type(a)) - slices.Index(memory.Types, memory.Type(b))
	})
	if !slices.Equal(sections, sorted) {
		t.Errorf("sections %v not in type order", sections)
	}
}
