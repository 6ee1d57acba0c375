package transcript

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// classify decides about one regular file found under a source, given its slash-separated path
// relative to the source and its real path: keep it, or pass it over with a reason (an empty
// reason passes over silently: the file is not a transcript of this kind at all).
type classify func(rel, real string) (keep bool, reason string)

// discover walks a source and sorts its files with keep. A missing source path is reported as
// skipped, not as an error: a configured agent may simply not be installed. Directories that never
// hold transcripts (.git, node_modules) are not entered. A source path may also name one file.
func discover(kind string, src Source, keep classify) ([]File, []Skipped, error) {
	root := src.Path
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, []Skipped{{Path: root, Reason: "source path does not exist"}}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var files []File
	var skipped []Skipped
	add := func(path string, info fs.FileInfo) {
		files = append(files, File{Kind: kind, Path: path, Size: info.Size(), ModTime: info.ModTime(), Project: src.Project, Store: src.Store})
	}
	kept := func(path, rel, real string) bool {
		ok, why := keep(rel, real)
		if !ok && why != "" {
			skipped = append(skipped, Skipped{Path: path, Reason: why})
		}
		return ok
	}
	consider := func(path, rel, real string, info fs.FileInfo) {
		if kept(path, rel, real) {
			add(path, info)
		}
	}
	if !fi.IsDir() {
		consider(root, filepath.Base(root), root, fi)
		return files, skipped, nil
	}
	// Walk the resolved root (the configured path may be a symlink) but report configured paths.
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, nil, err
	}
	var regular []entry
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		rel, relErr := filepath.Rel(real, p)
		if relErr != nil {
			return relErr
		}
		path := filepath.Join(root, rel)
		if err != nil {
			if p == real {
				return err
			}
			skipped = append(skipped, Skipped{Path: path, Reason: err.Error()})
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != real && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			// Classify by name first: most files under a source are not transcripts, and only
			// the ones kept need a stat, which comes after the walk, on every core.
			if kept(path, filepath.ToSlash(rel), p) {
				regular = append(regular, entry{path, d})
			}
			return nil
		}
		info, err := os.Stat(p) // follows a symlinked transcript to its file
		if err != nil {
			skipped = append(skipped, Skipped{Path: path, Reason: err.Error()})
			return nil
		}
		switch {
		case info.Mode().IsRegular():
			consider(path, filepath.ToSlash(rel), p, info)
		case !info.IsDir():
			// A FIFO, socket or device named like a transcript is listed, never opened: reading
			// a FIFO would block the pass.
			if ok, _ := keep(filepath.ToSlash(rel), p); ok {
				skipped = append(skipped, Skipped{Path: path, Reason: "not a regular file (" + info.Mode().Type().String() + "), left alone"})
			}
		}
		return nil
	})
	infos, errs := statAll(regular)
	for i, e := range regular {
		if errs[i] != nil {
			skipped = append(skipped, Skipped{Path: e.path, Reason: errs[i].Error()})
			continue
		}
		add(e.path, infos[i])
	}
	return files, skipped, err
}

// entry is a regular file the walk kept, not yet stat'ed.
type entry struct {
	path string
	d    fs.DirEntry
}

// statAll stats entries in parallel: over many small transcripts, the stats are most of a pass
// that finds nothing new.
func statAll(entries []entry) ([]fs.FileInfo, []error) {
	infos, errs := make([]fs.FileInfo, len(entries)), make([]error, len(entries))
	workers := min(runtime.GOMAXPROCS(0), len(entries)/256+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(entries); i += workers {
				infos[i], errs[i] = entries[i].d.Info()
			}
		})
	}
	wg.Wait()
	return infos, errs
}
