//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNonblocking opens path with O_NONBLOCK, so that opening a FIFO without a writer returns at
// once instead of waiting for one; Open refuses it right after.
func openNonblocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
