package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"

	"github.com/dreamd/dreamd/internal/safefile"
)

// ErrAlreadyRunning marks a second daemon on a state directory that one already serves: two
// daemons would schedule the same stores twice and overwrite each other's daemon.json.
var ErrAlreadyRunning = errors.New("another dreamd daemon is running")

// lockFile is held by a running daemon, beside its state file.
const lockFile = "daemon.lock"

// claim takes the daemon lock beside statePath without waiting. The lock is an flock, so it is
// released by the kernel when the daemon dies, however it dies.
func claim(statePath string) (*flock.Flock, error) {
	dir := filepath.Dir(statePath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := safefile.RegularOrAbsent(filepath.Join(dir, lockFile)); err != nil {
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	f := flock.New(filepath.Join(dir, lockFile))
	ok, err := f.TryLock()
	if err != nil {
		return nil, fmt.Errorf("daemon lock %s: %w", f.Path(), err)
	}
	if !ok {
		who := "another process"
		if s, err := ReadState(statePath); err == nil && s.PID > 0 {
			who = fmt.Sprintf("pid %d", s.PID)
		}
		return nil, fmt.Errorf("%w on %s (%s); stop it first (`dreamd uninstall` or `systemctl --user stop dreamd`), or give this one another state_dir", ErrAlreadyRunning, dir, who)
	}
	return f, nil
}
