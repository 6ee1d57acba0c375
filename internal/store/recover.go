package store

import (
	"errors"
	"fmt"
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
	if err := markStatus(p, r.id, statusCommitted); err != nil {
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

// forward puts the run's post-images in place: archive, store files, State files.
func forward(p Paths, j *journal) error {
	if len(j.img.Retired) > 0 {
		dir := filepath.Join(p.State, archiveDir, j.info.RunID)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		for _, r := range j.img.Retired {
			if err := step("archive:" + r.Name); err != nil {
				return err
			}
			if err := writeArchive(dir, j, r); err != nil {
				return err
			}
		}
		if err := errors.Join(syncDir(dir), syncDir(filepath.Dir(dir))); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(p.Store, 0o755); err != nil {
		return err
	}
	for _, im := range j.img.Store {
		if err := step("store:" + im.Name); err != nil {
			return err
		}
		if err := replace(p, j, im.Name, im.Old, im.New); err != nil {
			return err
		}
	}
	if err := syncDir(p.Store); err != nil {
		return err
	}
	for _, im := range j.img.State {
		if err := step("state:" + im.Name); err != nil {
			return err
		}
		if err := putFile(filepath.Join(p.State, im.Name), im.New, 0o600); err != nil {
			return err
		}
	}
	return syncDir(p.State)
}

// backward puts the run's pre-images back, State files first (the reverse of forward); the
// archive goes with the run when it is discarded.
func backward(p Paths, j *journal) error {
	for _, im := range j.img.State {
		if err := step("undo:state:" + im.Name); err != nil {
			return err
		}
		if err := putFile(filepath.Join(p.State, im.Name), im.Old, 0o600); err != nil {
			return err
		}
	}
	if err := syncDir(p.State); err != nil {
		return err
	}
	for _, im := range j.img.Store {
		if err := step("undo:store:" + im.Name); err != nil {
			return err
		}
		if err := replace(p, j, im.Name, im.New, im.Old); err != nil {
			return err
		}
	}
	return syncDir(p.Store)
}

// replace puts want in place of a store file expected to hold have or want. Content that is
// neither was written by someone else meanwhile; it is kept under conflicts/ before being replaced.
func replace(p Paths, j *journal, name string, have, want []byte) error {
	path := filepath.Join(p.Store, name)
	cur, err := readOptional(path)
	if err != nil {
		return err
	}
	if sameImage(cur, want) {
		return nil
	}
	if cur != nil && !sameImage(cur, have) {
		keep := filepath.Join(p.State, conflictsDir, j.info.RunID)
		if err := os.MkdirAll(keep, 0o700); err != nil {
			return err
		}
		if err := putFile(filepath.Join(keep, name), cur, 0o600); err != nil {
			return err
		}
	}
	return putFile(path, want, 0o644)
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
