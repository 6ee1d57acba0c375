package transcript

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// classify decides about one regular file found under a source, given its slash-separated path
// relative to the source and its real path: keep it, or pass it over with a reason (an empty
// reason passes over silently: the file is not a transcript of this kind at all). It may be
// called from several goroutines at once.
type classify func(rel, real string) (keep bool, reason string)

// discover walks a source and sorts its files with keep. A missing source path is reported as
// skipped, not as an error: a configured agent may simply not be installed. Directories that never
// hold transcripts (.git, node_modules) are not entered. A source path may also name one file.
//
// The files and skipped entries come in a fixed order, the one of a walk in lexical order (the
// quiet mark digests the listing in it): first the transcripts reached through a symlink and
// what the walk passed over, then the regular files kept, then those that could not be stat'ed.
func discover(kind string, src Source, keep classify) ([]File, []Skipped, error) {
	root := src.Path
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, []Skipped{{Path: root, Reason: "source path does not exist"}}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if !fi.IsDir() {
		ok, why := keep(filepath.Base(root), root)
		switch {
		case ok:
			return []File{{Kind: kind, Path: root, Size: fi.Size(), ModTime: fi.ModTime(), Project: src.Project, Store: src.Store}}, nil, nil
		case why != "":
			return nil, []Skipped{{Path: root, Reason: why}}, nil
		}
		return nil, nil, nil
	}
	// Walk the resolved root (the configured path may be a symlink) but report configured paths.
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, nil, err
	}
	top := filepath.Clean(root)
	w := &walker{kind: kind, src: src, keep: keep, same: real == top, sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
	switch {
	case top == ".":
	case strings.HasSuffix(top, string(filepath.Separator)):
		w.cut = len(top)
	default:
		w.cut = len(top) + 1
	}
	d := &dirScan{path: top, real: real}
	w.sem <- struct{}{}
	w.scan(d, true)
	<-w.sem
	w.wg.Wait()
	if w.err != nil {
		return nil, nil, w.err
	}
	files, skipped := d.flatten(kind, src)
	return files, skipped, nil
}

// walker lists one source's directory tree: each directory is read, sorted and classified by
// one goroutine, and its kept files are stat'ed relative to it, a directory with many of them
// on several goroutines; at most GOMAXPROCS run at once.
type walker struct {
	kind string
	src  Source
	keep classify
	cut  int  // a file's path from cut on is its path relative to the source (with '/' separators)
	same bool // the source is no symlink: a file's real path is its configured path
	sem  chan struct{}
	wg   sync.WaitGroup
	err  error // the source's own directory could not be read
}

// statChunk is how many files one goroutine stats at a time.
const statChunk = 512

// goRun runs f on a goroutine of its own if one of the walker's slots is free, else on this one:
// a tree of many directories never has more than GOMAXPROCS goroutines (or open directories
// per level) at once.
func (w *walker) goRun(f func()) {
	select {
	case w.sem <- struct{}{}:
		w.wg.Go(func() {
			defer func() { <-w.sem }()
			f()
		})
	default:
		f()
	}
}

// dirScan is what one directory holds, in lexical order, and where its subdirectories fall in it.
type dirScan struct {
	path, real string // configured and resolved
	rel        string // relative to the source, slash-separated; "" at the top
	dir        *os.File
	open       atomic.Int32 // stat chunks still to run on dir

	followed []File    // transcripts reached through a symlink
	passed   []Skipped // what the walk passed over, with why
	regular  []found   // regular files kept, stat'ed after the listing
	subdirs  []subdir

	mu     sync.Mutex
	failed []failure // regular files whose stat failed
}

// found is a regular file kept, with what its stat said.
type found struct {
	path, name string
	size       int64
	mtime      time.Time
}

type failure struct {
	i   int // in regular
	err error
}

// subdir is a subdirectory and the lengths of its parent's lists where its own entries fall.
type subdir struct {
	*dirScan
	followed, passed, regular int
}

// scan reads a directory, classifies its entries and starts its subdirectories and its stats.
func (w *walker) scan(d *dirScan, top bool) {
	f, err := os.Open(d.real)
	var entries []fs.DirEntry
	if err == nil {
		entries, err = f.ReadDir(-1)
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		if top {
			w.err = err
		} else {
			d.passed = append(d.passed, Skipped{Path: d.path, Reason: err.Error()})
		}
		return
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for i, e := range entries {
		name, typ := e.Name(), e.Type()
		if typ.IsDir() {
			if name == ".git" || name == "node_modules" {
				continue
			}
			sub := &dirScan{path: join(d.path, name), real: join(d.real, name), rel: name}
			if d.rel != "" {
				sub.rel = d.rel + "/" + name
			}
			d.subdirs = append(d.subdirs, subdir{sub, len(d.followed), len(d.passed), len(d.regular)})
			w.goRun(func() { w.scan(sub, false) })
			continue
		}
		path := join(d.path, name)
		rel, real := w.names(d, path, name)
		if typ.IsRegular() {
			// Classify by name first: most files under a source are not transcripts, and only
			// the ones kept need a stat, which comes after the listing.
			if w.kept(d, path, rel, real) {
				if d.regular == nil {
					// Most directories with one transcript are full of them.
					d.regular = make([]found, 0, len(entries)-i)
				}
				d.regular = append(d.regular, found{path: path, name: name})
			}
			continue
		}
		info, err := os.Stat(real) // follows a symlinked transcript to its file
		if err != nil {
			d.passed = append(d.passed, Skipped{Path: path, Reason: err.Error()})
			continue
		}
		switch {
		case info.Mode().IsRegular():
			if w.kept(d, path, rel, real) {
				d.followed = append(d.followed, File{Kind: w.kind, Path: path, Size: info.Size(), ModTime: info.ModTime(), Project: w.src.Project, Store: w.src.Store})
			}
		case !info.IsDir():
			// A FIFO, socket or device named like a transcript is listed, never opened: reading
			// a FIFO would block the pass.
			if ok, _ := w.keep(rel, real); ok {
				d.passed = append(d.passed, Skipped{Path: path, Reason: "not a regular file (" + info.Mode().Type().String() + "), left alone"})
			}
		}
	}
	n := len(d.regular)
	if n == 0 {
		f.Close()
		return
	}
	d.dir = f
	d.open.Store(int32((n + statChunk - 1) / statChunk))
	for lo := statChunk; lo < n; lo += statChunk {
		w.goRun(func() { d.stat(lo, min(lo+statChunk, n)) })
	}
	d.stat(0, min(statChunk, n))
}

// names are the path relative to the source and the real path of a file at path, named name,
// in d.
func (w *walker) names(d *dirScan, path, name string) (rel, real string) {
	if filepath.Separator == '/' {
		rel = path[w.cut:]
	} else if rel = name; d.rel != "" {
		rel = d.rel + "/" + name
	}
	if real = path; !w.same {
		real = join(d.real, name)
	}
	return rel, real
}

// kept asks keep about one file, noting why it passed the file over.
func (w *walker) kept(d *dirScan, path, rel, real string) bool {
	ok, why := w.keep(rel, real)
	if !ok && why != "" {
		d.passed = append(d.passed, Skipped{Path: path, Reason: why})
	}
	return ok
}

// stat stats d.regular[lo:hi] and closes the directory after its last chunk.
func (d *dirScan) stat(lo, hi int) {
	statAt(d.dir, d.real, d.regular[lo:hi], func(i int, err error) {
		d.mu.Lock()
		d.failed = append(d.failed, failure{lo + i, err})
		d.mu.Unlock()
	})
	if d.open.Add(-1) == 0 {
		d.dir.Close()
	}
}

// statByPath is statAt where a file cannot be stat'ed relative to its directory.
func statByPath(dirReal string, files []found, failed func(int, error)) {
	for i := range files {
		info, err := os.Lstat(join(dirReal, files[i].name))
		if err != nil {
			failed(i, err)
			continue
		}
		files[i].size, files[i].mtime = info.Size(), info.ModTime()
	}
}

// flatten puts the tree's lists together in the walk's order: each directory's lists, with its
// subdirectories' lists where they fall in them.
func (top *dirScan) flatten(kind string, src Source) ([]File, []Skipped) {
	var nFollowed, nRegular, nPassed, nFailed int
	var count func(*dirScan)
	count = func(d *dirScan) {
		nFollowed, nRegular, nPassed, nFailed = nFollowed+len(d.followed), nRegular+len(d.regular), nPassed+len(d.passed), nFailed+len(d.failed)
		for _, s := range d.subdirs {
			count(s.dirScan)
		}
	}
	count(top)
	// The files reached through symlinks come first, then the regular ones; what the walk
	// passed over, then what could not be stat'ed. Each pair shares one array.
	files, skipped := make([]File, nFollowed+nRegular-nFailed), make([]Skipped, nPassed+nFailed)
	followed, regular := files[:0:nFollowed], files[nFollowed:nFollowed]
	passed, failed := skipped[:0:nPassed], skipped[nPassed:nPassed]
	var walk func(*dirScan)
	walk = func(d *dirScan) {
		slices.SortFunc(d.failed, func(a, b failure) int { return cmp.Compare(a.i, b.i) })
		var f, p, r, next int // how far d's lists are taken
		upTo := func(toF, toP, toR int) {
			followed = append(followed, d.followed[f:toF]...)
			passed = append(passed, d.passed[p:toP]...)
			for ; r < toR; r++ {
				x := d.regular[r]
				if next < len(d.failed) && d.failed[next].i == r {
					failed = append(failed, Skipped{Path: x.path, Reason: d.failed[next].err.Error()})
					next++
					continue
				}
				regular = append(regular, File{Kind: kind, Path: x.path, Size: x.size, ModTime: x.mtime, Project: src.Project, Store: src.Store})
			}
			f, p = toF, toP
		}
		for _, s := range d.subdirs {
			upTo(s.followed, s.passed, s.regular)
			walk(s.dirScan)
		}
		upTo(len(d.followed), len(d.passed), len(d.regular))
	}
	walk(top)
	if len(files) == 0 {
		files = nil // none: nil, as an empty listing always was
	}
	if len(skipped) == 0 {
		skipped = nil
	}
	return files, skipped
}

// join is filepath.Join of a clean directory and a name from it, without cleaning again.
func join(dir, name string) string {
	switch {
	case filepath.Separator != '/' || dir == "." || dir == "":
		return filepath.Join(dir, name)
	case dir[len(dir)-1] == '/':
		return dir + name
	}
	return dir + "/" + name
}
