package daemon

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStateRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "daemon.json")
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	want := State{PID: 42, Started: at, LastCheck: at.Add(time.Hour), LastSuccess: at.Add(time.Hour),
		NextCheck: at.Add(2 * time.Hour), LastError: "boom", Running: true, Checking: true}
	if err := writeState(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadState(path)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Started.Equal(want.Started) || !got.NextCheck.Equal(want.NextCheck) || got.PID != want.PID ||
		got.LastError != want.LastError || got.Running != want.Running || got.Checking != want.Checking {
		t.Errorf("ReadState = %+v, want %+v", got, want)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("state file mode %o, want 600", perm)
	}
}

func TestStateOmitsZeroTimes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemon.json")
	if err := writeState(path, State{PID: 1}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "0001-01-01") {
		t.Errorf("zero times written out:\n%s", data)
	}
}

func TestReadStateErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadState(filepath.Join(dir, "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err = %v, want fs.ErrNotExist", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadState(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("corrupt file: err = %v, want one naming %s", err, bad)
	}
}

func FuzzDecodeState(f *testing.F) {
	f.Add([]byte(`{"pid":7,"started":"2026-11-20T12:00:00Z","running":true}`))
	f.Add([]byte(`{"last_check":"not a time"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := decodeState(data)
		if err != nil {
			return
		}
		path := filepath.Join(t.TempDir(), "daemon.json")
		if err := writeState(path, s); err != nil {
			t.Skip("not representable:", err) // e.g. a year outside [0,9999]
		}
		again, err := ReadState(path)
		if err != nil {
			t.Fatalf("re-reading a written state: %v", err)
		}
		if again.PID != s.PID || again.LastError != s.LastError || !again.LastCheck.Equal(s.LastCheck) {
			t.Errorf("round trip changed %+v into %+v", s, again)
		}
	})
}
