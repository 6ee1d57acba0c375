package store

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// RunKind is what a run of the history did to its store.
type RunKind string

// The kinds of run.
const (
	RunApply    RunKind = "apply"    // a plan applied (a pass, `dreamd apply`, `dreamd pin`)
	RunRollback RunKind = "rollback" // `dreamd rollback` undid earlier runs
)

// HistoryEntry is one committed run.
type HistoryEntry struct {
	RunID      string          `json:"run_id"`
	Time       time.Time       `json:"time"`
	Meta       json.RawMessage `json:"meta"`                  // as given to Apply, compacted
	Files      []string        `json:"files"`                 // store files changed
	Retired    []string        `json:"retired"`               // memories archived
	RolledBack string          `json:"rolled_back,omitempty"` // run id of the rollback that undid it
	Kind       RunKind         `json:"kind"`
	Undoes     []string        `json:"undoes,omitempty"` // rollback: the runs it undid, newest first
}

// History lists the committed runs of the store, oldest first.
func History(p Paths) ([]HistoryEntry, error) {
	runs, err := listRuns(p)
	if err != nil {
		return nil, err
	}
	var hist []HistoryEntry
	undoneBy := map[string]string{}
	for _, r := range runs {
		if r.status != statusCommitted {
			continue
		}
		for _, id := range r.info.Undoes {
			undoneBy[id] = r.id
		}
		hist = append(hist, HistoryEntry{
			RunID: r.id, Time: r.info.Time, Meta: r.info.Meta, Files: r.info.Files,
			Retired: r.info.Retired, Kind: r.info.Kind, Undoes: r.info.Undoes,
		})
	}
	for i := range hist {
		hist[i].RolledBack = undoneBy[hist[i].RunID]
	}
	return hist, nil
}

// Rollback restores the store files and State files byte for byte to what they were before
// runID ("" = the last apply not rolled back), undoing every later run too, as one transaction of
// its own (kind "rollback", id newRunID) with a journal like any run: crash safe, and the content
// it replaces, hand edits included, stays in its journal, so it can be rolled back in turn.
// The caller holds the Lock.
func Rollback(p Paths, runID string, newRunID string, now time.Time) (HistoryEntry, error) {
	hist, err := History(p)
	if err != nil {
		return HistoryEntry{}, err
	}
	i, err := rollbackTarget(p, hist, runID)
	if err != nil {
		return HistoryEntry{}, err
	}
	// Walking the runs from the newest back to the target, each run's pre-images overwrite the
	// later ones, so every file ends as it was just before the oldest run that touched it.
	storeWant, stateWant := map[string][]byte{}, map[string][]byte{}
	var undoes []string
	for k := len(hist) - 1; k >= i; k-- {
		j, err := readJournal(p, run{id: hist[k].RunID})
		if err != nil {
			return HistoryEntry{}, err
		}
		for _, im := range j.img.Store {
			storeWant[im.Name] = im.Old
		}
		for _, im := range j.img.State {
			stateWant[im.Name] = im.Old
		}
		if hist[k].RolledBack == "" {
			undoes = append(undoes, hist[k].RunID)
		}
	}
	t := Txn{RunID: newRunID, Time: now, State: stateWant}
	for _, name := range slices.Sorted(maps.Keys(storeWant)) {
		cur, err := readOptional(filepath.Join(p.Store, name))
		if err != nil {
			return HistoryEntry{}, err
		}
		t.Changes = append(t.Changes, Change{Name: name, Old: cur, New: storeWant[name]})
	}
	j, err := prepare(p, t, RunRollback, undoes)
	if err != nil {
		return HistoryEntry{}, err
	}
	if err := execute(p, j); err != nil {
		return HistoryEntry{}, err
	}
	return HistoryEntry{RunID: newRunID, Time: j.info.Time, Files: j.info.Files, Kind: RunRollback, Undoes: undoes}, nil
}

// HandEdits lists the store files whose bytes differ from what the runs from runID ("" = the last
// apply not rolled back) to the newest left in them: edits made by hand since, which a rollback
// would replace.
func HandEdits(p Paths, runID string) ([]string, error) {
	hist, err := History(p)
	if err != nil {
		return nil, err
	}
	i, err := rollbackTarget(p, hist, runID)
	if err != nil {
		return nil, err
	}
	left := map[string][]byte{}
	for k := i; k < len(hist); k++ { // oldest first: a later run's post-image wins
		j, err := readJournal(p, run{id: hist[k].RunID})
		if err != nil {
			return nil, err
		}
		for _, im := range j.img.Store {
			left[im.Name] = im.New
		}
	}
	var edited []string
	for _, name := range slices.Sorted(maps.Keys(left)) {
		cur, err := readOptional(filepath.Join(p.Store, name))
		if err != nil {
			return nil, err
		}
		if !sameImage(cur, left[name]) {
			edited = append(edited, name)
		}
	}
	return edited, nil
}

// rollbackTarget finds the index in hist of the run to roll back.
func rollbackTarget(p Paths, hist []HistoryEntry, runID string) (int, error) {
	if runID == "" {
		for i := len(hist) - 1; i >= 0; i-- {
			if hist[i].Kind == RunApply && hist[i].RolledBack == "" {
				return i, nil
			}
		}
		return 0, fmt.Errorf("no applied run to roll back")
	}
	i := slices.IndexFunc(hist, func(h HistoryEntry) bool { return h.RunID == runID })
	if i < 0 {
		return 0, prunedError(p, runID)
	}
	if hist[i].RolledBack != "" {
		return 0, fmt.Errorf("run %q was already rolled back by %s", runID, hist[i].RolledBack)
	}
	return i, nil
}

// ArchiveEntry is a retired memory kept in the archive; Path is its archived file.
type ArchiveEntry struct {
	RunID, Name, Detail string
	Reason              RetireReason
	Evidence            []string
	Time                time.Time
	Path                string
}

// Archived lists the archived memories of committed runs, oldest first. The archive outlives the
// runs' journals: a run that history.keep pruned still has its archived memories listed.
func Archived(p Paths) ([]ArchiveEntry, error) {
	runs, err := listRuns(p)
	if err != nil {
		return nil, err
	}
	status := make(map[string]string, len(runs))
	for _, r := range runs {
		status[r.id] = r.status
	}
	dirs, err := os.ReadDir(filepath.Join(p.State, archiveDir))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ArchiveEntry
	for _, d := range dirs {
		st, journaled := status[d.Name()]
		if !d.IsDir() || journaled && st != statusCommitted {
			continue // a run still under way, or undone
		}
		dir := filepath.Join(p.State, archiveDir, d.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".json")
			if !ok || strings.HasPrefix(name, ".") {
				continue
			}
			var m archiveMeta
			if err := readJSON(filepath.Join(dir, e.Name()), &m); err != nil {
				return nil, fmt.Errorf("archive of run %s: %w", d.Name(), err)
			}
			out = append(out, ArchiveEntry{
				RunID: m.RunID, Name: m.Name, Reason: m.Reason, Detail: m.Detail,
				Evidence: m.Evidence, Time: m.Time, Path: filepath.Join(dir, name+".md"),
			})
		}
	}
	slices.SortStableFunc(out, func(a, b ArchiveEntry) int { return a.Time.Compare(b.Time) })
	return out, nil
}

// RunChanges are the store files a kept run changed, as they were before and after it.
func RunChanges(p Paths, runID string) ([]Change, error) {
	if !plainName(runID) {
		return nil, fmt.Errorf("no run %q", runID)
	}
	status, err := readOptional(filepath.Join(runPath(p, runID), statusFile))
	if err != nil {
		return nil, err
	}
	if status == nil {
		return nil, fmt.Errorf("no run %s in %s (pruned after history.keep_runs / keep_days, or never applied)", runID, p.Store)
	}
	j, err := readJournal(p, run{id: runID})
	if err != nil {
		return nil, err
	}
	changes := make([]Change, 0, len(j.img.Store))
	for _, im := range j.img.Store {
		changes = append(changes, Change(im))
	}
	return changes, nil
}
