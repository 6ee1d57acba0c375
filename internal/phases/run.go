package phases

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// ErrRefused marks a pass a safety guard stopped (exit code 4).
var ErrRefused = errors.New("refused by a safety guard")

// Options shape one pass.
type Options struct {
	DryRun bool   // plan and report; write nothing at all
	Review bool   // leave the plan pending instead of applying it (apply: review)
	Force  bool   // apply even when the retire guard would refuse
	Store  string // only this store ("" = all)
	// Gates, when set, decide per store whether to consolidate now (the daemon's gates).
	Gates *Gates
}

// Outcome is what one pass did to one store.
type Outcome struct {
	Store   string
	Result  Result
	Detail  string
	Plan    *Plan    // nil when nothing was planned
	Pending string   // path of the saved plan (review)
	Gate    *Verdict // Gated: the gate that is closed and when it opens
	Err     error
}

// Result is how a pass ended for one store; reports and logs show it as it is written.
type Result string

// The results of a pass.
const (
	Applied       Result = "applied"
	DryRun        Result = "dry run"
	PendingReview Result = "pending review" // apply: review; the plan waits in Pending
	Planned       Result = "planned"        // `dreamd plan` saved the plan to Pending
	Parked        Result = "parked"         // a guard refused the plan earlier; it waits in Pending
	NothingNew    Result = "nothing new"
	Gated         Result = "gated" // a gate kept the store closed; Detail says which
	Failed        Result = "failed"
	Refused       Result = "refused"     // a safety guard refused the plan
	Busy          Result = "busy"        // another run holds the store's lock
	RolledBack    Result = "rolled back" // not a pass's: `dreamd rollback` restored the store (its status says so)
)

// Run makes one pass over every store with new material (see RunPass) and returns its outcomes.
// It records no quiet mark: what writes stores for a person goes through the driver
// (cmd/dreamd/driver.go), which marks the pass quiet once everything around it is done.
func Run(ctx context.Context, env *Env, opt Options) ([]Outcome, error) {
	p, err := RunPass(ctx, env, opt)
	return p.Outcomes, err
}

// Pass is one pass made: its outcomes, and what the quiet mark needs of it.
type Pass struct {
	Outcomes []Outcome
	env      *Env // with the pass's clock
	whole    bool // every store was asked for, and not a dry run, and the pass was not cancelled
	held     bool // the quiet mark held: the pass ended at the listing
	// files digests the listing (filesDigest) for the quiet mark, taken when the pass may record
	// one: the listing itself (a File per transcript) is not held through the pass.
	files string
	// projects are those whose SpecStory folders the listing looked in (exportProjects).
	projects []string
}

// RunPass makes one pass over every store with new material: for each, orient → gather and
// consolidate → decide → render, then the plan is applied (or stops there for dry runs and
// reviews). A failing store does not stop the others; the first error is returned after all were
// tried. The Pass is never nil.
func RunPass(ctx context.Context, env *Env, opt Options) (*Pass, error) {
	env = env.stopped()
	p := &Pass{env: env}
	whole := opt.Store == ""
	var mark *quietMark
	if whole {
		mark = readQuiet(env)
	}
	targets, listed, quiet, err := look(ctx, env, mark)
	if whole && !opt.DryRun && err == nil && quiet == nil {
		p.files, p.projects = filesDigest(env, listed), exportProjects(listed)
	}
	if err != nil || quiet != nil {
		p.Outcomes, p.held = quiet, quiet != nil
		return p, err
	}
	if !whole {
		targets = slices.DeleteFunc(targets, func(t Target) bool { return t.Paths.Store != opt.Store })
	}
	// The user's and the team's stores go last: what the projects' passes send them now is part
	// of their material.
	var projects, scopes []Target
	for _, t := range targets {
		if env.ScopeOf(t.Paths.Store) == memory.ScopeProject {
			projects = append(projects, t)
		} else {
			scopes = append(scopes, t)
		}
	}
	targets = nil // runTargets lets go of each project's file list once its pass is made
	p.Outcomes = runTargets(ctx, env, projects, opt)
	if p.Outcomes, err = runScopes(ctx, env, opt, scopes, p.Outcomes); err != nil {
		return p, err
	}
	p.whole = whole && !opt.DryRun && ctx.Err() == nil
	// A store's failure is in its outcome, which the caller reports (the report, the daemon's
	// log): it is not logged here as well.
	var first error
	for _, out := range p.Outcomes {
		if out.Err != nil {
			first = cmp.Or(first, out.Err)
		}
	}
	if ctx.Err() != nil {
		return p, ctx.Err()
	}
	return p, first
}

// Now is the pass's one reading of the clock: what its plans were made at.
func (p *Pass) Now() time.Time { return p.env.now() }

// MarkQuiet records the quiet mark after a pass over every store that left nothing to do, or
// drops it after any other (quiet.go). The driver calls it last, after what follows a write (the
// team's commit, the links, the history pruned): the mark digests the stores' state as the next
// pass will find it. A pass for one store, a dry run, a cancelled pass or one the mark already
// held leaves the mark as it is.
func (p *Pass) MarkQuiet() {
	if !p.whole || p.held {
		return
	}
	if appliedAll(p.Outcomes) {
		// What was applied may have consumed everything: look again, as the next pass would,
		// so that pass already finds the quiet mark.
		files, projects, outcomes := recheck(p.env)
		markQuiet(p.env, files, projects, outcomes)
		return
	}
	markQuiet(p.env, p.files, p.projects, p.Outcomes)
}

// look lists the sources and routes their transcripts. With a quiet mark that still holds it
// stops at the listing and returns the quiet outcomes instead.
func look(ctx context.Context, env *Env, mark *quietMark) ([]Target, []listedSource, []Outcome, error) {
	if mark == nil {
		targets, _, listed, err := discover(ctx, env)
		return targets, listed, nil, err
	}
	listed, err := listSources(env)
	if err != nil {
		return nil, nil, nil, err
	}
	if env.SpecStory {
		// The projects the mark's pass looked in, looked in again: the digest covers them.
		if out, quiet := quietOutcomes(env, mark, append(slices.Clip(listed), projectExports(mark.Projects, listed)...)); quiet {
			return nil, listed, out, nil
		}
	} else if out, quiet := quietOutcomes(env, mark, listed); quiet {
		return nil, listed, out, nil
	}
	known, cursors := knownRoutes(env.StateDir)
	targets, _, listed, err := withExports(ctx, env, listed, known, cursors)
	return targets, listed, nil, err
}

// runScopes makes the passes of the user's and the team's stores, after the projects': a store
// the projects just sent memories to is discovered again, with what they sent, and passes in
// this run whatever the run was asked to consolidate (--store, remember --now) and whatever its
// gates say: the projects' passes that sent them passed theirs, and a memory sent must not wait
// in a queue no pass looks at.
func runScopes(ctx context.Context, env *Env, opt Options, targets []Target, outcomes []Outcome) ([]Outcome, error) {
	for _, sc := range []struct {
		scope memory.Scope
		dir   string
	}{{memory.ScopeUser, env.UserStore}, {memory.ScopeTeam, env.TeamStore}} {
		if sc.dir == "" || ctx.Err() != nil {
			continue
		}
		sent := sentTo(outcomes, sc.scope)
		if !sent && opt.Store != "" && opt.Store != sc.dir {
			continue
		}
		var target *Target
		if i := slices.IndexFunc(targets, func(t Target) bool { return t.Paths.Store == sc.dir }); i >= 0 {
			target = &targets[i]
		}
		scopeOpt := opt
		if sent {
			var err error
			if target, err = targetOf(env, sc.dir); err != nil {
				return outcomes, err
			}
			scopeOpt.Gates = nil
		}
		if target != nil {
			outcomes = append(outcomes, runStore(ctx, env, *target, scopeOpt))
		}
	}
	return outcomes, nil
}

// sentTo reports whether an applied pass queued memories for the store of scope.
func sentTo(outcomes []Outcome, scope memory.Scope) bool {
	return slices.ContainsFunc(outcomes, func(o Outcome) bool {
		return o.Result == Applied && o.Plan != nil && slices.ContainsFunc(o.Plan.Elsewhere, func(op extract.Operation) bool { return op.Scope == scope })
	})
}

// targetOf discovers the one store dir from the sources that route only to it (its queue),
// without listing every transcript or reading any other store's cursors again.
func targetOf(env *Env, dir string) (*Target, error) {
	e := *env
	e.Sources = slices.DeleteFunc(slices.Clone(env.Sources), func(s transcript.Source) bool { return s.Store != dir })
	listed, err := listSources(&e)
	if err != nil {
		return nil, err
	}
	cursors, err := LoadCursors(StorePaths(env, dir))
	if err != nil {
		return nil, err
	}
	targets, _, err := routeListed(context.Background(), &e, listed, nil, map[string]Cursors{dir: cursors})
	if err != nil || len(targets) == 0 {
		return nil, err
	}
	return &targets[0], nil
}

// runTargets makes the pass of each target. Stores are independent (each has its own lock, state
// and call). With a model most of a store's time is the call, so llm.concurrency of them run at
// once (the client bounds the calls in flight to the same number); offline the work is all CPU,
// so two at a time keep the cores busy. Outcomes keep the targets' order.
func runTargets(ctx context.Context, env *Env, targets []Target, opt Options) []Outcome {
	outcomes := make([]Outcome, len(targets))
	var wg sync.WaitGroup
	sem := make(chan struct{}, cmp.Or(env.Concurrency, min(runtime.GOMAXPROCS(0), 2)))
	for i, t := range targets {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if ctx.Err() != nil {
				outcomes[i] = fail(Outcome{Store: t.Paths.Store}, ctx.Err())
				return
			}
			outcomes[i] = runStore(ctx, env, t, opt)
			// A first pass lists a Tracked per transcript: each store's go once it is done, as
			// the outcomes that take their place in memory grow.
			targets[i].Files = nil
		})
	}
	wg.Wait()
	return outcomes
}

func runStore(ctx context.Context, env *Env, t Target, opt Options) Outcome {
	if out, done := quickCheck(env, t, opt); done {
		return out
	}
	out := passStore(ctx, env, t, opt)
	if out.Err != nil && !opt.DryRun && !errors.Is(out.Err, store.ErrBusy) {
		if err := recordFailure(t.Paths, out, env.now()); err != nil {
			env.log().Warn("cannot record the failure in the store's status (dreamd status will not show it)", "store", t.Paths.Store, "err", err)
		}
	}
	return out
}

// quickCheck decides from the cursors alone whether a store has anything to do, so an hourly pass
// over a quiet machine costs a stat per transcript: no lock, no store load. It also applies the
// gates.
func quickCheck(env *Env, t Target, opt Options) (Outcome, bool) {
	out := Outcome{Store: t.Paths.Store}
	cursors, err := t.ReadCursors()
	if err != nil {
		return fail(out, err), true
	}
	pending, err := Pending(t, cursors)
	if err != nil {
		return fail(out, err), true
	}
	// Nothing to do is said as such, gates or not: a gate holds back only material that waits.
	if _, unfinished := store.Unfinished(t.Paths); len(pending) == 0 && !unfinished {
		out.Result = NothingNew
		return out, true
	}
	if opt.Gates != nil {
		if v := opt.Gates.Check(ActivityOf(t, len(pending)), env.now()); !v.Open {
			out.Result, out.Detail, out.Gate = Gated, v.Reason, &v
			return out, true
		}
	}
	if parked, waits := parkedFor(t.Paths, pending); waits && !opt.Force {
		return parkedOutcome(env, out, parked), true
	}
	return out, false
}

// passStore is one store's pass under its lock: orient, gather and consolidate, decide, render,
// then deliver the plan (or park it when the guard refuses it).
func passStore(ctx context.Context, env *Env, t Target, opt Options) Outcome {
	out := Outcome{Store: t.Paths.Store}
	o, err := Orient(t.Paths, opt.DryRun)
	if err != nil {
		return fail(out, err)
	}
	defer releaseLogged(env, o)
	pending, err := Pending(t, o.Cursors) // again, under the lock
	if err != nil {
		return fail(out, err)
	}
	if len(pending) == 0 {
		out.Result = NothingNew
		return out
	}
	if !opt.DryRun {
		if err := dropSuperseded(env, t.Paths, pending, opt.Force); err != nil {
			return fail(out, err)
		}
	}
	cites := newChecker(env, t, o.Paths)
	cites.mark(o.Store.Memories)
	log := env.log().With("store", t.Paths.Store)
	log.Debug("gathering", "files", len(pending))
	g, c, err := gatherAndConsolidate(ctx, env, o, pending)
	if err != nil {
		return fail(out, err)
	}
	for _, w := range g.Warnings {
		log.Warn(w)
	}
	now := env.now()
	used := lastUsed(env, o, g.Sessions, opt.DryRun)
	d := Decide(env, o.Store, c.Operations, c.Elsewhere, g.Sessions, used, now, opt.Force)
	cites.mark(d.Next)
	p := MakePlan(env, o, g, c, d, Render(env, o.Store, d), now)
	p.Citations, p.Stale = cites.record(d.Next), staleOf(d.Next)
	if p.Tails, err = tails(p.Read); err != nil {
		return fail(out, err)
	}
	out.Plan = p
	if p.Counts.Sessions == 0 && p.Empty() && !opt.DryRun {
		// Nothing in the new material was a session (sub-threads, records that are not
		// conversation): the cursors move past it, and no run is recorded, no store folder made.
		if err := saveCursors(o.Paths, o.Cursors, p.Cursors); err != nil {
			return fail(out, err)
		}
		out.Result, out.Detail, out.Plan = NothingNew, fmt.Sprintf("%d transcript files held no session to consolidate", len(p.Read)), nil
		return out
	}
	if d.Refusal != nil {
		err := d.Refusal
		if !opt.DryRun {
			err = parkRefused(env, t.Paths, p, pending, err, p.Created)
		}
		return fail(out, err)
	}
	return deliver(env, o, p, opt, out)
}

// deliver stops at the plan for dry runs, saves it for review, or applies it.
func deliver(env *Env, o *Oriented, p *Plan, opt Options, out Outcome) Outcome {
	switch {
	case opt.DryRun:
		out.Result = DryRun
	case opt.Review:
		path, err := savePending(p)
		if err != nil {
			return fail(out, err)
		}
		out.Result, out.Pending = PendingReview, path
		if err := recordRun(o.Paths, string(out.Result), p.RunID, p.Created); err != nil {
			env.log().Warn("cannot record the pending plan in the store's status", "store", o.Paths.Store, "err", err)
		}
	default:
		if err := commit(env, o, p); err != nil {
			return fail(out, err)
		}
		out.Result = Applied
	}
	return out
}

func fail(out Outcome, err error) Outcome {
	out.Err = err
	out.Result = Failed
	if errors.Is(err, ErrRefused) || errors.Is(err, store.ErrStale) {
		out.Result = Refused
	}
	if errors.Is(err, store.ErrBusy) {
		out.Result = Busy
	}
	out.Detail = err.Error()
	return out
}
