package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dreamd/dreamd/internal/safefile"
)

// claudeStaleAfter is the age after which Claude Code's lock is stale even if its PID is alive
// (the PID may have been reused).
const claudeStaleAfter = time.Hour

// claudeLock is Claude Code's .consolidate-lock as found: the holder's PID as text, and a
// modification time that Claude Code also reads as the time of the last consolidation.
type claudeLock struct {
	exists  bool
	data    []byte
	pid     int // 0 when the content is not a PID (Claude Code empties it when it gives up)
	modTime time.Time
}

// maxClaudeLock bounds the read of Claude Code's lock, which holds a PID: the file is another
// program's, and anything may stand in its place.
const maxClaudeLock = 4 << 10

func readClaudeLock(store string) (claudeLock, error) {
	path := filepath.Join(store, ClaudeLockFile)
	f, fi, err := safefile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return claudeLock{}, nil
	}
	if err != nil {
		return claudeLock{}, fmt.Errorf("the lock of Claude Code (%s): %w", ClaudeLockFile, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxClaudeLock))
	if err != nil {
		return claudeLock{}, fmt.Errorf("the lock of Claude Code (%s): %w", ClaudeLockFile, err)
	}
	pid, _ := strconv.Atoi(string(bytes.TrimSpace(data))) // not a number: no live holder (0)
	return claudeLock{exists: true, data: data, pid: pid, modTime: fi.ModTime()}, nil
}

// heldByOther reports whether another live process holds the lock and it is not stale.
func (c claudeLock) heldByOther(now time.Time) bool {
	return c.exists && c.pid > 0 && c.pid != os.Getpid() && ProcessAlive(c.pid) &&
		now.Sub(c.modTime) < claudeStaleAfter
}

func (c claudeLock) holder() Holder {
	return Holder{PID: c.pid, Since: c.modTime, Who: "claude-lock"}
}

// takeClaudeLock writes our PID into the lock file unless another live process holds it, then
// reads it back: when two processes take over a stale lock at once, the last writer wins and the
// other sees a foreign PID. It returns the lock as it was before.
func takeClaudeLock(store string) (claudeLock, error) {
	prior, err := readClaudeLock(store)
	if err != nil {
		return prior, err
	}
	if prior.heldByOther(time.Now()) {
		return prior, &BusyError{Holder: prior.holder()}
	}
	path := filepath.Join(store, ClaudeLockFile)
	if err := putFile(path, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return prior, err
	}
	now, err := readClaudeLock(store)
	if err != nil {
		return prior, err
	}
	if now.pid != os.Getpid() {
		return prior, &BusyError{Holder: now.holder()}
	}
	return prior, nil
}

// releaseClaudeLock hands the lock file back if it still holds our PID (see Lock.Release).
func releaseClaudeLock(store string, prior claudeLock, consolidated bool) error {
	cur, err := readClaudeLock(store)
	if err != nil || cur.pid != os.Getpid() {
		return err // taken over by someone else: theirs now
	}
	path := filepath.Join(store, ClaudeLockFile)
	switch {
	case consolidated:
		return putFile(path, []byte{}, 0o644)
	case !prior.exists:
		return putFile(path, nil, 0o644)
	default:
		if err := putFile(path, prior.data, 0o644); err != nil {
			return err
		}
		return os.Chtimes(path, prior.modTime, prior.modTime)
	}
}
