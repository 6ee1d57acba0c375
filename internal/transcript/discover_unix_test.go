//go:build unix

package transcript

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStatAtAgreesWithLstat: a stat relative to the directory says what os.Lstat by path says,
// of regular files, symlinks and FIFOs, and fails with the same error.
func TestStatAtAgreesWithLstat(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, "chat", filepath.Join(dir, "a.jsonl"), []byte("one line\n"), "")
	os.WriteFile(filepath.Join(dir, "b.jsonl"), nil, 0o644)
	if err := os.Chtimes(filepath.Join(dir, "b.jsonl"), time.Time{}, time.Unix(1e9, 123456789)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.jsonl", filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "broken.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.jsonl"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	names := []string{"a.jsonl", "b.jsonl", "link.jsonl", "broken.jsonl", "fifo.jsonl", "gone.jsonl"}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, stat := range []struct {
		name string
		at   func(*os.File, string, []found, func(int, error))
	}{{"statAt", statAt}, {"statByPath", func(_ *os.File, dir string, files []found, failed func(int, error)) { statByPath(dir, files, failed) }}} {
		files := make([]found, len(names))
		for i, n := range names {
			files[i].name = n
		}
		errs := make([]error, len(names))
		stat.at(d, dir, files, func(i int, err error) { errs[i] = err })
		for i, n := range names {
			info, err := os.Lstat(filepath.Join(dir, n))
			switch {
			case err != nil || errs[i] != nil:
				if err == nil || errs[i] == nil || errs[i].Error() != err.Error() {
					t.Errorf("%s(%s) failed with %v, os.Lstat with %v", stat.name, n, errs[i], err)
				}
			case files[i].size != info.Size() || !files[i].mtime.Equal(info.ModTime()) || files[i].mtime.UnixNano() != info.ModTime().UnixNano():
				t.Errorf("%s(%s) = %d bytes at %v; os.Lstat says %d at %v", stat.name, n, files[i].size, files[i].mtime, info.Size(), info.ModTime())
			}
		}
	}
}
