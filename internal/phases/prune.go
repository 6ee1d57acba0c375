package phases

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/reldate"
	"github.com/dreamd/dreamd/internal/store"
)

// Pruned is what prune decided, and the store that follows from it.
type Pruned struct {
	Operations []extract.Operation // the consolidator's, dates made absolute, over-cap creates left out
	Retire     []Retire            // existing memories to retire: expired, or over the index caps
	LeftOut    []extract.Operation // new memories that did not fit the index caps (reported, not written)
	OverCap    int                 // index entries still over the caps after what the guard allowed
	Elsewhere  []extract.Operation // for another scope's store, dates made absolute

	Next    []*store.Memory    // the memories the store holds once the operations and Retire are applied
	Retired []store.Retirement // every memory leaving the store, with why
}

// Prune is the deterministic policy after consolidation: relative dates in the operations made
// absolute, memories past their type's TTL expired, and the lowest-value memories retired until
// the index fits its caps. Pinned memories are never retired; memories this pass wrote are the
// last to go, so new lessons stay visible in a full store.
//
// Retiring existing memories is a loss the retire guard bounds: cap retirements count against
// limits.max_retire_fraction together with deletes and expiry, and stop at what it allows (all
// of it with force). A store over its caps therefore shrinks over passes; it is never refused for
// being over them. New memories that do not fit are left out of the plan and reported, never
// written and then retired.
//
// Memories that elsewhere (operations for another scope's store) names — the memory it rewrites
// and those it merges or supersedes — move out of this store: retired as moved, archived here,
// written there by that store's pass.
func Prune(env *Env, cur []*store.Memory, ops, elsewhere []extract.Operation, sessions []extract.Session, force bool) Pruned {
	today := env.now()
	ops = absoluteDates(ops, sessions, today, env.Limits.OrDefaults())
	kinds := sessionKinds(sessions)
	moved := movedOut(cur, elsewhere)
	next, retired := nextMemories(cur, ops, moved, today, kinds)
	touched := map[string]bool{}
	for _, op := range ops {
		touched[op.Name] = true
	}
	existing := make(map[string]bool, len(cur))
	for _, m := range cur {
		existing[m.Name] = true
	}

	out := Pruned{Retire: moved, Elsewhere: absoluteDates(elsewhere, sessions, today, env.Limits.OrDefaults())}
	losses := 0
	for _, op := range ops {
		if op.Action == extract.Delete {
			losses++
		}
	}
	var kept []*store.Memory
	for _, m := range next {
		if ttl, ok := env.TTL[memoryType(m)]; ok && !fixed(m) && !touched[m.Name] {
			if last, ok := lastUpdate(m); ok && today.Sub(last) > ttl {
				out.Retire = append(out.Retire, Retire{Name: m.Name, Reason: store.Expired,
					Detail: fmt.Sprintf("not updated since %s; %s memories expire after %d days", last.Format("2006-01-02"), memoryType(m), int(ttl.Hours()/24))})
				losses++
				continue
			}
		}
		kept = append(kept, m)
	}
	allowance := -1 // unlimited
	if !force {
		allowance = max(retireAllowance(env, len(cur))-losses, 0)
	}
	capped, dropped, over := capIndex(env.Limits, kept, touched, existing, today, allowance, overshoot(env.Limits, cur))
	out.Retire = append(out.Retire, capped...)
	out.OverCap = over
	for _, op := range ops {
		if dropped[op.Name] {
			out.LeftOut = append(out.LeftOut, op)
			continue
		}
		out.Operations = append(out.Operations, op)
	}
	if len(out.LeftOut) > 0 {
		// Rare, and not a matter of taking the new memories out again: a left-out create may
		// have merged or superseded others, which must then stay.
		next, retired = nextMemories(cur, out.Operations, nil, today, kinds)
	}
	out.Next, out.Retired = retireFrom(next, retired, out.Retire)
	if len(out.LeftOut) > 0 {
		out.OverCap = overshoot(env.Limits, out.Next)
	}
	return out
}

// sessionKinds maps each session to its agent, so a memory's sources read kind:id.
func sessionKinds(sessions []extract.Session) map[string]string {
	kinds := make(map[string]string, len(sessions))
	for _, s := range sessions {
		kinds[s.ID] = s.Source
	}
	return kinds
}

// movedOut are the memories of cur that operations for another store take with them.
func movedOut(cur []*store.Memory, elsewhere []extract.Operation) []Retire {
	here := make(map[string]bool, len(cur))
	for _, m := range cur {
		here[m.Name] = true
	}
	var out []Retire
	for _, op := range elsewhere {
		for _, name := range slices.Concat([]string{op.Name}, op.MergedFrom, op.Supersedes) {
			if here[name] {
				delete(here, name)
				out = append(out, Retire{Name: name, Reason: store.Moved, Detail: fmt.Sprintf("moved to the %s store as %s: %s", op.Scope, op.Name, op.Reason)})
			}
		}
	}
	return out
}

// retireAllowance is how many existing memories a pass may retire without --force: the
// configured share of the store, and always one, so a store of one memory can still change.
func retireAllowance(env *Env, total int) int {
	return max(int(env.MaxRetireFraction*float64(total)), 1)
}

// overshoot is how many entries (one line each) the index of ms must lose to fit the caps.
func overshoot(lim memory.Limits, ms []*store.Memory) int {
	if len(ms) == 0 {
		return 0
	}
	st := memory.StatIndex(store.RenderIndexWithin(indexed(ms, nil), lim.IndexLineMax))
	over := max(st.Lines-lim.IndexMaxLines, 0)
	if b := st.Bytes - lim.IndexMaxBytes; b > 0 {
		over = max(over, int(math.Ceil(float64(b)/float64(lim.IndexLineMax))))
	}
	return over
}

// capIndex chooses, lowest value first, what to take out until the derived index fits the caps:
// an existing memory is retired while allowance lasts (-1: no limit), and a memory this pass
// creates is left out (dropped) only while the index would be further over its caps than the
// store already was (already) — so a new lesson takes the place of a retired one in a store that
// was over before, and a store is never pushed over by new memories. It returns the retirements,
// the dropped names and how many entries the index is still over its caps.
func capIndex(lim memory.Limits, mems []*store.Memory, touched, existing map[string]bool, today time.Time, allowance, already int) ([]Retire, map[string]bool, int) {
	over := overshoot(lim, mems)
	if over == 0 {
		return nil, nil, 0
	}
	candidates := slices.DeleteFunc(slices.Clone(mems), fixed)
	slices.SortStableFunc(candidates, func(a, b *store.Memory) int {
		return cmp.Compare(value(a, touched, today), value(b, touched, today))
	})
	// Take out as many as the overshoot needs at once, then measure again, so the work stays
	// linear in the number of memories.
	gone := map[string]bool{}
	dropped := map[string]bool{}
	var retire []Retire
	for i := 0; over > 0 && i < len(candidates); {
		for ; over > 0 && i < len(candidates); i++ {
			m := candidates[i]
			switch {
			case !existing[m.Name] && over <= already:
				continue
			case !existing[m.Name]:
				dropped[m.Name] = true
			case allowance == 0:
				continue
			default:
				allowance--
				retire = append(retire, Retire{Name: m.Name, Reason: store.Capped,
					Detail: fmt.Sprintf("lowest value (score %.1f) when MEMORY.md exceeded its caps (%d lines, %d bytes)", value(m, touched, today), lim.IndexMaxLines, lim.IndexMaxBytes)})
			}
			gone[m.Name] = true
			over--
		}
		over = overshoot(lim, slices.DeleteFunc(slices.Clone(mems), func(m *store.Memory) bool { return gone[m.Name] }))
	}
	return retire, dropped, over
}

// typeWeight ranks memory types by how costly forgetting them is.
var typeWeight = map[memory.Type]float64{memory.User: 3, memory.Feedback: 3, memory.Project: 2, memory.Reference: 1}

// value scores a memory for retention: recency of its last update, how many sessions reinforced
// it, its type; a memory this pass wrote scores above any other.
func value(m *store.Memory, touched map[string]bool, today time.Time) float64 {
	v := typeWeight[memoryType(m)] + math.Min(float64(len(m.Sources)), 10)*0.5
	if last, ok := lastUpdate(m); ok {
		days := today.Sub(last).Hours() / 24
		v += 10 / (1 + math.Max(days, 0)/30)
	}
	if touched[m.Name] {
		v += 100
	}
	return v
}

func lastUpdate(m *store.Memory) (time.Time, bool) {
	for _, d := range []string{m.Updated, m.Created} {
		if t, err := time.Parse("2006-01-02", d); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// absoluteDates rewrites relative dates in written memories from the date of their newest
// evidence session ("yesterday" in a session of 2026-11-18 is 2026-11-17).
// A rewrite that would take a text past its cap (the operations were validated against them) is
// not made.
func absoluteDates(ops []extract.Operation, sessions []extract.Session, today time.Time, lim memory.Limits) []extract.Operation {
	dates := map[string]time.Time{}
	for _, s := range sessions {
		dates[s.ID] = s.Date
	}
	out := slices.Clone(ops)
	for i, op := range out {
		if op.Action == extract.Delete {
			continue
		}
		ref := time.Time{}
		for _, id := range op.Evidence {
			if d := dates[id]; d.After(ref) {
				ref = d
			}
		}
		if ref.IsZero() {
			ref = today
		}
		if d := reldate.Rewrite(op.Description, ref); utf8.RuneCountInString(d) <= lim.DescriptionMax { // characters, as validated
			out[i].Description = d
		}
		if b := reldate.Rewrite(op.Body, ref); len(b) <= lim.MemoryMaxBytes {
			out[i].Body = b
		}
	}
	return out
}

// fixed reports a memory no pass rewrites or retires: pinned by a person, a file whose front
// matter dreamd cannot write back as it was written (rewriting it would lose what it says), or a
// link (writing would replace it with a file).
func fixed(m *store.Memory) bool { return m.Pinned || m.Verbatim || m.Link }
