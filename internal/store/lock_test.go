package store

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func testPaths(t *testing.T) Paths {
	dir := t.TempDir()
	return Paths{Store: filepath.Join(dir, "memory"), State: filepath.Join(dir, "state")}
}

// deadPID is above any Linux or macOS pid_max, so no process has it.
const deadPID = math.MaxInt32

func TestAcquireBusyAndRelease(t *testing.T) {
	p := testPaths(t)
	l, err := Acquire(p)
	if err != nil {
		t.Fatal(err)
	}
	lockPath := filepath.Join(p.Store, ClaudeLockFile)
	if data, _ := os.ReadFile(lockPath); string(data) != strconv.Itoa(os.Getpid()) {
		t.Errorf(".consolidate-lock = %q, want our pid", data)
	}
	h, held := Inspect(p)
	if !held || h.Who != "dreamd" || h.PID != os.Getpid() {
		t.Errorf("Inspect = %+v, %v", h, held)
	}

	_, err = Acquire(p)
	var busy *BusyError
	if !errors.Is(err, ErrBusy) || !errors.As(err, &busy) || busy.Holder.Who != "dreamd" || busy.Holder.PID != os.Getpid() {
		t.Fatalf("second Acquire: %v", err)
	}

	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lockPath); !os.IsNotExist(err) {
		t.Errorf(".consolidate-lock left behind after release: %v", err)
	}
	if h, held := Inspect(p); held {
		t.Errorf("Inspect after release = %+v", h)
	}
	if err := l.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}
	l, err = Acquire(p)
	if err != nil {
		t.Fatalf("Acquire after release: %v", err)
	}
	l.Release()
}

func TestClaudeLock(t *testing.T) {
	live := os.Getppid() // the go command running this test
	tests := []struct {
		name    string
		content string
		age     time.Duration
		busy    bool
	}{
		{"live and fresh", strconv.Itoa(live), time.Minute, true},
		{"live but older than an hour", strconv.Itoa(live), 2 * time.Hour, false},
		{"dead", strconv.Itoa(deadPID), time.Minute, false},
		{"emptied by Claude Code", "", time.Minute, false},
		{"not a pid", "garbage", time.Minute, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := testPaths(t)
			path := filepath.Join(p.Store, ClaudeLockFile)
			writeFiles(t, p.Store, map[string]string{ClaudeLockFile: tt.content})
			mtime := time.Now().Add(-tt.age).Truncate(time.Second)
			if err := os.Chtimes(path, mtime, mtime); err != nil {
				t.Fatal(err)
			}
			h, held := Inspect(p)
			if held != tt.busy || (held && (h.Who != "claude-lock" || h.PID != live)) {
				t.Errorf("Inspect = %+v, %v", h, held)
			}

			l, err := Acquire(p)
			if tt.busy {
				var busy *BusyError
				if !errors.As(err, &busy) || busy.Holder.Who != "claude-lock" || busy.Holder.PID != live {
					t.Fatalf("Acquire = %v, want busy by claude-lock", err)
				}
				assertFile(t, path, tt.content, mtime)
				os.Remove(path) // the flock must have been let go
				l, err := Acquire(p)
				if err != nil {
					t.Fatalf("Acquire once the holder is gone: %v", err)
				}
				l.Release()
				return
			}
			if err != nil {
				t.Fatalf("Acquire = %v, want the stale lock taken over", err)
			}
			if data, _ := os.ReadFile(path); string(data) != strconv.Itoa(os.Getpid()) {
				t.Errorf("lock holds %q after takeover", data)
			}
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
			assertFile(t, path, tt.content, mtime) // put back as found
		})
	}
}

func TestReleaseAfterConsolidation(t *testing.T) {
	p := testPaths(t)
	path := filepath.Join(p.Store, ClaudeLockFile)
	writeFiles(t, p.Store, map[string]string{ClaudeLockFile: "1"})
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(path, old, old)
	before := time.Now().Add(-time.Second)
	l, err := Acquire(p)
	if err != nil {
		t.Fatal(err)
	}
	l.Consolidated()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != 0 || fi.ModTime().Before(before) {
		t.Errorf("after a consolidation the lock should be empty and fresh: %v %v", fi, err)
	}
}

func TestReleaseLeavesATakenOverLock(t *testing.T) {
	p := testPaths(t)
	l, err := Acquire(p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(p.Store, ClaudeLockFile)
	writeFiles(t, p.Store, map[string]string{ClaudeLockFile: "424242"})
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "424242" {
		t.Errorf("Release touched a lock it no longer held: %q", data)
	}
}

func assertFile(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || string(data) != content {
		t.Errorf("%s = %q, %v; want %q", path, data, err, content)
	}
	if fi, err := os.Stat(path); err != nil || !fi.ModTime().Equal(mtime) {
		t.Errorf("%s mtime = %v, want %v", path, fi.ModTime(), mtime)
	}
}

func TestAcquireSweepsLeftoverTempFiles(t *testing.T) {
	dir := t.TempDir()
	p := Paths{Store: filepath.Join(dir, "store"), State: filepath.Join(dir, "state")}
	os.MkdirAll(p.Store, 0o755)
	litter := []string{".deploy.md8412951", ".MEMORY.md77", "..consolidate-lock1234"}
	keep := []string{".notes", "deploy.md", ".hidden.md"}
	for _, n := range append(litter, keep...) {
		os.WriteFile(filepath.Join(p.Store, n), []byte("x"), 0o644)
	}
	if got := Leftovers(p); len(got) != len(litter) {
		t.Fatalf("Leftovers = %v", got)
	}
	l, err := Acquire(p)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	for _, n := range litter {
		if _, err := os.Stat(filepath.Join(p.Store, n)); err == nil {
			t.Errorf("%s was not swept", n)
		}
	}
	for _, n := range keep {
		if _, err := os.Stat(filepath.Join(p.Store, n)); err != nil {
			t.Errorf("%s was removed", n)
		}
	}
}
