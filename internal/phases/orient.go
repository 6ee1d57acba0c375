package phases

import (
	"errors"
	"fmt"

	"github.com/dreamd/dreamd/internal/store"
)

// Oriented is a store ready to consolidate: locked (unless read-only), any interrupted apply
// finished, its memories and cursors loaded.
type Oriented struct {
	Paths   store.Paths
	Store   *store.Store
	Cursors Cursors
	Lock    *store.Lock // nil when read-only
}

// Orient locks a store and loads it. A read-only orient (dry runs, plans) takes no lock and
// writes nothing, but still refuses a store another run holds, so it never reads one mid-apply.
func Orient(p store.Paths, readOnly bool) (*Oriented, error) {
	o := &Oriented{Paths: p}
	if readOnly {
		if h, busy := store.Inspect(p); busy {
			return nil, &store.BusyError{Holder: h}
		}
		if run, ok := store.Unfinished(p); ok {
			return nil, fmt.Errorf("%w: run %s of %s was interrupted and is not finished yet; `dreamd status` or the next `dreamd run --once` finishes it",
				store.ErrBusy, run, p.Store)
		}
	} else {
		// Record which store this state directory serves before anything can be interrupted (the
		// lock's own writes included), so RecoverStores finds a store whose first pass was killed.
		if st, err := LoadStatus(p); err == nil && st.Store == "" {
			if err := saveStatus(p, st); err != nil {
				return nil, err
			}
		}
		lock, err := store.Acquire(p)
		if err != nil {
			return nil, err
		}
		o.Lock = lock
		if _, err := store.Recover(p); err != nil {
			return nil, errors.Join(fmt.Errorf("recovering an interrupted apply of %s: %w", p.Store, err), o.Release())
		}
	}
	var err error
	if o.Store, err = store.Load(p.Store); err != nil {
		return nil, errors.Join(err, o.Release())
	}
	if o.Cursors, err = LoadCursors(p); err != nil {
		return nil, errors.Join(err, o.Release())
	}
	return o, nil
}

// Release gives the store's lock back. Its error says that Claude Code's lock file could not be
// restored or the lock's owner file removed: the flock itself goes with the file's close, and a
// lock file left holding this process's PID is taken as stale after an hour.
func (o *Oriented) Release() error {
	if o.Lock == nil {
		return nil
	}
	err := o.Lock.Release()
	o.Lock = nil
	return err
}

// releaseLogged releases o's lock at the end of a pass and logs what could not be undone.
func releaseLogged(env *Env, o *Oriented) {
	if err := o.Release(); err != nil {
		env.log().Warn("releasing the store's lock", "store", o.Paths.Store, "err", err)
	}
}

// RecoverStores finishes the applies that killed processes left in any store dreamd knows (and
// sweeps their half-written temporary files), so
// every command sees each store exactly as before or exactly as after a run. Stores another
// process holds are left to it.
func RecoverStores(stateDir string, log func(store, run string, err error)) {
	known, err := KnownStores(stateDir)
	if err != nil {
		return
	}
	for _, p := range known {
		if _, ok := store.Unfinished(p); !ok && len(store.Leftovers(p)) == 0 {
			continue
		}
		lock, err := store.Acquire(p)
		if err != nil {
			continue
		}
		run, err := store.Recover(p)
		if log != nil {
			log(p.Store, run, errors.Join(err, lock.Release()))
		} else {
			_ = lock.Release() // no one to tell; the flock goes with the file's close anyway
		}
	}
}
