//go:build unix

package store

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dreamd/dreamd/internal/safefile"
)

// TestInspectOwnerFileThatIsAFIFO: a FIFO in place of the lock's owner file names no holder; it
// does not block status and every pass in open.
func TestInspectOwnerFileThatIsAFIFO(t *testing.T) {
	p := Paths{Store: t.TempDir(), State: t.TempDir()}
	if err := syscall.Mkfifo(filepath.Join(p.State, ownerFile), 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	if h, held := Inspect(p); held {
		t.Errorf("held by %+v", h)
	}
}

// TestAcquireLockFileThatIsAFIFO: a FIFO in place of the flock's file is an error naming it, not
// a pass that blocks forever in the lock library's open.
func TestAcquireLockFileThatIsAFIFO(t *testing.T) {
	p := Paths{Store: t.TempDir(), State: t.TempDir()}
	if err := syscall.Mkfifo(filepath.Join(p.State, lockFile), 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	l, err := Acquire(p)
	if err == nil {
		l.Release()
		t.Fatal("acquired")
	}
	if !errors.Is(err, safefile.ErrNotRegular) {
		t.Errorf("err = %v, want not a regular file", err)
	}
}
