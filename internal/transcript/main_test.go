package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/testutil/golden"
)

// fixtures holds third-party transcript samples (testdata/thirdparty/README.md at the
// repository's root says where they come from).
var fixtures = filepath.Join("..", "..", "testdata", "thirdparty", "claude-code-log")

// fixedTime is the modification time test copies get, so mtime fallbacks are reproducible.
var fixedTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) {
	// aider and markdown times are local: pin the zone so goldens hold everywhere.
	time.Local = time.UTC
	os.Exit(m.Run())
}

// copyFile copies src to dir/rel with a fixed modification time and returns it as a File.
func copyFile(t testing.TB, kind, src, dir, rel, project string) File {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, kind, filepath.Join(dir, rel), data, project)
}

// writeFile writes data to path with a fixed modification time and returns it as a File.
func writeFile(t testing.TB, kind, path string, data []byte, project string) File {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fixedTime, fixedTime); err != nil {
		t.Fatal(err)
	}
	return File{Kind: kind, Path: path, Size: int64(len(data)), ModTime: fixedTime, Project: project}
}

func mustRead(t testing.TB, f File, from Cursor) Reading {
	t.Helper()
	a, err := New(f.Kind)
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Read(f, from)
	if err != nil {
		t.Fatalf("Read(%s): %v", f.Path, err)
	}
	return r
}

// render prints a reading for golden comparison, with root replaced by $ROOT.
func render(r Reading, root string) string {
	var b strings.Builder
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.Format("2006-01-02 15:04:05")
	}
	for _, s := range r.Sessions {
		fmt.Fprintf(&b, "session %s %s\n", s.Kind, s.ID)
		fmt.Fprintf(&b, "  project: %s\n  path: %s\n", s.Project, s.Path)
		fmt.Fprintf(&b, "  time: %s .. %s\n", stamp(s.Started), stamp(s.Ended))
		for _, t := range s.Turns {
			role := string(t.Role)
			if t.IsError {
				role += " error"
			}
			fmt.Fprintf(&b, "--- %s %s\n%s\n", role, stamp(t.Time), t.Text)
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	c := r.Cursor
	fmt.Fprintf(&b, "cursor: size=%d offset=%d lines=%d head_len=%d session=%q project=%q\n",
		c.Size, c.Offset, c.Lines, c.HeadLen, c.Session, c.Project)
	return strings.ReplaceAll(b.String(), root, "$ROOT")
}

// checkGolden compares got with testdata/golden/name, or rewrites it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), []byte(got))
}
