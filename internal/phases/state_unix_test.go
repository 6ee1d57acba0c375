//go:build unix

package phases

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/store"
)

// TestStateFilesThatAreNotRegular: a FIFO in place of a state file (status.json, cursors) is an
// error, not a pass or a status that blocks forever in open, deaf to SIGTERM.
func TestStateFilesThatAreNotRegular(t *testing.T) {
	for _, name := range []string{statusFile, "cursors-000.json"} {
		t.Run(name, func(t *testing.T) {
			p := store.Paths{State: t.TempDir()}
			if err := syscall.Mkfifo(filepath.Join(p.State, name), 0o600); err != nil {
				t.Skip("no FIFO:", err)
			}
			var err error
			if name == statusFile {
				_, err = LoadStatus(p)
			} else {
				_, err = LoadCursors(p)
			}
			if !errors.Is(err, safefile.ErrNotRegular) {
				t.Errorf("err = %v, want not a regular file", err)
			}
		})
	}
}
