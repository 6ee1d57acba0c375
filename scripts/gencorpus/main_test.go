package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"400MB", 400 << 20, true},
		{"2G", 2 << 30, true},
		{"2gb", 2 << 30, true},
		{"512k", 512 << 10, true},
		{"1.5MB", 3 << 19, true},
		{"1000", 1000, true},
		{"10 B", 10, true},
		{"", 0, false},
		{"MB", 0, false},
		{"-1MB", 0, false},
		{"ten", 0, false},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"400MB", "2G", "1e3", "0.5k", "NaN", "Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := parseSize(s); err == nil && n < 0 {
			t.Fatalf("parseSize(%q) = %d: negative", s, n)
		}
	})
}

func TestRunWritesCorpusAndStores(t *testing.T) {
	dir, root := t.TempDir(), t.TempDir()
	out := filepath.Join(t.TempDir(), "manifest.json")
	stdout := os.Stdout
	fh, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = fh
	err = run([]string{"-dir", dir, "-projects", "2", "-sessions", "3", "-size", "256KB", "-lessons", "2", "-memories", "4", "-store-root", root})
	os.Stdout = stdout
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Files   []struct{ Path string }
		Lessons []struct{ Marker string }
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("manifest is not JSON: %v\n%s", err, data)
	}
	if len(m.Files) != 3 || len(m.Lessons) != 2 {
		t.Errorf("manifest lists %d files and %d lessons, want 3 and 2", len(m.Files), len(m.Lessons))
	}
	for _, p := range []string{"-home-bench-p1", "-home-bench-p2"} {
		mems, _ := filepath.Glob(filepath.Join(root, p, "memory", "*.md"))
		if len(mems) != 5 {
			t.Errorf("%s store holds %d files, want 4 memories and MEMORY.md", p, len(mems))
		}
	}
}
