package phases

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// HistoryMeta is what a run records in the store's history.
type HistoryMeta struct {
	Summary      string        `json:"summary"`
	Consolidator string        `json:"consolidator"`
	Counts       Counts        `json:"counts"`
	Sessions     int           `json:"sessions"`
	Usage        extract.Usage `json:"usage"`
	Cost         float64       `json:"cost_usd"`
	// PlanMAC signs the plan a saved plan's apply wrote (derived again when it was applied in
	// part) with the state directory's plan key, like a saved plan: what the history says was
	// applied can be checked against the plan.
	PlanMAC string `json:"plan_mac,omitempty"`
	// Memories is how many memories the store held once the run was applied, for the web view's
	// plot of each store over time; nil in runs recorded before it was (they are not plotted).
	Memories *int `json:"memories,omitempty"`
	// Edited are the operations a person rewrote in review (Plan.Edited), by name.
	Edited []string `json:"edited,omitempty"`
}

// MemoriesAfter is how many memories a store of n memories holds once changes are applied: a topic
// file created adds one, a topic file removed takes one away (MEMORY.md is no memory).
func MemoriesAfter(n int, changes []store.Change) int {
	for _, c := range changes {
		if !strings.HasSuffix(c.Name, ".md") || c.Name == memory.IndexFile {
			continue
		}
		switch {
		case c.Old == nil && c.New != nil:
			n++
		case c.Old != nil && c.New == nil:
			n--
		}
	}
	return n
}

// commit applies a plan to a store whose lock o holds, as one journaled transaction: memory files,
// archive and cursors move together or not at all.
func commit(env *Env, o *Oriented, p *Plan) error { return commitSigned(env, o, p, "") }

// commitSigned is commit recording mac, the applied plan's signature, in the history.
func commitSigned(env *Env, o *Oriented, p *Plan, mac string) error {
	if err := sendElsewhere(env, p); err != nil {
		return err
	}
	memories := MemoriesAfter(len(o.Store.Memories), p.Changes)
	meta, _ := json.Marshal(HistoryMeta{Summary: p.Summary, Consolidator: p.Consolidator, Counts: p.Counts, Sessions: p.Counts.Sessions, Usage: p.Usage, Cost: p.Cost, PlanMAC: mac, Memories: &memories, Edited: p.Edited})
	txn := store.Txn{
		RunID:   p.RunID,
		Time:    p.Created,
		Changes: p.Changes,
		Retired: p.Retired,
		State:   cursorImages(o.Paths, o.Cursors, p.Cursors),
		Meta:    meta,
	}
	if err := store.Apply(o.Paths, txn); err != nil {
		return err
	}
	if o.Lock != nil && len(p.Changes) > 0 {
		o.Lock.Consolidated()
	}
	if err := SaveCitations(o.Paths, p.Citations); err != nil {
		env.log().Warn("the citations checked could not be recorded; the next pass checks them again", "store", o.Paths.Store, "err", err)
	}
	return saveStatus(o.Paths, Status{LastRun: p.Created, LastResult: string(Applied), LastRunID: p.RunID, LastSuccess: p.Created, LastApplied: p.RunID, Left: len(p.Deferred)})
}

// ApplyPlan applies a saved plan (ReadPlan checked its format and signature) exactly, without calling any model. It refuses (ErrStale) when the
// store or a transcript the plan covers changed since the plan was made, and applies the retire
// guard again unless forced.
func ApplyPlan(env *Env, p *Plan, force bool) error {
	_, err := ApplyPlanPart(env, p, Selection{}, force, false)
	return err
}

// ApplyPlanPart is ApplyPlan for the operations sel accepts (all of them: an empty selection):
// the plan is derived again from them (Part) and checked and applied like a whole one. It returns
// the plan applied; with dryRun it checks and returns it, writing nothing.
func ApplyPlanPart(env *Env, p *Plan, sel Selection, force, dryRun bool) (*Plan, error) {
	paths := StorePaths(env, p.Store)
	if paths.State != p.State {
		return nil, refuse("its state directory %s is not this configuration's %s (apply it with the config that made it)", p.State, paths.State)
	}
	if err := routed(env, p.Store); err != nil {
		return nil, err // before Orient, which would create the store's directory
	}
	o, err := Orient(paths, false)
	if err != nil {
		return nil, err
	}
	defer releaseLogged(env, o)
	if fp := o.Store.Fingerprint(); fp != p.StoreFingerprint {
		return nil, fmt.Errorf("%w: %s changed since the plan was made; make a new plan (dreamd plan)", store.ErrStale, p.Store)
	}
	if err := checkTranscripts(o.Cursors, p); err != nil {
		return nil, err
	}
	if !sel.Empty() {
		if p, err = Part(env, o, p, sel, force); err != nil {
			return nil, err
		}
	}
	if err := verifyPlan(env, o, p); err != nil {
		return nil, err
	}
	if err := guard(env, weighedIn(p.Retired), len(o.Store.Memories), o.Store.Dir); err != nil && !force {
		return nil, err
	}
	if dryRun {
		return p, nil
	}
	if err := commitSigned(env, o, p, signature(p)); err != nil {
		return nil, err
	}
	if err := removePending(p); err != nil {
		// Applied all the same; the file left is refused if applied again (its run exists).
		env.log().Warn("cannot remove the applied plan from the pending plans", "store", p.Store, "err", err)
	}
	return p, nil
}

// checkTranscripts refuses a plan whose transcripts no longer hold the bytes it consolidated, or
// whose cursors another pass has moved since.
func checkTranscripts(cur Cursors, p *Plan) error {
	for _, r := range p.Read {
		f, err := fileAt(r.Path, r.Kind)
		if err != nil {
			if cur[r.Path] != r.From {
				return fmt.Errorf("%w: %s was consolidated by another pass since the plan was made; make a new plan", store.ErrStale, r.Path)
			}
			return fmt.Errorf("%w: %s: %v", store.ErrStale, r.Path, err)
		}
		if !resumesAt(f, cur[r.Path], r.From) {
			return fmt.Errorf("%w: %s was consolidated by another pass since the plan was made; make a new plan", store.ErrStale, r.Path)
		}
		if from, _, err := transcript.Resume(f, r.To); err != nil || from != r.To {
			return fmt.Errorf("%w: %s was truncated or replaced since the plan was made; make a new plan", store.ErrStale, r.Path)
		}
		if tail, err := tailHash(r.Kind, r.Path, r.To); err != nil || tail != p.Tails[r.Path] {
			return fmt.Errorf("%w: %s changed since the plan was made; make a new plan", store.ErrStale, r.Path)
		}
	}
	return nil
}

// resumesAt reports whether a read of f from the stored cursor c starts where the plan's read did,
// from. A read does not always start at the stored cursor: one left at the start to be offered
// again, or of a file replaced since, starts afresh (transcript.Resume), without the session,
// project and offers the stored cursor keeps; a cursor another pass moved since resumes elsewhere
// (or counts one more offer).
func resumesAt(f transcript.File, c, from transcript.Cursor) bool {
	if c == from {
		return true
	}
	at, _, err := transcript.Resume(f, c)
	return err == nil && at == from
}

// fileAt is the transcript at path as discovery lists it: a file, or a session in an agent's
// database.
func fileAt(path, kind string) (transcript.File, error) { return transcript.StatSession(kind, path) }

// tails fingerprints the end of what each transcript was read to, from the read itself where it
// took one (a new file costs no second open).
func tails(read []FileRead) (map[string]string, error) {
	out := make(map[string]string, len(read))
	for _, r := range read {
		h := r.tail
		if h == "" {
			var err error
			if h, err = tailHash(r.Kind, r.Path, r.To); err != nil {
				return nil, err
			}
		}
		out[r.Path] = h
	}
	return out, nil
}

// tailHash fingerprints what a transcript was read to (see transcript.SessionTail).
func tailHash(kind, path string, to transcript.Cursor) (string, error) {
	return transcript.SessionTail(kind, path, to)
}

// savePending stores a plan for review under the store's state directory, replacing older pending
// plans of that store (the newest covers at least the same material).
func savePending(p *Plan) (string, error) {
	dir := filepath.Join(p.State, pendingDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.json")) // fails only for a malformed pattern
	path := filepath.Join(dir, p.RunID+".json")
	if err := WritePlan(path, p, filepath.Dir(filepath.Dir(p.State))); err != nil {
		return "", err
	}
	for _, o := range old {
		if o != path {
			// An older plan left behind is harmless: applying it is refused as stale, since
			// the newest covers the same material.
			_ = os.Remove(o)
		}
	}
	return path, nil
}

func removePending(p *Plan) error {
	err := os.Remove(filepath.Join(p.State, pendingDir, p.RunID+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil // applied from a file elsewhere
	}
	return err
}

// PendingPlans lists the plans waiting for review in a store's state directory.
func PendingPlans(paths store.Paths) []string {
	files, _ := filepath.Glob(filepath.Join(paths.State, pendingDir, "*.json")) // fails only for a malformed pattern
	slices.Sort(files)
	return files
}

// sendElsewhere queues the plan's memories for another scope's store (the user's, the team's)
// as notes of that store's own source, for its next pass. It runs before the plan's own changes
// are committed, with names fixed by the run: a crash in between leaves a moved memory in both
// stores (the other store's pass merges the repeat), never in neither.
func sendElsewhere(env *Env, p *Plan) error {
	for _, op := range p.Elsewhere {
		if env.queue(op.Scope) == "" {
			return refuse("the plan sends %q to a %s store, which this configuration has none of", op.Name, op.Scope)
		}
	}
	for i, op := range p.Elsewhere {
		n := transcript.Note{Project: evidenceProject(p, op), Type: string(op.Type), Text: noteText(op), Time: p.Created, Origin: originOf(p, op)}
		if _, err := transcript.WriteNoteAs(env.queue(op.Scope), fmt.Sprintf("%s-%02d", p.RunID, i), n); err != nil {
			return fmt.Errorf("sending %q to the %s store: %w", op.Name, op.Scope, err)
		}
	}
	return nil
}

// noteText is what a memory sent to another store says there: its body, the whole lesson. The
// description goes first only when it adds to the body and is whole: a description shortened to
// fit its index line ends in "…" mid-sentence, and the other store's pass would read that
// fragment as a statement of its own and keep it in place of the lesson.
func noteText(op extract.Operation) string {
	body, desc := strings.TrimSpace(op.Body), strings.TrimSpace(op.Description)
	if desc == "" || strings.HasSuffix(desc, "…") || strings.Contains(body, strings.TrimRight(desc, ".")) {
		return cmp.Or(body, desc)
	}
	if body == "" {
		return desc
	}
	return desc + "\n\n" + body
}

// evidenceProject is the project of the first session op names as evidence; when it names none
// of the plan's sessions (no evidence, or an id the model made up), the project of the first
// session the plan read, so the note still says where it was learnt.
func evidenceProject(p *Plan, op extract.Operation) string {
	first := ""
	for _, r := range p.Read {
		for _, s := range r.Sessions {
			if slices.Contains(op.Evidence, s.ID) {
				return s.Project
			}
			first = cmp.Or(first, s.Project)
		}
	}
	return first
}
