package phases

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/reldate"
	"github.com/dreamd/dreamd/internal/store"
)

// decide.go is the one step that decides the next store, from the store as it is and the
// consolidator's validated operations: relative dates made absolute, the operations applied,
// memories past their type's TTL expired, the lowest-value ones retired until the index fits its
// caps, and the retire guard's verdict on what all that loses. It is pure: it reads no file and
// writes none; render.go turns the decision into bytes.

// Decision is the next store, and why every memory that leaves it leaves.
type Decision struct {
	Operations []extract.Operation // the consolidator's, dates made absolute, over-cap creates left out
	Retire     []Retire            // existing memories to retire: moved, expired, or over the index caps
	LeftOut    []extract.Operation // new memories that did not fit the index caps (reported, not written)
	OverCap    int                 // index entries still over the caps after what the guard allowed
	Elsewhere  []extract.Operation // for another scope's store, dates made absolute

	Next    []*store.Memory    // the memories the store holds once the operations and Retire are applied
	Retired []store.Retirement // every memory leaving the store, with why

	// Lost counts the retirements the guard weighs (deletes, expiry, unused, caps: see weighed), once,
	// as they are decided; Allowed is how many the guard lets a pass lose without --force.
	Lost, Allowed int
	// Retaught are the lessons this pass saw taught again after they were learnt: the memories
	// whose re-teachings grew (followed.go). Their number is the pass's adherence figure.
	Retaught []Retaught
	// Refusal is the guard's verdict: non-nil (ErrRefused) when the decision loses more than
	// Allowed and was not forced. The caller parks the plan; Decide itself refuses nothing.
	Refusal error
}

// Retire is a memory the decision retires beyond what the operations themselves retire.
type Retire struct {
	Name   string
	Reason store.RetireReason // Moved, Expired, Unused or Capped
	Detail string
}

// Decide is the deterministic policy after consolidation, for the store s as it is and the pass's
// one reading of the clock (today). Pinned memories are never retired; memories this pass wrote
// are the last to go, so new lessons stay visible in a full store.
//
// Retiring existing memories is a loss the retire guard bounds: deletes, expiry and cap
// retirements together count against limits.max_retire_fraction. Cap retirements stop at what it
// allows (all of it with force), so a store over its caps shrinks over passes and is never
// refused for being over them; deletes and expiry beyond it refuse the decision (Refusal). New
// memories that do not fit are left out of the plan and reported, never written and then retired.
//
// Memories that elsewhere (operations for another scope's store) names — the memory it rewrites
// and those it merges or supersedes — move out of this store: retired as moved, archived here,
// written there by that store's pass.
//
// used is when each memory was last used (used.go): with prune.unused_days, a memory neither
// learnt, confirmed, updated nor used for that long is retired as unused, a loss like expiry.
func Decide(env *Env, s *store.Store, ops, elsewhere []extract.Operation, sessions []extract.Session, used Used, today time.Time, force bool) Decision {
	cur := s.Memories
	lim := env.Limits.OrDefaults()
	ops = absoluteDates(ops, sessions, today, lim)
	ev := evidenceOf(sessions)
	moved := movedOut(cur, elsewhere)
	next, retired := nextMemories(cur, ops, moved, today, ev)
	touched := map[string]bool{}
	for _, op := range ops {
		touched[op.Name] = true
	}
	existing := make(map[string]bool, len(cur))
	for _, m := range cur {
		existing[m.Name] = true
	}

	d := Decision{Retire: moved, Elsewhere: absoluteDates(elsewhere, sessions, today, lim), Allowed: retireAllowance(env, len(cur))}
	d.Lost = weighedIn(retired) // the operations' deletes
	kept, expired := expire(env, next, touched, today)
	d.Retire = append(d.Retire, expired...)
	d.Lost += len(expired)
	kept, idle := unused(env.UnusedDays, kept, touched, used, today)
	d.Retire = append(d.Retire, idle...)
	d.Lost += len(idle)
	allowance := -1 // unlimited
	if !force {
		allowance = max(d.Allowed-d.Lost, 0)
	}
	capped, dropped, over := capIndex(env.Limits, kept, touched, existing, today, allowance, overshoot(env.Limits, cur))
	d.Retire = append(d.Retire, capped...)
	d.Lost += len(capped)
	d.OverCap = over
	for _, op := range ops {
		if dropped[op.Name] {
			d.LeftOut = append(d.LeftOut, op)
			continue
		}
		d.Operations = append(d.Operations, op)
	}
	if len(d.LeftOut) > 0 {
		// Rare, and not a matter of taking the new memories out again: a left-out create may
		// have merged or superseded others, which must then stay. Only creates are left out,
		// and what they retire (merges, supersedes) weighs nothing: the count stands.
		next, retired = nextMemories(cur, d.Operations, nil, today, ev)
	}
	d.Next, d.Retired = retireFrom(next, retired, d.Retire)
	d.Retaught = retaughtIn(cur, d.Next)
	if len(d.LeftOut) > 0 {
		d.OverCap = overshoot(env.Limits, d.Next)
	}
	if !force {
		d.Refusal = guard(env, d.Lost, len(cur), s.Dir)
	}
	return d
}

// expire takes the memories past their type's TTL out of next (none this pass wrote, none
// fixed), returning those kept and the retirements.
func expire(env *Env, next []*store.Memory, touched map[string]bool, today time.Time) ([]*store.Memory, []Retire) {
	var kept []*store.Memory
	var expired []Retire
	for _, m := range next {
		if ttl, ok := env.TTL[memoryType(m)]; ok && !fixed(m) && !touched[m.Name] {
			if last, ok := lastUpdate(m); ok && today.Sub(last) > ttl {
				expired = append(expired, Retire{Name: m.Name, Reason: store.Expired,
					Detail: fmt.Sprintf("not updated since %s; %s memories expire after %d days", last.Format("2006-01-02"), memoryType(m), int(ttl.Hours()/24))})
				continue
			}
		}
		kept = append(kept, m)
	}
	return kept, expired
}

// unused takes out of next the memories nobody learnt, confirmed, updated or used (used) in the
// last days days before today: none this pass wrote, none fixed or hand-written. 0 days: none.
func unused(days int, next []*store.Memory, touched map[string]bool, used Used, today time.Time) ([]*store.Memory, []Retire) {
	if days <= 0 {
		return next, nil
	}
	var kept []*store.Memory
	var idle []Retire
	cutoff := today.AddDate(0, 0, -days)
	for _, m := range next {
		if fixed(m) || handWritten(m) || touched[m.Name] {
			kept = append(kept, m)
			continue
		}
		last, ok := lastSeen(m, used)
		if !ok || !last.Before(cutoff) {
			kept = append(kept, m)
			continue
		}
		idle = append(idle, Retire{Name: m.Name, Reason: store.Unused,
			Detail: fmt.Sprintf("not learnt, confirmed, updated or used since %s; prune.unused_days is %d", last.Format(time.DateOnly), days)})
	}
	return kept, idle
}

// lastSeen is the latest of the days a memory was learnt, confirmed, updated, created or used.
func lastSeen(m *store.Memory, used Used) (time.Time, bool) {
	var last time.Time
	for _, d := range []string{m.Learnt, m.Confirmed, m.Updated, m.Created, used[m.Name]} {
		if t, err := time.Parse(time.DateOnly, d); err == nil && t.After(last) {
			last = t
		}
	}
	return last, !last.IsZero()
}

// guard refuses a decision that loses more than the allowed share of the store's memories (lost
// of total). What is lost is what leaves the store with nothing in its place (weighed). One
// retirement is always allowed, so a store of a single memory can still change.
func guard(env *Env, lost, total int, dir string) error {
	if lost <= retireAllowance(env, total) {
		return nil
	}
	return fmt.Errorf("%w: the pass would retire %d of %d memories in %s (limit %.0f%%, limits.max_retire_fraction); --force allows it",
		ErrRefused, lost, total, dir, env.MaxRetireFraction*100)
}

// weighed reports a retirement the guard weighs: a delete, an expiry, a cap retirement. A merge or
// a supersede moves its content into the memory that replaces it, which the same plan writes; a
// move writes it to another store; a rewrite archives the hand-written version of a memory the
// plan writes anew: none of those is a loss.
func weighed(r store.RetireReason) bool {
	return r != store.Merged && r != store.Superseded && r != store.Moved && r != store.Rewritten
}

// weighedIn counts the retirements the guard weighs: a saved plan's, when it is applied (its
// file is not trusted to carry the count).
func weighedIn(retired []store.Retirement) int {
	n := 0
	for _, r := range retired {
		if weighed(r.Reason) {
			n++
		}
	}
	return n
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
	// Each memory's value is taken once, not at every comparison of the sort (over a hundred
	// thousand of them, each parsing two dates, in a store of 10,000 memories).
	type valued struct {
		m *store.Memory
		v float64
	}
	byValue := make([]valued, 0, len(mems))
	for _, m := range mems {
		if !fixed(m) {
			byValue = append(byValue, valued{m, value(m, touched, today)})
		}
	}
	slices.SortStableFunc(byValue, func(a, b valued) int { return cmp.Compare(a.v, b.v) })
	candidates := make([]*store.Memory, len(byValue))
	for i, c := range byValue {
		candidates[i] = c.m
	}
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

// nextMemories applies operations and retirements to the current memories. It returns the
// memories the store will hold, sorted by name, and every memory that leaves it, with why.
func nextMemories(cur []*store.Memory, ops []extract.Operation, pruned []Retire, today time.Time, ev evidence) ([]*store.Memory, []store.Retirement) {
	byName := make(map[string]*store.Memory, len(cur))
	for _, m := range cur {
		byName[m.Name] = m
	}
	date := today.Format("2006-01-02")
	var retired []store.Retirement
	retire := func(name string, reason store.RetireReason, detail string, evidence []string) {
		if m, ok := byName[name]; ok {
			retired = append(retired, store.Retirement{Name: name, Reason: reason, Detail: detail, Evidence: evidence, Content: m.Raw})
			delete(byName, name)
		}
	}
	for _, op := range ops {
		switch op.Action {
		case extract.Delete:
			retire(op.Name, store.Deleted, op.Reason, op.Evidence)
			continue
		case extract.Create, extract.Update:
			if old, ok := byName[op.Name]; ok && handWritten(old) && !slices.ContainsFunc(pruned, func(r Retire) bool { return r.Name == op.Name }) {
				retired = append(retired, store.Retirement{Name: op.Name, Reason: store.Rewritten,
					Detail: "the version written by hand, before this run rewrote it: " + op.Reason, Evidence: op.Evidence, Content: old.Raw})
			}
			byName[op.Name] = write(byName[op.Name], op, date, ev)
		case extract.Reinforce:
			if old, ok := byName[op.Name]; ok {
				byName[op.Name] = reinforce(old, op, date, ev)
			}
			continue
		}
		for _, name := range op.MergedFrom {
			if name != op.Name {
				retire(name, store.Merged, "merged into "+op.Name+": "+op.Reason, op.Evidence)
			}
		}
		for _, name := range op.Supersedes {
			if name != op.Name {
				retire(name, store.Superseded, "superseded by "+op.Name+": "+op.Reason, op.Evidence)
			}
		}
	}
	next := slices.SortedFunc(maps.Values(byName), func(a, b *store.Memory) int { return cmp.Compare(a.Name, b.Name) })
	return retireFrom(next, retired, pruned)
}

// handWritten reports a memory on disk that no pass wrote: dreamd records where every memory it
// writes came from.
func handWritten(m *store.Memory) bool { return m.Raw != nil && len(m.Sources) == 0 }

// retireFrom takes prune's retirements out of next, recording each after those already retired.
func retireFrom(next []*store.Memory, retired []store.Retirement, pruned []Retire) ([]*store.Memory, []store.Retirement) {
	if len(pruned) == 0 {
		return next, retired
	}
	why := make(map[string]Retire, len(pruned))
	for _, r := range pruned {
		why[r.Name] = r
	}
	kept := make([]*store.Memory, 0, len(next))
	leaving := map[string]*store.Memory{}
	for _, m := range next {
		if _, ok := why[m.Name]; ok {
			leaving[m.Name] = m
			continue
		}
		kept = append(kept, m)
	}
	for _, r := range pruned {
		if m, ok := leaving[r.Name]; ok {
			retired = append(retired, store.Retirement{Name: r.Name, Reason: r.Reason, Detail: r.Detail, Content: m.Raw})
			delete(leaving, r.Name)
		}
	}
	return kept, retired
}

// reinforce is a memory a session confirmed: its sources, dates and re-teachings move (so prune
// values it more), its text stays as it is.
func reinforce(old *store.Memory, op extract.Operation, date string, ev evidence) *store.Memory {
	m := *old
	m.Sources = withSources(m.Sources, op.Evidence, ev)
	learnt(&m, op.Evidence, ev)
	carried(&m, op.Evidence, ev)
	retaught(&m, old, op.Evidence, ev)
	if m.Updated == date && len(m.Sources) == len(old.Sources) && m.Learnt == old.Learnt &&
		m.Confirmed == old.Confirmed && m.RetaughtCount == old.RetaughtCount {
		return old // nothing to record: the file stays byte-identical
	}
	m.Updated = date
	m.HasFrontMatter = true
	m.Raw = nil
	return &m
}

// write is a memory after a create or update: the old one's created date, sources, dates,
// re-teachings and keys dreamd does not know are kept. An update that says again what the memory
// said (restates) is a re-teaching too.
func write(old *store.Memory, op extract.Operation, date string, ev evidence) *store.Memory {
	m := &store.Memory{Name: op.Name, Created: date}
	if old != nil {
		cp := *old
		m = &cp
		if m.Created == "" {
			m.Created = date
		}
	}
	m.Type, m.Description, m.Body = op.Type, op.Description, op.Body
	m.Updated = date
	m.HasFrontMatter, m.Verbatim = true, false // written by dreamd: its front matter is dreamd's
	m.Sources = withSources(m.Sources, op.Evidence, ev)
	learnt(m, op.Evidence, ev)
	carried(m, op.Evidence, ev)
	if old != nil && restates(op, old) {
		retaught(m, old, op.Evidence, ev)
	}
	m.Raw = nil
	return m
}
