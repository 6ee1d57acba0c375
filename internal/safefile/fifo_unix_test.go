//go:build unix

package safefile

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFIFONeverBlocks opens a FIFO nobody writes to: a plain open would wait for a writer forever.
func TestFIFONeverBlocks(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	_, err := ReadFile(fifo, 100)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a FIFO") {
		t.Fatalf("ReadFile(fifo) = %v", err)
	}
}
