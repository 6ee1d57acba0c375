package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecondDaemonOnOneStateDirIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "daemon.json")
	first, err := claim(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeState(path, State{PID: 4242, Running: true}); err != nil {
		t.Fatal(err)
	}

	d, err := New(Options{Schedule: "@hourly", Pass: (&fakePass{}).run, StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	err = d.Run(context.Background())
	if !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second daemon: err = %v, want ErrAlreadyRunning", err)
	}
	if !strings.Contains(err.Error(), "pid 4242") {
		t.Errorf("error %q does not name the running daemon", err)
	}
	if s, _ := ReadState(path); s.PID != 4242 {
		t.Errorf("the refused daemon overwrote the state file: pid %d", s.PID)
	}

	// Once the first lets go (it exits, or is killed: the kernel drops an flock), a daemon starts.
	if err := first.Unlock(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Run(ctx); err != nil {
		t.Fatalf("daemon after the first stopped: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), lockFile)); err != nil {
		t.Errorf("lock file: %v", err)
	}
}
