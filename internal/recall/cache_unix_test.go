//go:build unix

package recall

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestCacheThatIsAFIFO: a FIFO in place of the cache is no cache; recall does not block in open.
func TestCacheThatIsAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recall.cache")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	if m := readCache(path); m != nil {
		t.Errorf("read %v", m)
	}
}
