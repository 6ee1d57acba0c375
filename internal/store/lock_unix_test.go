//go:build unix

package store

import (
	"path/filepath"
	"syscall"
	"testing"
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
