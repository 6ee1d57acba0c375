package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/dreamd/dreamd/internal/safefile"
)

// Paths locate one store: Store is the memory directory, State is dreamd's own directory for this
// store, outside the memory directory (lock, journal, archive, cursors).
type Paths struct{ Store, State string }

// Holder is who holds a store: Who is "dreamd" (the flock) or "claude-lock" (Claude Code's
// .consolidate-lock).
type Holder struct {
	PID   int
	Since time.Time
	Who   string
}

// ErrBusy means another process holds the store; it comes wrapped in a *BusyError.
var ErrBusy = errors.New("store is busy")

// BusyError names the holder of a busy store.
type BusyError struct{ Holder Holder }

func (e *BusyError) Error() string {
	h := e.Holder
	const next = "; try again when it has finished (a Claude Code lock older than an hour, or one whose process is gone, is taken over)"
	if h.PID == 0 {
		return fmt.Sprintf("%v: held by %s%s", ErrBusy, h.Who, next)
	}
	return fmt.Sprintf("%v: held by %s (pid %d) since %s%s", ErrBusy, h.Who, h.PID, h.Since.Format(time.RFC3339), next)
}

func (e *BusyError) Unwrap() error { return ErrBusy }

const (
	lockFile  = "lock"       // in State: the flock
	ownerFile = "lock.owner" // in State: who holds the flock, for status and busy messages
)

// owner is the content of the owner file.
type owner struct {
	PID   int       `json:"pid"`
	Since time.Time `json:"since"`
}

// Lock is a held store: the flock in State and Claude Code's lock file in Store.
type Lock struct {
	paths        Paths
	flock        *flock.Flock
	claude       claudeLock // .consolidate-lock as found before we took it
	consolidated bool
	madeStore    bool // Acquire created the store directory
}

// Acquire takes the store without waiting: first dreamd's flock on <State>/lock, then Claude
// Code's <Store>/.consolidate-lock, which is honoured when it names a live process and is younger
// than an hour, and otherwise taken over. A held store gives a *BusyError (errors.Is ErrBusy).
// It creates both directories when missing.
func Acquire(p Paths) (*Lock, error) {
	if err := os.MkdirAll(p.State, 0o700); err != nil {
		return nil, err
	}
	_, statErr := os.Stat(p.Store)
	if err := os.MkdirAll(p.Store, 0o755); err != nil {
		return nil, err
	}
	if err := safefile.RegularOrAbsent(filepath.Join(p.State, lockFile)); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	f := flock.New(filepath.Join(p.State, lockFile))
	ok, err := f.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", f.Path(), err)
	}
	if !ok {
		h, _ := dreamdHolder(p.State)
		h.Who = "dreamd"
		return nil, &BusyError{Holder: h}
	}
	l := &Lock{paths: p, flock: f, madeStore: errors.Is(statErr, os.ErrNotExist)}
	data, err := json.Marshal(owner{PID: os.Getpid(), Since: time.Now()})
	if err == nil {
		err = putFile(filepath.Join(p.State, ownerFile), data, 0o600)
	}
	if err == nil {
		err = sweepLeftovers(p)
	}
	if err == nil {
		l.claude, err = takeClaudeLock(p.Store)
	}
	if err != nil {
		return nil, errors.Join(err, l.unlock())
	}
	return l, nil
}

// Consolidated tells Release that this run changed the store, so Claude Code's lock file keeps
// the current time as its modification time: Claude Code reads that as the last consolidation and
// does not start its own right after ours. Without it Release puts the file back as it was found.
func (l *Lock) Consolidated() { l.consolidated = true }

// Release gives the store back. Claude Code's lock file is only touched while it still holds our
// PID: after Consolidated it is left empty (no holder) with the current time, even if there was
// none before; otherwise it is put back as found (removed if it did not exist, else its old bytes
// and modification time).
func (l *Lock) Release() error {
	if l == nil || l.flock == nil {
		return nil
	}
	err := releaseClaudeLock(l.paths.Store, l.claude, l.consolidated)
	if l.madeStore && !l.consolidated {
		os.Remove(l.paths.Store) // only when still empty: a failed first pass leaves no trace
	}
	return errors.Join(err, l.unlock())
}

func (l *Lock) unlock() error {
	err := os.Remove(filepath.Join(l.paths.State, ownerFile))
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	err = errors.Join(err, l.flock.Unlock())
	l.flock = nil
	return err
}

// Inspect reports who holds the store now without taking it or writing anything.
func Inspect(p Paths) (Holder, bool) {
	if h, ok := dreamdHolder(p.State); ok {
		return h, true
	}
	c, err := readClaudeLock(p.Store)
	if err == nil && c.heldByOther(time.Now()) {
		return c.holder(), true
	}
	return Holder{}, false
}

// dreamdHolder reads the owner file; ok when it names a live process.
func dreamdHolder(state string) (Holder, bool) {
	// safefile: a FIFO put in its place must not block status and every pass in open.
	data, err := safefile.ReadFile(filepath.Join(state, ownerFile), 64<<10)
	if err != nil {
		return Holder{}, false
	}
	var o owner
	if json.Unmarshal(data, &o) != nil {
		return Holder{}, false
	}
	h := Holder{PID: o.PID, Since: o.Since, Who: "dreamd"}
	return h, o.PID > 0 && ProcessAlive(o.PID)
}
