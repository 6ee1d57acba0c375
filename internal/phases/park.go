package phases

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/store"
)

// park.go keeps a plan the retire guard refused for the person to decide on: saved as pending,
// and marked in the store's status with the material it covers, so that neither the daemon nor
// the next `run --once` pays the model again for the same answer until new sessions arrive (or
// the person applies it with --force, or discards it).

// ParkedPlan is a plan a safety guard refused, kept for the person to decide on. While the store's
// pending material is what the plan was made from, no pass sends it to the model again.
type ParkedPlan struct {
	Plan   string    `json:"plan"`   // the saved plan
	Input  string    `json:"input"`  // fingerprint of the pending material it covers
	Reason string    `json:"reason"` // why it was refused
	Since  time.Time `json:"since"`
}

// inputFingerprint identifies a store's pending material: which files, from where, how much.
func inputFingerprint(pending []PendingFile) string {
	h := sha256.New()
	for _, p := range pending {
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", p.File.Path, p.From.Offset, p.Bytes)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// parkedFor returns the store's parked plan when it still waits and covers exactly pending.
// A parked plan whose file is gone (applied or discarded) or whose material has grown no longer
// holds the store back.
func parkedFor(paths store.Paths, pending []PendingFile) (*ParkedPlan, bool) {
	st, _ := LoadStatus(paths)
	if st.Parked == nil {
		return nil, false
	}
	if _, err := os.Stat(st.Parked.Plan); err != nil || st.Parked.Input != inputFingerprint(pending) {
		return st.Parked, false
	}
	return st.Parked, true
}

// park records a refused plan so that the next passes leave its material alone. A status that
// cannot be read is not overwritten: it would lose the store's last run.
func park(paths store.Paths, planPath, reason string, pending []PendingFile, now time.Time) error {
	st, err := LoadStatus(paths)
	if err != nil {
		return err
	}
	st.Parked = &ParkedPlan{Plan: planPath, Input: inputFingerprint(pending), Reason: reason, Since: now.UTC()}
	return saveStatus(paths, st)
}

// unpark forgets a parked plan, removing its file.
func unpark(paths store.Paths, parked *ParkedPlan) error {
	if err := os.Remove(parked.Plan); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	st, err := LoadStatus(paths)
	if err != nil {
		return err
	}
	st.Parked = nil
	return saveStatus(paths, st)
}

// parkRefused saves a refused plan as pending and marks its material, so neither the daemon nor
// the next `run --once` pays the model again for the same answer.
func parkRefused(env *Env, paths store.Paths, p *Plan, pending []PendingFile, refusal error, now time.Time) error {
	path, err := savePending(p)
	if err != nil {
		return errors.Join(refusal, fmt.Errorf("the refused plan could not be kept, so the next pass asks the model again: %w", err))
	}
	if err := park(paths, path, strings.TrimPrefix(refusal.Error(), ErrRefused.Error()+": "), pending, now); err != nil {
		return errors.Join(refusal, fmt.Errorf("the refused plan is saved at %s but not marked parked, so the next pass asks the model again: %w", path, err))
	}
	return fmt.Errorf("%w\nThe plan is parked (%s): `%s` applies it, `%s` drops it; until then, or until new sessions arrive, no pass asks the model again",
		refusal, path, env.hint("apply", p.RunID, "--force"), env.hint("discard", p.RunID))
}

// parkedOutcome is the outcome of a store whose refused plan still waits for the person.
func parkedOutcome(env *Env, out Outcome, parked *ParkedPlan) Outcome {
	out.Result, out.Pending = Parked, parked.Plan
	run := strings.TrimSuffix(filepath.Base(parked.Plan), ".json")
	out.Detail = fmt.Sprintf("a refused plan waits for you (%s): `%s` applies it, `%s` drops it; the model is not asked again until then or until new sessions arrive",
		parked.Reason, env.hint("apply", run, "--force"), env.hint("discard", run))
	return out
}

// dropSuperseded drops the store's parked plan once new material arrived or the pass is forced:
// the pass about to run covers what it covered.
func dropSuperseded(env *Env, paths store.Paths, pending []PendingFile, force bool) error {
	parked, waits := parkedFor(paths, pending)
	if parked == nil || waits && !force {
		return nil
	}
	env.log().Info("the parked plan is superseded (new material, or --force) and dropped", "store", paths.Store, "plan", parked.Plan)
	if err := unpark(paths, parked); err != nil {
		return fmt.Errorf("dropping the parked plan %s: %w", parked.Plan, err)
	}
	return nil
}
