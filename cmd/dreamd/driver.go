package main

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
)

// driver is the one way a command writes stores: `run` (once and as the daemon), `apply`,
// `rollback` and `remember --now` all go through it. phases writes a store and knows nothing of
// what lies around it; the driver owns that, in one order for every writer: the team's clone
// brought up to date before a pass; after any write (a pass, an applied plan, a rollback) the
// team store's change committed and pushed (a rollback as a revert commit), the agents' memory
// blocks refreshed and the run history of every store written pruned (history.keep_*); and last,
// after a pass over every store, the quiet mark, so it digests the state the next pass finds.
type driver struct {
	cfg *config.Config
	env *phases.Env
	log *slog.Logger
}

// pass makes one pass between the team's sync and publish. A dry run neither fetches nor
// commits: it shows what the clone as it is would get.
func (d *driver) pass(ctx context.Context, opt phases.Options) ([]phases.Outcome, error) {
	env := *d.env // syncTeam may turn the team scope off for this pass only
	if !opt.DryRun {
		syncTeam(ctx, d.cfg, &env, d.log)
	}
	p, err := phases.RunPass(ctx, &env, opt)
	if !opt.DryRun {
		d.written(ctx, appliedPlans(p.Outcomes), p.Now())
	}
	p.MarkQuiet()
	return p.Outcomes, err
}

// applyPart applies the operations of p that sel accepts (all: an empty selection; see
// phases.ApplyPlanPart) and returns the plan applied; with dryRun it writes nothing. The team's
// clone is not synced first: what teammates pushed since would change the store the plan was made
// for, and the plan would be refused as stale; the commit is rebased onto their work when it is
// pushed.
func (d *driver) applyPart(ctx context.Context, p *phases.Plan, sel phases.Selection, force, dryRun bool) (*phases.Plan, error) {
	p, err := phases.ApplyPlanPart(d.env, p, sel, force, dryRun)
	if err != nil || dryRun {
		return p, err
	}
	d.written(ctx, []*phases.Plan{p}, d.env.Now())
	return p, nil
}

// rolledBack is what a rollback did.
type rolledBack struct {
	ID    string   // the rollback's own run id
	Files []string // store files restored
}

// rollback restores the store of target as it was before that run, under the store's lock; for
// the team store the rollback is a revert commit, pushed while the lock still keeps other passes
// out of the clone.
func (d *driver) rollback(ctx context.Context, target historyRow, force bool) (rolledBack, error) {
	paths := target.Paths
	lock, err := store.Acquire(paths)
	if err != nil {
		return rolledBack{}, err
	}
	defer releaseLock(d.log, lock)
	if _, err := store.Recover(paths); err != nil {
		return rolledBack{}, err
	}
	if edited, err := store.HandEdits(paths, target.RunID); err != nil {
		return rolledBack{}, err
	} else if len(edited) > 0 && !force {
		return rolledBack{}, fmt.Errorf("%w: %s changed by hand since run %s (%s); rolling back would replace those edits: rerun with --force (the rollback's own journal keeps them, and rolling the rollback back restores them)",
			phases.ErrRefused, plural(len(edited), "a file was", fmt.Sprintf("%d files were", len(edited))), target.RunID, strings.Join(edited, ", "))
	}
	now := d.env.Now()
	id := "rollback-" + phases.NewRunID(now)
	entry, err := store.Rollback(paths, target.RunID, id, now)
	if err != nil {
		return rolledBack{}, err
	}
	if err := phases.RecordRollback(paths, id, now); err != nil {
		// The rollback is committed; only `dreamd status` does not show it as the last run.
		d.log.Warn("cannot record the rollback in the store's status", "store", paths.Store, "err", err)
	}
	d.pruneHistory(paths, now)
	if sameStore(target.Store, teamStore(d.cfg)) {
		if err := revertTeam(ctx, d.cfg, target.RunID, d.log); err != nil {
			d.log.Error("team repository: the rollback is not committed", "err", err)
		}
	}
	refreshLinks(d.cfg, []string{target.Store}, d.log)
	return rolledBack{ID: id, Files: entry.Files}, nil
}

// written is everything that follows an apply: the team store's runs committed and pushed (and
// what earlier passes could not push), the agents' memory blocks of the stores written
// refreshed, and their run history pruned, at now (the pass's clock).
func (d *driver) written(ctx context.Context, applied []*phases.Plan, now time.Time) {
	publishTeam(ctx, d.cfg, slices.DeleteFunc(slices.Clone(applied), func(p *phases.Plan) bool { return !sameStore(p.Store, teamStore(d.cfg)) }), d.log)
	stores := make([]string, 0, len(applied))
	for _, p := range applied {
		stores = append(stores, p.Store)
	}
	refreshLinks(d.cfg, stores, d.log)
	for _, p := range applied {
		paths := store.Paths{Store: p.Store, State: p.State}
		lock, err := store.Acquire(paths)
		if err != nil {
			// Another run holds the store: its own apply prunes the history after it.
			d.log.Debug("run history not pruned now: the store is busy", "store", p.Store, "err", err)
			continue
		}
		d.pruneHistory(paths, now)
		releaseLock(d.log, lock)
	}
}

// pruneHistory drops the journals history.keep no longer holds from a store whose lock the
// caller holds; a failure only leaves more history than configured, so it is logged, never fatal.
func (d *driver) pruneHistory(paths store.Paths, now time.Time) {
	pr, err := store.PruneHistory(paths, keepOf(d.cfg), now)
	if err != nil {
		d.log.Warn("cannot prune the run history", "store", paths.Store, "err", err)
	} else if len(pr.Runs)+len(pr.Archives) > 0 {
		d.log.Debug("pruned the run history", "store", paths.Store, "runs", len(pr.Runs), "archives", len(pr.Archives), "bytes", pr.Bytes)
	}
}

// appliedPlans are the plans a pass applied.
func appliedPlans(outcomes []phases.Outcome) []*phases.Plan {
	var out []*phases.Plan
	for _, o := range outcomes {
		if o.Result == phases.Applied && o.Plan != nil {
			out = append(out, o.Plan)
		}
	}
	return out
}

func sameStore(a, b string) bool { return a != "" && b != "" && a == b }
