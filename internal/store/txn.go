// Transactions: how a run's changes reach the store so that a process killed at any instant leaves
// it exactly as before or exactly as after once Recover has run, and nothing is ever destroyed.
//
// Everything of the transaction lives in the store's state directory (Paths.State):
//
//	runs/<run-id>/images.json.gz  the journal (gzip'd JSON): pre- and post-image of every store file and State file
//	                            the run changes (JSON null = absent), and the retired memories
//	runs/<run-id>/run.json      the summary History reads: kind, sequence number, time, files,
//	                            retired names, runs undone (rollbacks), the caller's Meta
//	runs/<run-id>/status        "applying", "aborting" or "committed"; no status: an incomplete
//	                            journal, discarded by Recover
//	archive/<run-id>/<name>.md  a retired memory as it was, and <name>.json: reason, detail,
//	                            evidence, time
//	conflicts/<run-id>/<file>   content found in the store that matched neither image of a file
//	                            the run was about to replace (a write that raced the run)
//
// Apply validates, writes the journal and fsyncs it, marks the run "applying", then writes the
// archive, stages every new store file, State file and the "committed" status beside its target
// under a temporary name (fsynced), and only then renames them over their targets, the status
// last, and fsyncs their directories. Everything that takes space happens before the first rename,
// so a full disk stops a run while nothing is in place yet; undoing it then only removes files
// (the status first, which makes the run an incomplete journal, then the run and its archive).
// Every step only puts an image from the journal in place, so repeating it is harmless: Recover
// rolls an "applying" run forward. When a rename fails for real (not a crash), Apply marks the run
// "aborting", puts the pre-images back the same two-halved way, removes the run and its archive,
// and returns the error; Recover finishes an interrupted abort the same way.
// A rollback is such a transaction too, whose post-images are an older run's pre-images.

package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Txn is what one run writes.
type Txn struct {
	RunID   string
	Time    time.Time
	Changes []Change          // store files (Name relative to Store; only plain file names allowed)
	Retired []Retirement      // go to the archive with run id, reason, evidence
	State   map[string][]byte // files in Paths.State to replace in the same transaction; nil deletes
	Meta    json.RawMessage   // the run's summary for history (opaque to store)
}

// ErrStale means a Change's Old no longer matches the file on disk: it was edited since the plan.
var ErrStale = errors.New("store changed since the plan")

// ErrReplayed means a run of the same id is in the store's history: the plan it came from was
// applied already (and maybe rolled back since), and a plan is applied once.
var ErrReplayed = errors.New("plan already applied")

// reserved are the names in the state directory that State files may not use.
var reserved = []string{lockFile, ownerFile, runsDir, archiveDir, conflictsDir, openFile}

// Apply writes t to the store as one transaction (see the top of this file). The caller holds the
// Lock. It first validates everything and writes nothing when: a name is not a plain file name
// (store files must also end in ".md"), a retirement does not name a deleted file, a Change's
// Old differs from the file on disk (ErrStale, naming the file), or an earlier run is unfinished.
//
// A Retirement names the memory (stem or file name) of a Change whose New is nil; its archived
// content is that Change's Old.
func Apply(p Paths, t Txn) error {
	j, err := prepare(p, t, RunApply, nil)
	if err != nil {
		return err
	}
	return execute(p, j)
}

// prepare validates t against the disk and builds its journal.
func prepare(p Paths, t Txn, kind RunKind, undoes []string) (*journal, error) {
	if !plainName(t.RunID) {
		return nil, fmt.Errorf("run id %q is not a plain name", t.RunID)
	}
	if len(t.Meta) > 0 && !json.Valid(t.Meta) {
		return nil, fmt.Errorf("run %s: meta is not valid JSON", t.RunID)
	}
	runs, err := listRuns(p)
	if err != nil {
		return nil, err
	}
	seq := 0
	for _, r := range runs {
		if r.status != statusCommitted {
			return nil, fmt.Errorf("run %s is unfinished: Recover first", r.id)
		}
		if r.id == t.RunID {
			return nil, fmt.Errorf("%w: run %s is in the history (dreamd history), whether rolled back since or not; make a new plan (dreamd plan)", ErrReplayed, t.RunID)
		}
		seq = max(seq, r.info.Seq)
	}
	store, err := storeImages(p, t.Changes)
	if err != nil {
		return nil, err
	}
	retired, err := retirements(t.Retired, t.Changes)
	if err != nil {
		return nil, err
	}
	state, err := stateImages(p, t.State)
	if err != nil {
		return nil, err
	}
	if t.Time.IsZero() {
		t.Time = time.Now()
	}
	j := &journal{
		info: runInfo{RunID: t.RunID, Kind: kind, Seq: seq + 1, Time: t.Time, Undoes: undoes, Meta: t.Meta},
		img:  images{Store: store, State: state, Retired: retired},
	}
	for _, im := range store {
		j.info.Files = append(j.info.Files, im.Name)
	}
	for _, r := range retired {
		j.info.Retired = append(j.info.Retired, r.Name)
	}
	return j, nil
}

// storeImages checks the changes against the store and keeps those that change something.
func storeImages(p Paths, changes []Change) ([]image, error) {
	var out []image
	seen := map[string]bool{}
	for _, c := range changes {
		if !plainName(c.Name) || !strings.HasSuffix(c.Name, ".md") {
			return nil, fmt.Errorf("change of %q: not a plain .md file name inside the store", c.Name)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("change of %q: listed twice", c.Name)
		}
		seen[c.Name] = true
		cur, err := readOptional(filepath.Join(p.Store, c.Name))
		if err != nil {
			return nil, err
		}
		if !sameImage(cur, c.Old) {
			return nil, fmt.Errorf("%w: %s", ErrStale, c.Name)
		}
		if !sameImage(c.Old, c.New) {
			out = append(out, image(c))
		}
	}
	slices.SortFunc(out, func(a, b image) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// retirements matches each retirement with the change deleting its file (for a memory Rewritten,
// the change rewriting it) and takes the archived content from it.
func retirements(rs []Retirement, changes []Change) ([]Retirement, error) {
	var out []Retirement
	seen := map[string]bool{}
	for _, r := range rs {
		name := strings.TrimSuffix(r.Name, ".md")
		i := slices.IndexFunc(changes, func(c Change) bool { return c.Name == name+".md" })
		if i < 0 || changes[i].Old == nil || (changes[i].New != nil) != (r.Reason == Rewritten) {
			return nil, fmt.Errorf("retirement of %q: no change deletes %s.md", r.Name, name)
		}
		if r.Content != nil && !sameImage(r.Content, changes[i].Old) {
			return nil, fmt.Errorf("retirement of %q: its content differs from the file it deletes", r.Name)
		}
		if seen[name] {
			return nil, fmt.Errorf("retirement of %q: listed twice", r.Name)
		}
		seen[name] = true
		r.Name = name
		r.Content = changes[i].Old
		out = append(out, r)
	}
	return out, nil
}

// stateImages pairs each State file with its current bytes.
func stateImages(p Paths, files map[string][]byte) ([]image, error) {
	var out []image
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !plainName(name) || slices.Contains(reserved, name) {
			return nil, fmt.Errorf("state file %q: not a plain name free for state", name)
		}
		cur, err := readOptional(filepath.Join(p.State, name))
		if err != nil {
			return nil, err
		}
		if !sameImage(cur, files[name]) {
			out = append(out, image{Name: name, Old: cur, New: files[name]})
		}
	}
	return out, nil
}

// execute runs a prepared journal through its steps, between marking the run open and settled.
// The marker comes off only once the run is committed or completely undone; a crash, or an undo
// that failed part-way, leaves it for Recover.
func execute(p Paths, j *journal) error {
	if err := markOpen(p, j.info.RunID); err != nil {
		return err
	}
	settled, err := carryOut(p, j)
	if settled {
		// Best effort: the run is settled, and a marker left behind only makes the next
		// command run Recover, which clears it.
		_ = markSettled(p)
	}
	return err
}

// carryOut writes the journal and applies it, undoing it on a real failure. settled reports that
// the run ended committed or completely undone.
func carryOut(p Paths, j *journal) (settled bool, err error) {
	if err := writeJournal(p, j); err != nil {
		if errors.Is(err, errCrash) {
			return false, err
		}
		undo := os.RemoveAll(runPath(p, j.info.RunID))
		return undo == nil, errors.Join(err, undo)
	}
	if err := markStatus(p, j.info.RunID, statusApplying); err != nil {
		if errors.Is(err, errCrash) {
			return false, err
		}
		undo := discard(p, j.info.RunID)
		return undo == nil, errors.Join(err, undo)
	}
	err = forward(p, j) // ends by marking the run committed
	if err == nil {
		refreshRunIndex(p)
		return true, nil
	}
	if errors.Is(err, errCrash) {
		return false, err
	}
	var undo error
	if errors.Is(err, errUnplaced) {
		undo = unmark(p, j.info.RunID) // nothing to put back: no write, so a full disk cannot stop it
	} else {
		undo = abort(p, j)
	}
	return undo == nil, errors.Join(err, undo)
}

// unmark undoes a run that put nothing in place: without its status the run is an incomplete
// journal, which Recover discards if discarding it now is interrupted.
func unmark(p Paths, id string) error {
	if err := step("unmark"); err != nil {
		return err
	}
	dir := runPath(p, id)
	if err := os.Remove(filepath.Join(dir, statusFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	return discard(p, id)
}

// abort undoes a run whose forward steps failed; it returns what went wrong while undoing.
func abort(p Paths, j *journal) error {
	if err := markStatus(p, j.info.RunID, statusAborting); err != nil {
		return err
	}
	if err := backward(p, j); err != nil {
		return err
	}
	return discard(p, j.info.RunID)
}
