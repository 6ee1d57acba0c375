package corpus

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/golden"
)

// record is what the shape checks read of each line.
type record struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	UUID        string          `json:"uuid"`
	SessionID   string          `json:"sessionId"`
	Cwd         string          `json:"cwd"`
	Timestamp   string          `json:"timestamp"`
	IsSidechain bool            `json:"isSidechain"`
	Message     json.RawMessage `json:"message"`
}

// shape counts what a corpus holds, checking every record on the way.
type shape struct {
	kinds        map[string]int
	repeated     int // records written twice with the same uuid
	sidechain    int
	toolResults  int
	bigLines     int // lines of 100 KB or more
	userContents []string
}

func readShape(t *testing.T, f File) shape {
	t.Helper()
	fh, err := os.Open(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sh := shape{kinds: map[string]int{}}
	seen := map[string]bool{}
	last := ""
	r := bufio.NewReaderSize(fh, 1<<16)
	var bytesRead, lines int64
	for no := 1; ; no++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 {
			break
		}
		if err != nil {
			t.Fatalf("%s:%d: last line not terminated", f.Path, no)
		}
		bytesRead += int64(len(line))
		lines++
		if len(line) >= 100<<10 {
			sh.bigLines++
		}
		var rec record
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("%s:%d: %v", f.Path, no, err)
		}
		kind := rec.Type
		if rec.Subtype != "" {
			kind += "/" + rec.Subtype
		}
		sh.kinds[kind]++
		if rec.UUID != "" && rec.Type != "summary" {
			if seen[rec.UUID] {
				sh.repeated++
			}
			seen[rec.UUID] = true
		}
		if rec.IsSidechain {
			sh.sidechain++
		}
		if bytes.Contains(rec.Message, []byte(`"type":"tool_result"`)) {
			sh.toolResults++
		}
		switch rec.Type {
		case "user", "assistant", "system":
			if rec.Cwd != f.Project || rec.SessionID != f.Session {
				t.Fatalf("%s:%d: cwd %q session %q, want %q %q", f.Path, no, rec.Cwd, rec.SessionID, f.Project, f.Session)
			}
			if rec.Timestamp < last {
				t.Fatalf("%s:%d: timestamp %s before %s", f.Path, no, rec.Timestamp, last)
			}
			last = rec.Timestamp
		}
		if rec.Type == "user" {
			var msg struct{ Content any }
			if err := json.Unmarshal(rec.Message, &msg); err != nil {
				t.Fatalf("%s:%d: message: %v", f.Path, no, err)
			}
			if s, ok := msg.Content.(string); ok {
				sh.userContents = append(sh.userContents, s)
			}
		}
	}
	if bytesRead != f.Bytes || lines != f.Lines {
		t.Errorf("%s: manifest says %d bytes %d lines, file has %d and %d", f.Path, f.Bytes, f.Lines, bytesRead, lines)
	}
	return sh
}

func TestGenerateShape(t *testing.T) {
	tests := []struct {
		name  string
		opt   Options
		check func(t *testing.T, all shape)
	}{
		{
			name: "many small sessions",
			opt:  Options{Projects: 3, Sessions: 12, TotalBytes: 3 << 20, Seed: 1, Lessons: 7},
			check: func(t *testing.T, all shape) {
				for _, kind := range []string{"user", "assistant", "file-history-snapshot", "summary"} {
					if all.kinds[kind] == 0 {
						t.Errorf("no %s records: %v", kind, all.kinds)
					}
				}
				if all.repeated == 0 || all.sidechain == 0 {
					t.Errorf("want streamed repeats and sidechain records, got %d and %d", all.repeated, all.sidechain)
				}
			},
		},
		{
			name: "one long session",
			opt:  Options{Projects: 1, Sessions: 1, TotalBytes: 8 << 20, Seed: 2, Lessons: 2},
			check: func(t *testing.T, all shape) {
				if all.kinds["system/compact_boundary"] == 0 {
					t.Errorf("no compact_boundary in 8 MB: %v", all.kinds)
				}
				if all.bigLines == 0 {
					t.Errorf("no line of 100 KB or more in 8 MB")
				}
				if all.kinds["user"] < 2*all.toolResults/3 {
					t.Errorf("tool results %d, user records %d: most user records should be tool results", all.toolResults, all.kinds["user"])
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Generate(t.TempDir(), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Files) != tt.opt.Sessions || len(m.Lessons) != tt.opt.Lessons {
				t.Fatalf("%d files and %d lessons, want %d and %d", len(m.Files), len(m.Lessons), tt.opt.Sessions, tt.opt.Lessons)
			}
			if lo, hi := tt.opt.TotalBytes*9/10, tt.opt.TotalBytes*12/10; m.Bytes < lo || m.Bytes > hi {
				t.Errorf("corpus of %d bytes, want about %d", m.Bytes, tt.opt.TotalBytes)
			}
			all := shape{kinds: map[string]int{}}
			contents := map[string][]string{}
			for _, f := range m.Files {
				if want := filepath.Join(m.Source, filepath.Base(filepath.Dir(f.Path)), f.Session+".jsonl"); f.Path != want {
					t.Errorf("file at %s, want %s", f.Path, want)
				}
				sh := readShape(t, f)
				for k, n := range sh.kinds {
					all.kinds[k] += n
				}
				all.repeated += sh.repeated
				all.sidechain += sh.sidechain
				all.toolResults += sh.toolResults
				all.bigLines += sh.bigLines
				contents[f.Path] = sh.userContents
			}
			checkLessons(t, m, contents)
			tt.check(t, all)
		})
	}
}

// checkLessons checks every planted lesson is a user turn of its file, and its marker is found
// nowhere else in the corpus.
func checkLessons(t *testing.T, m Manifest, contents map[string][]string) {
	t.Helper()
	for _, l := range m.Lessons {
		names := regexp.MustCompile(`\b` + filepath.Base(l.Project) + `\b`)
		if !strings.Contains(l.Text, l.Marker) || !names.MatchString(l.Text) {
			t.Errorf("lesson %q: marker %q or project %s not in its text", l.Text, l.Marker, l.Project)
		}
		found := 0
		for _, c := range contents[l.Path] {
			if c == l.Text {
				found++
			}
		}
		if found != 1 {
			t.Errorf("lesson %q is %d user turns of %s, want 1", l.Text, found, l.Path)
		}
		for _, f := range m.Files {
			data, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			n := bytes.Count(data, []byte(l.Marker))
			if want := map[bool]int{true: 1, false: 0}[f.Path == l.Path]; n != want {
				t.Errorf("marker %q occurs %d times in %s, want %d", l.Marker, n, f.Path, want)
			}
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	opt := Options{Projects: 2, Sessions: 5, TotalBytes: 1 << 20, Seed: 42, Lessons: 3}
	sums := func(seed int64) (Manifest, []string) {
		o := opt
		o.Seed = seed
		m, err := Generate(t.TempDir(), o)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range m.Files {
			data, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(m.Source, f.Path)
			out = append(out, rel+" "+sha(data))
		}
		return m, out
	}
	m1, a := sums(42)
	m2, b := sums(42)
	_, c := sums(43)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("same seed, different corpora:\n%v\n%v", a, b)
	}
	if strings.Join(a, "\n") == strings.Join(c, "\n") {
		t.Errorf("seeds 42 and 43 wrote the same corpus")
	}
	for i := range m1.Lessons {
		if m1.Lessons[i].Text != m2.Lessons[i].Text || m1.Lessons[i].Session != m2.Lessons[i].Session {
			t.Errorf("lesson %d differs: %+v vs %+v", i, m1.Lessons[i], m2.Lessons[i])
		}
	}
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return string(appendHex(nil, sum[:]))
}

func appendHex(b, data []byte) []byte {
	for _, c := range data {
		b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return b
}

// TestGolden pins a small session byte for byte, so a change of shape shows up in review.
func TestGolden(t *testing.T) {
	m, err := Generate(t.TempDir(), Options{Projects: 1, Sessions: 1, TotalBytes: 24 << 10, Seed: 7, Lessons: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(m.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "session.golden.jsonl"), got)
}

func TestGenerateRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Projects: 0, Sessions: 1, TotalBytes: 1},
		{Projects: 1, Sessions: 0, TotalBytes: 1},
		{Projects: 1, Sessions: 1, TotalBytes: 0},
		{Projects: 1, Sessions: 1, TotalBytes: 1, Lessons: -1},
	} {
		if _, err := Generate(t.TempDir(), o); err == nil {
			t.Errorf("Generate(%+v) succeeded, want an error", o)
		}
	}
}
