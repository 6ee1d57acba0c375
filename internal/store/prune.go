package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Keep says which runs' journals and pre-images a store keeps: the newest Runs runs and every run
// younger than Age, whichever keeps more; and how long the archive keeps a retired memory.
type Keep struct {
	Runs int
	Age  time.Duration
	// ArchiveAge is how old a run must be before its archived memories go, once its journal is
	// gone too; 0 keeps them forever, the default: the archive is the promise that no memory is
	// lost.
	ArchiveAge time.Duration
}

// Pruned is what PruneHistory removed: runs' journals, and runs' archived memories.
type Pruned struct {
	Runs     []string
	Archives []string
	Bytes    int64
}

// ErrPruned marks a rollback to a run whose journal history.keep removed.
var ErrPruned = errors.New("the run's journal was pruned by history.keep")

// PruneHistory removes the journals of the settled runs that keep does not hold, oldest first. A
// rollback walks back from the newest run, so the runs it needs are always the ones kept. The
// caller holds the store's lock.
func PruneHistory(p Paths, keep Keep, now time.Time) (Pruned, error) {
	var out Pruned
	runs, err := listRuns(p)
	if err != nil {
		return out, err
	}
	var settled []run
	for _, r := range runs {
		if r.status == statusCommitted {
			settled = append(settled, r)
		}
	}
	for i, r := range settled {
		young := !r.info.Time.IsZero() && now.Sub(r.info.Time) < keep.Age
		if len(settled)-i <= keep.Runs || young {
			break // this one and all newer ones stay
		}
		dir := runPath(p, r.id)
		out.Bytes += dirSize(dir)
		if err := os.RemoveAll(dir); err != nil {
			return out, err
		}
		out.Runs = append(out.Runs, r.id)
	}
	if len(out.Runs) > 0 {
		refreshRunIndex(p)
		if err := syncDir(filepath.Join(p.State, runsDir)); err != nil {
			return out, err
		}
	}
	if keep.ArchiveAge <= 0 {
		return out, nil
	}
	kept := make(map[string]bool, len(runs))
	for _, r := range runs {
		kept[r.id] = !slices.Contains(out.Runs, r.id)
	}
	return out, pruneArchive(p, kept, now.Add(-keep.ArchiveAge), &out)
}

// pruneArchive removes the archived memories of the runs before cutoff whose journals are gone:
// a run still in the history keeps its archive, whatever its age.
func pruneArchive(p Paths, kept map[string]bool, cutoff time.Time, out *Pruned) error {
	dir := filepath.Join(p.State, archiveDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() || kept[e.Name()] {
			continue
		}
		if at, ok := archiveTime(filepath.Join(dir, e.Name())); !ok || !at.Before(cutoff) {
			continue // young enough, or of no known time: kept
		}
		out.Bytes += dirSize(filepath.Join(dir, e.Name()))
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
		out.Archives = append(out.Archives, e.Name())
	}
	if len(out.Archives) > 0 {
		return syncDir(dir)
	}
	return nil
}

// archiveTime is when the run that archived the memories in dir was applied, from the first of
// their records.
func archiveTime(dir string) (time.Time, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return time.Time{}, false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			var m archiveMeta
			if err := readJSON(filepath.Join(dir, e.Name()), &m); err != nil || m.Time.IsZero() {
				return time.Time{}, false
			}
			return m.Time, true
		}
	}
	return time.Time{}, false
}

// StateSize is how many bytes a store's state directory holds.
func StateSize(p Paths) int64 { return dirSize(p.State) }

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// prunedError says a run is not in the history any more, when its archive shows it once was.
func prunedError(p Paths, runID string) error {
	if _, err := os.Stat(filepath.Join(p.State, archiveDir, runID)); err == nil {
		return fmt.Errorf("%w: run %s is older than the runs kept (its archived memories are still in the archive)", ErrPruned, runID)
	}
	return fmt.Errorf("run %q is not in the history", runID)
}
