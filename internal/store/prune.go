package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Keep says which runs' journals and pre-images a store keeps: the newest Runs runs and every run
// younger than Age, whichever keeps more. The archive is never pruned: it is the promise that no
// memory is lost, and it is small.
type Keep struct {
	Runs int
	Age  time.Duration
}

// Pruned is what PruneHistory removed.
type Pruned struct {
	Runs  []string
	Bytes int64
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
		return out, syncDir(filepath.Join(p.State, runsDir))
	}
	return out, nil
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
