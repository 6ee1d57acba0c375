package phases

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/store"
)

// select.go applies a saved plan in part: a person accepts some of its operations and rejects the
// others (`dreamd apply --only/--skip`, `dreamd review`). The files are not cut out of the plan's
// changes: they are derived again, by Decide and Render, from the store and the accepted
// operations alone, so the index, the caps, the retire guard and what merges retire all follow
// from what was accepted; the result is checked like any saved plan before it is written.
//
// A rejected operation's sessions are not consumed silently: the transcript of a session that
// fed only rejected operations keeps its cursor (offered again, like the material of an operation
// the validator rejected, at most MaxOffers times), so its lesson can come back in a later pass.

// Selection is a person's decision on each operation of a plan, by the name of the memory the
// operation writes, deletes or merges into (OperationNames). Only, when not empty, accepts those
// operations and rejects the rest; Skip rejects those.
type Selection struct {
	Only, Skip []string
	// Edits are operations accepted with a person's text (edit.go), at most one a memory.
	Edits []Edit
}

// Empty reports a selection that accepts the whole plan as it is.
func (s Selection) Empty() bool { return len(s.Only) == 0 && len(s.Skip) == 0 && len(s.Edits) == 0 }

// accepts reports whether the selection accepts the operation writing name.
func (s Selection) accepts(name string) bool {
	if len(s.Only) > 0 && !slices.Contains(s.Only, name) {
		return false
	}
	return !slices.Contains(s.Skip, name)
}

// SessionDays is the day (UTC, 2006-01-02) of every session p read, by session id: what a
// reviewer is shown beside an operation's evidence.
func SessionDays(p *Plan) map[string]string {
	days := map[string]string{}
	for _, r := range p.Read {
		for _, s := range r.Sessions {
			days[s.ID] = s.Date.UTC().Format("2006-01-02")
		}
	}
	return days
}

// OperationNames are the names a selection can give, sorted, each once: the memory every
// operation of p (this store's and those sent to another store) writes, deletes or merges into.
func OperationNames(p *Plan) []string {
	var names []string
	for _, op := range slices.Concat(p.Operations, p.Elsewhere) {
		names = append(names, op.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ErrNoOperation marks a selection naming an operation the plan does not hold.
var ErrNoOperation = errors.New("the plan has no operation")

// check refuses a selection naming an operation p does not hold, listing those it does.
func (s Selection) check(p *Plan) error {
	names := OperationNames(p)
	for _, n := range slices.Concat(s.Only, s.Skip) {
		if !slices.Contains(names, n) {
			return fmt.Errorf("%w on %q; its operations are: %s", ErrNoOperation, n, strings.Join(names, ", "))
		}
	}
	return s.checkEdits(p)
}

// Part is the plan p as a selection leaves it, derived again from the store o holds now (the
// store the plan was made against: ApplyPlan has compared their fingerprints). It refuses a
// selection naming no operation of p, and an accepted operation whose memory the derivation does
// not write byte for byte as the plan showed it (what was reviewed is what is written).
func Part(env *Env, o *Oriented, p *Plan, sel Selection, force bool) (*Plan, error) {
	if err := sel.check(p); err != nil {
		return nil, err
	}
	accepted, skipped := split(p.Operations, sel)
	elsewhere, skippedElsewhere := split(p.Elsewhere, sel)
	skipped = append(skipped, skippedElsewhere...)
	accepted, mended, err := editOps(env, o.Store, p, accepted, sel.Edits)
	if err != nil {
		return nil, err
	}
	elsewhere, mendedElsewhere, err := editOps(env, o.Store, p, elsewhere, sel.Edits)
	if err != nil {
		return nil, err
	}
	// Use recorded since the plan was made only ever keeps a memory the plan retired as unused.
	used, err := LoadUsed(o.Paths)
	if err != nil {
		return nil, err
	}
	d := Decide(env, o.Store, accepted, elsewhere, sessionsOf(p), used, p.Created, force)
	if d.Refusal != nil {
		return nil, d.Refusal
	}
	r := Render(env, o.Store, d)
	if err := sameAsReviewed(p, r.Changes, accepted, sel.editedNames()); err != nil {
		return nil, err
	}
	q := *p
	q.Operations, q.Elsewhere, q.LeftOut, q.OverCap = d.Operations, d.Elsewhere, d.LeftOut, d.OverCap
	q.Retired, q.Changes, q.Retaught = r.Retired, r.Changes, slices.Clip(append([]Retaught{}, d.Retaught...))
	q.IndexBefore, q.IndexAfter = r.IndexBefore, r.IndexAfter
	q.Stale = staleOf(d.Next)
	again, gaveUp := offerAgain(p.Read, slices.Concat(p.Rejected, reviewRejected(skipped, slices.Concat(accepted, elsewhere))))
	q.Cursors = advance(o.Cursors, p.Read, again)
	q.OfferedAgain, q.GaveUp = slices.Sorted(maps.Keys(again)), gaveUp
	q.Counts = count(&q, o.Store)
	q.Counts.Retaught = len(q.Retaught)
	q.Edited = sel.editedNames()
	q.Repaired = slices.Concat(p.Repaired, mended, mendedElsewhere)
	q.Summary = strings.TrimSpace(q.Summary + " " + partNote(accepted, elsewhere, skipped, q.Edited))
	return &q, nil
}

// split divides ops into those sel accepts and those it rejects.
func split(ops []extract.Operation, sel Selection) (accepted, rejected []extract.Operation) {
	for _, op := range ops {
		if sel.accepts(op.Name) {
			accepted = append(accepted, op)
		} else {
			rejected = append(rejected, op)
		}
	}
	return accepted, rejected
}

// sessionsOf are the plan's sessions as Decide needs them: their ids, kinds and days. (The
// sessions' turns are not kept in a plan, and Decide does not read them.)
func sessionsOf(p *Plan) []extract.Session {
	var out []extract.Session
	for _, r := range p.Read {
		for _, s := range r.Sessions {
			out = append(out, extract.Session{ID: s.ID, Source: s.Kind, Project: s.Project, Date: s.Date})
		}
	}
	return out
}

// reviewRejected are the operations a person rejected, as rejections offerAgain reads, naming only
// the sessions no accepted operation names: a session that also taught an accepted lesson has
// been consumed by it.
func reviewRejected(skipped, accepted []extract.Operation) []extract.Rejected {
	used := map[string]bool{}
	for _, op := range accepted {
		for _, id := range op.Evidence {
			used[id], used[bareID(id)] = true, true
		}
	}
	var out []extract.Rejected
	for _, op := range skipped {
		op.Evidence = slices.DeleteFunc(slices.Clone(op.Evidence), func(id string) bool { return used[id] || used[bareID(id)] })
		out = append(out, extract.Rejected{Operation: op, Reason: "rejected in review"})
	}
	return out
}

// sameAsReviewed refuses a derivation that writes an accepted operation's memory with other bytes
// than the plan held for it. (A memory carried from another store records where it was first
// learnt, which a saved plan does not keep: such a plan is applied whole or made again.)
func sameAsReviewed(p *Plan, changes []store.Change, accepted []extract.Operation, edited []string) error {
	planned := map[string][]byte{}
	for _, ch := range p.Changes {
		planned[ch.Name] = ch.New
	}
	for _, ch := range changes {
		want, ok := planned[ch.Name]
		if !ok || !slices.ContainsFunc(accepted, func(op extract.Operation) bool { return op.Name+".md" == ch.Name }) {
			continue
		}
		if slices.Contains(edited, strings.TrimSuffix(ch.Name, ".md")) {
			continue // the person's text, not the plan's: verifyPlan checks the file says it (checkEdited)
		}
		if !bytes.Equal(want, ch.New) {
			return refuse("%s derived from the accepted operations is not the %s the plan showed; apply the plan whole, or make a new one", ch.Name, ch.Name)
		}
	}
	return nil
}

// partNote is what the history's summary says of a plan applied in part, or whole with edits.
func partNote(accepted, elsewhere, skipped []extract.Operation, edited []string) string {
	names := func(ops []extract.Operation) string {
		var out []string
		for _, op := range ops {
			out = append(out, op.Name)
		}
		slices.Sort(out)
		return strings.Join(slices.Compact(out), ", ")
	}
	n := len(accepted) + len(elsewhere)
	note := fmt.Sprintf("Applied in part after review: %d of %d operations accepted; rejected: %s", n, n+len(skipped), names(skipped))
	if len(skipped) == 0 {
		note = fmt.Sprintf("Applied after review: %d of %d operations accepted", n, n)
	}
	if len(edited) > 0 {
		note += "; edited in review: " + strings.Join(edited, ", ")
	}
	return note + "."
}

// bareID is a session id without the kind an evidence entry may name it with (kind:id).
func bareID(id string) string {
	if _, bare, ok := strings.Cut(id, ":"); ok {
		return bare
	}
	return id
}
