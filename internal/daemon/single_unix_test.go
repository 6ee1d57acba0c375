//go:build unix

package daemon

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dreamd/dreamd/internal/safefile"
)

// TestClaimLockFileThatIsAFIFO: a FIFO in place of daemon.lock is an error naming it, not a
// daemon that blocks forever in the lock library's open, deaf to SIGTERM.
func TestClaimLockFileThatIsAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, lockFile), 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	f, err := claim(filepath.Join(dir, "state.json"))
	if err == nil {
		f.Unlock()
		t.Fatal("claimed")
	}
	if !errors.Is(err, safefile.ErrNotRegular) {
		t.Errorf("err = %v, want not a regular file", err)
	}
}
