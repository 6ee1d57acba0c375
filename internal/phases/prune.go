package phases

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/reldate"
	"github.com/dreamd/dreamd/internal/store"
)

// Prune is the deterministic policy after consolidation: relative dates in the operations made
// absolute, memories past their type's TTL expired, and the lowest-value memories retired until
// the index fits its caps. Pinned memories are never retired; memories this pass wrote are the
// last to go, so new lessons stay visible in a full store.
func Prune(env *Env, cur []*store.Memory, ops []extract.Operation, sessions []extract.Session) ([]extract.Operation, []Retire) {
	today := env.now()
	lim := store.Limits{
		DescriptionMax: cmp.Or(env.Limits.DescriptionMax, store.DefaultLimits.DescriptionMax),
		MemoryMaxBytes: cmp.Or(env.Limits.MemoryMaxBytes, store.DefaultLimits.MemoryMaxBytes),
	}
	ops = absoluteDates(ops, sessions, today, lim)
	next, _ := nextMemories(cur, ops, nil, today, nil)
	touched := map[string]bool{}
	for _, op := range ops {
		touched[op.Name] = true
	}

	var retire []Retire
	var kept []*store.Memory
	for _, m := range next {
		if ttl, ok := env.TTL[memoryType(m)]; ok && !m.Pinned && !touched[m.Name] {
			if last, ok := lastUpdate(m); ok && today.Sub(last) > ttl {
				retire = append(retire, Retire{Name: m.Name, Reason: "expired",
					Detail: fmt.Sprintf("not updated since %s; %s memories expire after %d days", last.Format("2006-01-02"), memoryType(m), int(ttl.Hours()/24))})
				continue
			}
		}
		kept = append(kept, m)
	}
	return ops, append(retire, capIndex(env.Limits, kept, touched, today)...)
}

// capIndex retires the lowest-value memories until the derived index fits the caps.
func capIndex(lim store.Limits, mems []*store.Memory, touched map[string]bool, today time.Time) []Retire {
	// overshoot is how many entries (one line each) the index of ms must lose to fit.
	overshoot := func(ms []*store.Memory) int {
		st := store.StatIndex(store.RenderIndexWithin(indexed(ms), lim.IndexLineMax))
		over := max(st.Lines-lim.IndexMaxLines, 0)
		if b := st.Bytes - lim.IndexMaxBytes; b > 0 {
			over = max(over, int(math.Ceil(float64(b)/float64(lim.IndexLineMax))))
		}
		return over
	}
	over := overshoot(mems)
	if over == 0 {
		return nil
	}
	candidates := slices.DeleteFunc(slices.Clone(mems), func(m *store.Memory) bool { return m.Pinned })
	slices.SortStableFunc(candidates, func(a, b *store.Memory) int {
		return cmp.Compare(value(a, touched, today), value(b, touched, today))
	})
	// Retire as many as the overshoot needs at once, then measure again, so the work stays
	// linear in the number of memories.
	gone := map[string]bool{}
	var retire []Retire
	for i := 0; over > 0 && i < len(candidates); {
		for ; over > 0 && i < len(candidates); over-- {
			m := candidates[i]
			i++
			gone[m.Name] = true
			retire = append(retire, Retire{Name: m.Name, Reason: "capped",
				Detail: fmt.Sprintf("lowest value (score %.1f) when MEMORY.md exceeded its caps (%d lines, %d bytes)", value(m, touched, today), lim.IndexMaxLines, lim.IndexMaxBytes)})
		}
		over = overshoot(slices.DeleteFunc(slices.Clone(mems), func(m *store.Memory) bool { return gone[m.Name] }))
	}
	return retire
}

// typeWeight ranks memory types by how costly forgetting them is.
var typeWeight = map[string]float64{"user": 3, "feedback": 3, "project": 2, "reference": 1}

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
func absoluteDates(ops []extract.Operation, sessions []extract.Session, today time.Time, lim store.Limits) []extract.Operation {
	dates := map[string]time.Time{}
	for _, s := range sessions {
		dates[s.ID] = s.Date
	}
	out := slices.Clone(ops)
	for i, op := range out {
		if op.Action == "delete" {
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
		if d := reldate.Rewrite(op.Description, ref); len(d) <= lim.DescriptionMax {
			out[i].Description = d
		}
		if b := reldate.Rewrite(op.Body, ref); len(b) <= lim.MemoryMaxBytes {
			out[i].Body = b
		}
	}
	return out
}
