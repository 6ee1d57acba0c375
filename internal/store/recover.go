package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Recover finishes what a killed process left: a run marked "applying" is rolled forward and
// committed, a run marked "aborting" is rolled back and removed, an incomplete journal is
// discarded. It returns the id of the run it rolled forward, "" if none. Call it with the Lock
// held, before planning.
func Recover(p Paths) (recovered string, err error) {
	runs, err := listRuns(p)
	if err != nil {
		return "", err
	}
	for _, r := range runs {
		switch r.status {
		case statusCommitted:
			continue
		case "":
			err = discard(p, r.id)
		case statusApplying:
			err = recoverForward(p, r)
			if err == nil {
				recovered = r.id
			}
		case statusAborting:
			err = recoverBackward(p, r)
		default:
			err = fmt.Errorf("run %s: unknown status %q", r.id, r.status)
		}
		if err != nil {
			return recovered, err
		}
	}
	return recovered, markSettled(p)
}

func recoverForward(p Paths, r run) error {
	j, err := readJournal(p, r)
	if err != nil {
		return err
	}
	removeTemps(p, j)
	if err := forward(p, j); err != nil {
		return err
	}
	refreshRunIndex(p)
	return nil
}

func recoverBackward(p Paths, r run) error {
	j, err := readJournal(p, r)
	if err != nil {
		return err
	}
	removeTemps(p, j)
	if err := backward(p, j); err != nil {
		return err
	}
	return discard(p, r.id)
}

// forward puts the run's post-images in place: archive, store files, State files, and marks the
// run committed — every new file staged before the first rename (see install).
func forward(p Paths, j *journal) error {
	if len(j.img.Retired) > 0 {
		dir := filepath.Join(p.State, archiveDir, j.info.RunID)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return unplaced(err)
		}
		for _, r := range j.img.Retired {
			if err := step("archive:" + r.Name); err != nil {
				return unplaced(err)
			}
			if err := writeArchive(dir, j, r); err != nil {
				return unplaced(err)
			}
		}
		if err := errors.Join(syncDir(dir), syncDir(filepath.Dir(dir))); err != nil {
			return unplaced(err)
		}
	}
	if err := os.MkdirAll(p.Store, 0o755); err != nil {
		return unplaced(err)
	}
	var files []target
	for _, im := range j.img.Store {
		files = append(files, target{dir: p.Store, name: im.Name, have: im.Old, want: im.New, perm: 0o644, store: true})
	}
	for _, im := range j.img.State {
		files = append(files, target{dir: p.State, name: im.Name, want: im.New, perm: 0o600})
	}
	status := []byte(statusCommitted + "\n")
	files = append(files, target{dir: runPath(p, j.info.RunID), name: statusFile, want: status, perm: 0o600, status: true})
	return install(p, j, files)
}

// backward puts the run's pre-images back; the archive goes with the run when it is discarded.
func backward(p Paths, j *journal) error {
	var files []target
	for _, im := range j.img.State {
		files = append(files, target{dir: p.State, name: im.Name, want: im.Old, perm: 0o600, undo: true})
	}
	for _, im := range j.img.Store {
		files = append(files, target{dir: p.Store, name: im.Name, have: im.New, want: im.Old, perm: 0o644, store: true, undo: true})
	}
	return install(p, j, files)
}

// target is one file a step of a run puts in place.
type target struct {
	dir, name  string
	have, want []byte // a store file expected to hold have or want; want nil: the file goes
	perm       os.FileMode
	store      bool // a store file: content that is neither have nor want is kept under conflicts/
	status     bool // the run's status file, renamed last: the run's commit point
	undo       bool
}

// staged is a target whose new version waits beside it under a temporary name ("" to remove it).
type staged struct {
	target
	temp string
}

// errUnplaced marks a failure of a step before it renamed anything: nothing it puts in place
// changed, so undoing it only takes removing what it wrote (no space, on a full disk).
var errUnplaced = errors.New("nothing put in place")

func unplaced(err error) error { return fmt.Errorf("%w (%w)", err, errUnplaced) }

// install puts files in place in two halves, so that a full disk cannot leave them half old, half
// new: first every new version is written beside its target under a temporary name and made
// durable — all that takes space — then each is renamed over its target, which takes none. A
// failure while staging removes what it staged and returns an errUnplaced error. The temporary
// names are renameio's, which Recover's removeTemps and Leftovers know.
func install(p Paths, j *journal, files []target) error {
	var pending []staged
	for _, f := range files {
		s, skip, err := stage(p, j, f)
		if errors.Is(err, errCrash) {
			return err // a killed process leaves its temporary files to Recover
		}
		if err != nil {
			unstage(append(pending, s))
			return unplaced(err)
		}
		if !skip {
			pending = append(pending, s)
		}
	}
	dirs := map[string]bool{}
	for i, s := range pending {
		if err := place(s); err != nil {
			if errors.Is(err, errCrash) {
				return err
			}
			unstage(pending[i:])
			if i == 0 {
				return unplaced(err)
			}
			return err
		}
		dirs[s.dir] = true
	}
	var errs []error
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		errs = append(errs, syncDir(dir))
	}
	return errors.Join(errs...)
}

// stage writes f's new version under a temporary name; skip reports that f already holds it.
func stage(p Paths, j *journal, f target) (s staged, skip bool, err error) {
	s.target = f
	prefix := "stage:"
	if f.undo {
		prefix = "stage:undo:"
	}
	if err := step(prefix + f.name); err != nil {
		return s, false, err
	}
	path := filepath.Join(f.dir, f.name)
	if f.store {
		cur, err := readOptional(path)
		if err != nil {
			return s, false, err
		}
		if sameImage(cur, f.want) {
			return s, true, nil
		}
		if cur != nil && !sameImage(cur, f.have) {
			if err := keepConflict(p, j, f.name, cur); err != nil {
				return s, false, err
			}
		}
	}
	if f.want == nil {
		return s, false, nil
	}
	s.temp, err = writeTemp(path, f.want, f.perm)
	return s, false, err
}

// place renames a staged file over its target, or removes the target.
func place(s staged) error {
	name := "store:" + s.name
	switch {
	case s.status:
		name = "status:" + statusCommitted
	case s.undo && s.store:
		name = "undo:store:" + s.name
	case s.undo:
		name = "undo:state:" + s.name
	case !s.store:
		name = "state:" + s.name
	}
	if err := step(name); err != nil {
		return err
	}
	path := filepath.Join(s.dir, s.name)
	if s.temp == "" {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return os.Rename(s.temp, path)
}

// unstage removes the temporary files of staged files not renamed.
func unstage(pending []staged) {
	for _, s := range pending {
		if s.temp != "" {
			os.Remove(s.temp)
		}
	}
}

// keepConflict keeps content found in a store file that matched neither image of the run.
func keepConflict(p Paths, j *journal, name string, cur []byte) error {
	keep := filepath.Join(p.State, conflictsDir, j.info.RunID)
	if err := os.MkdirAll(keep, 0o700); err != nil {
		return err
	}
	return putFile(filepath.Join(keep, name), cur, 0o600)
}

// writeArchive stores a retired memory and why it left.
func writeArchive(dir string, j *journal, r Retirement) error {
	meta := archiveMeta{RunID: j.info.RunID, Name: r.Name, Reason: r.Reason, Detail: r.Detail, Evidence: r.Evidence, Time: j.info.Time}
	if err := putFile(filepath.Join(dir, r.Name+".md"), r.Content, 0o600); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, r.Name+".json"), meta)
}

// removeTemps deletes the temporary files a killed atomic write of the run's files may have left
// (renameio names them "." + file name + random digits).
func removeTemps(p Paths, j *journal) {
	clean := func(dir string, ims []image) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			target, ok := tempOf(e.Name())
			if ok && slices.ContainsFunc(ims, func(im image) bool { return im.Name == target }) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	clean(p.Store, j.img.Store)
	clean(p.State, j.img.State)
	clean(runPath(p, j.info.RunID), []image{{Name: statusFile}})
}

// Unfinished reports a run a killed process left for Recover to finish, without touching anything
// (for read-only commands, which must not write and must not read a store mid-apply). It reads one
// marker file, so it costs the same however long the history.
func Unfinished(p Paths) (string, bool) {
	b, err := os.ReadFile(filepath.Join(p.State, openFile))
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// tempOf reports the file a temporary file of renameio's was written for: renameio names them
// "." + the target's name + random digits, beside the target.
func tempOf(name string) (target string, ok bool) {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok {
		return "", false
	}
	target = strings.TrimRight(rest, "0123456789")
	return target, target != "" && target != rest
}

// Leftovers lists the temporary files killed writes left in the store, before their rename.
func Leftovers(p Paths) []string {
	entries, err := os.ReadDir(p.Store)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		// Only names of files dreamd writes into a store qualify: topic files, MEMORY.md and
		// Claude Code's lock.
		target, ok := tempOf(e.Name())
		if e.Type().IsRegular() && ok && (strings.HasSuffix(target, ".md") || target == ClaudeLockFile) {
			out = append(out, filepath.Join(p.Store, e.Name()))
		}
	}
	return out
}

// sweepLeftovers removes them; the caller holds the lock, so no write of ours is under way.
func sweepLeftovers(p Paths) error {
	var errs []error
	for _, f := range Leftovers(p) {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
