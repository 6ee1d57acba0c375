package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/store"
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

// capture runs gencorpus with args and returns what it printed.
func capture(t *testing.T, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "stdout")
	fh, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = fh
	err = run(args)
	os.Stdout = stdout
	fh.Close()
	if err != nil {
		t.Fatalf("gencorpus %v: %v", args, err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSmallTranscripts: -mode small writes every file near the size asked for, round-robin over the
// projects, each line a Claude Code record of its project; -mode append adds a lesson to one.
func TestSmallTranscripts(t *testing.T) {
	dir := t.TempDir()
	var m smallManifest
	if err := json.Unmarshal(capture(t, "-mode", "small", "-dir", dir, "-projects", "3", "-sessions", "12", "-file-size", "5KB"), &m); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "claude", "*", "*.jsonl"))
	if len(files) != 12 || m.FileCount != 12 || m.Lines == 0 {
		t.Fatalf("%d files, manifest %+v; want 12", len(files), m)
	}
	var total int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += int64(len(data))
		if n := len(data); n < 2<<10 || n > 8<<10 {
			t.Errorf("%s: %d bytes, want about 5 KB", f, n)
		}
		project := "/home/bench/p" + strings.TrimPrefix(filepath.Base(filepath.Dir(f)), "-home-bench-p")
		for line := range strings.Lines(string(data)) {
			var r struct{ Cwd, SessionID, Type string }
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.Cwd != project || r.SessionID == "" {
				t.Fatalf("%s: record %q (%v), want one of %s", f, line, err, project)
			}
		}
	}
	if total != m.Bytes {
		t.Errorf("files hold %d bytes, manifest says %d", total, m.Bytes)
	}
	before, _ := os.ReadFile(files[0])
	capture(t, "-mode", "append", "-file", files[0], "-turn", "7")
	after, _ := os.ReadFile(files[0])
	if !strings.HasPrefix(string(after), string(before)) || !strings.Contains(string(after[len(before):]), lesson(7)) {
		t.Errorf("append did not add lesson 7 after the file's records")
	}
}

// TestOneLineTranscripts: -one-line writes transcripts of a single user record each.
func TestOneLineTranscripts(t *testing.T) {
	dir := t.TempDir()
	var m smallManifest
	if err := json.Unmarshal(capture(t, "-mode", "small", "-one-line", "-dir", dir, "-projects", "1", "-sessions", "20"), &m); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "claude", "*", "*.jsonl"))
	if len(files) != 20 || m.Lines != 20 {
		t.Fatalf("%d files, %d lines; want 20 of one line each", len(files), m.Lines)
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		var r struct{ Type, Cwd string }
		if err := json.Unmarshal(data, &r); err != nil || r.Type != "user" || r.Cwd != "/home/bench/p1" {
			t.Fatalf("%s: %q (%v)", f, data, err)
		}
	}
}

func TestLessonsDiffer(t *testing.T) {
	seen := map[string]int{}
	for k := range 1000 {
		l := lesson(k)
		if j, ok := seen[l]; ok {
			t.Fatalf("lesson %d repeats lesson %d: %q", k, j, l)
		}
		seen[l] = k
	}
}

// TestMemoryStore: -mode store writes n memories the store reads back, and the index dreamd
// derives from them; with -similar, in clusters of rewordings.
func TestMemoryStore(t *testing.T) {
	for _, similar := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "memory")
		args := []string{"-mode", "store", "-store", dir, "-memories", "60"}
		if similar {
			args = append(args, "-similar")
		}
		var st storeStats
		if err := json.Unmarshal(capture(t, args...), &st); err != nil {
			t.Fatal(err)
		}
		s, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Memories) != 60 || st.Memories != 60 {
			t.Errorf("similar=%v: %d memories read back, stats %+v; want 60", similar, len(s.Memories), st)
		}
		if got := strings.Count(string(s.Index), "\n- ["); got != 60 {
			t.Errorf("similar=%v: MEMORY.md lists %d memories, want 60", similar, got)
		}
		for _, m := range s.Memories {
			if len(m.Body) > 4096 {
				t.Errorf("%s: body of %d bytes, over the format's cap", m.Name, len(m.Body))
			}
		}
	}
}
