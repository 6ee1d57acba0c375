package daemon

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// Some agents delete their own transcripts (Gemini CLI's session cleanup removes a resumed
// session's files at its next start), often long before the next pass. The daemon watches the
// folders it is given and reports every file that appears or grows there to Options.Changed at
// once, which keeps it (see transcript.Keep) before it can be deleted. Folders created later are
// watched as they appear; the files already there when a folder is first watched are reported too.

// watch reports changes under the watched folders until ctx is done. A watch that cannot be set
// up is logged, not fatal: the pass still keeps what it finds at each check.
func (d *Daemon) watch(ctx context.Context) {
	if len(d.watchRoots) == 0 || d.changed == nil {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		d.log.Warn("cannot watch transcript folders; transcripts are kept at each check only", "err", err)
		return
	}
	defer w.Close()
	for _, root := range d.watchRoots {
		d.addRoot(w, root)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			d.event(w, ev)
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			d.log.Warn("watching transcript folders", "err", err) // e.g. the kernel's queue overflowed
		}
	}
}

// event handles one change: a new folder is watched, a file created or written is reported.
func (d *Daemon) event(w *fsnotify.Watcher, ev fsnotify.Event) {
	if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Write) {
		return
	}
	fi, err := os.Lstat(ev.Name)
	switch {
	case err != nil:
		return // gone already
	case fi.IsDir():
		d.addDir(w, ev.Name)
	case fi.Mode().IsRegular():
		d.changed(ev.Name)
	}
}

// addRoot watches a watched folder, or, while it does not exist yet (an agent installed after
// dreamd), the nearest folder above it, to watch it once it is made.
func (d *Daemon) addRoot(w *fsnotify.Watcher, root string) {
	for dir := root; ; {
		if _, err := os.Stat(dir); err == nil {
			if dir == root {
				d.addTree(w, root)
			} else if err := w.Add(dir); err != nil {
				d.log.Debug("cannot watch for a transcript folder to appear", "path", dir, "err", err)
			}
			return
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return
		}
		dir = parent
	}
}

// addDir watches a folder just made: one below a watched folder with all it holds, or one on the
// way to a watched folder that does not exist yet.
func (d *Daemon) addDir(w *fsnotify.Watcher, dir string) {
	for _, root := range d.watchRoots {
		switch {
		case dir == root || strings.HasPrefix(dir, root+string(filepath.Separator)):
			d.addTree(w, dir)
			return
		case strings.HasPrefix(root, dir+string(filepath.Separator)):
			d.addRoot(w, root)
		}
	}
}

// addTree watches a folder and every folder below it, and reports the files already there.
func (d *Daemon) addTree(w *fsnotify.Watcher, root string) {
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable or gone: what can be watched still is
		}
		if e.IsDir() {
			if err := w.Add(p); err != nil {
				d.log.Warn("cannot watch a transcript folder", "path", p, "err", err)
			}
			return nil
		}
		if e.Type().IsRegular() {
			d.changed(p)
		}
		return nil
	})
	if err != nil {
		d.log.Debug("cannot watch transcript folder", "path", root, "err", err)
	}
}
