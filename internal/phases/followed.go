package phases

import (
	"cmp"
	"slices"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/textsim"
	"github.com/dreamd/dreamd/internal/transcript"
)

// followed.go keeps a memory's provenance: the sessions that taught it, when it was first learnt
// and last confirmed (the sessions' days, never the run's), and the sessions that taught it again
// after it was learnt — the agent was not following it.

// evidence is what a pass knows of the sessions operations name.
type evidence struct {
	kinds   map[string]string             // session id → its agent, so sources read kind:id
	dates   map[string]string             // session id → its day, YYYY-MM-DD
	origins map[string]*transcript.Origin // a note carrying a memory from another store → where it was learnt
}

// evidenceOf indexes the pass's sessions.
func evidenceOf(sessions []extract.Session) evidence {
	ev := evidence{kinds: map[string]string{}, dates: map[string]string{}, origins: map[string]*transcript.Origin{}}
	for _, s := range sessions {
		ev.kinds[s.ID] = s.Source
		if !s.Date.IsZero() {
			ev.dates[s.ID] = s.Date.UTC().Format(time.DateOnly)
		}
		if s.Origin != nil {
			ev.origins[s.ID] = s.Origin
		}
	}
	return ev
}

// source is session id as a memory's sources name it: kind:id.
func (ev evidence) source(id string) string {
	if kind := ev.kinds[id]; kind != "" {
		return kind + ":" + id
	}
	return id
}

// withSources adds the evidence sessions to sources: as kind:id, or, for a note that carries a
// memory from another store, the sessions that memory named.
func withSources(sources, ids []string, ev evidence) []string {
	out := slices.Clone(sources)
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, id := range ids {
		if o := ev.origins[id]; o != nil && len(o.Sources) > 0 {
			for _, s := range o.Sources {
				add(s)
			}
			continue
		}
		add(ev.source(id))
	}
	return out
}

// learnt sets m's first-learnt and last-confirmed days from the sessions ids (a carried memory's
// own days included); sessions without a day change nothing. A memory written before these were
// recorded has its created day as the latest it can have been learnt.
func learnt(m *store.Memory, ids []string, ev evidence) {
	first, last := "", ""
	earlier := func(d string) {
		if d != "" && (first == "" || d < first) {
			first = d
		}
	}
	later := func(d string) {
		if d > last {
			last = d
		}
	}
	for _, id := range ids {
		if o := ev.origins[id]; o != nil {
			earlier(o.Learnt)
			later(o.Confirmed)
			continue
		}
		earlier(ev.dates[id])
		later(ev.dates[id])
	}
	if first == "" && last == "" {
		return
	}
	if m.Learnt == "" && m.Raw != nil {
		earlier(m.Created)
	}
	earlier(m.Learnt)
	later(m.Confirmed)
	m.Learnt, m.Confirmed = first, last
}

// carried gives m the re-teachings a note's memory had recorded in the store it came from.
func carried(m *store.Memory, ids []string, ev evidence) {
	for _, id := range ids {
		o := ev.origins[id]
		if o == nil {
			continue
		}
		before := m.RetaughtCount
		for _, r := range o.Retaught {
			e := store.ParseRetaught(r)
			m.AddRetaught(e.Session, e.Date)
		}
		// Re-teachings the note's list no longer held still count.
		m.RetaughtCount = max(m.RetaughtCount, before+o.RetaughtCount)
	}
}

// retaught records, on a memory that existed before this pass (old), each session of ids that
// taught it again: one it did not name yet, of a day after the memory was learnt. It returns the
// sessions recorded.
func retaught(m, old *store.Memory, ids []string, ev evidence) []string {
	since := old.Learnt
	if since == "" {
		since = old.Created
	}
	var out []string
	for _, id := range ids {
		src, day := ev.source(id), ev.dates[id]
		if ev.origins[id] != nil || day == "" || since == "" || day <= since || slices.Contains(old.Sources, src) {
			continue
		}
		if m.AddRetaught(src, day) {
			out = append(out, src)
		}
	}
	return out
}

// Retaught is a lesson this pass saw taught again after it was learnt.
type Retaught struct {
	Name     string
	Sessions []string // kind:id of the sessions that taught it again
	Learnt   string   // YYYY-MM-DD, "" when unknown
	Count    int      // re-teachings recorded so far, these included
}

// restates reports whether an update says again what old said, with at most a detail added:
// nearly all its description's words are in the new text. An update that changes what the memory
// says (a new port, another tool) is a correction, not a re-teaching.
func restates(op extract.Operation, old *store.Memory) bool {
	before, after := textsim.NewSet(old.Description), textsim.NewSet(op.Description+" "+op.Body)
	if len(before) < 3 {
		return false
	}
	kept := 0
	for w := range before {
		if _, ok := after[w]; ok {
			kept++
		}
	}
	return float64(kept) >= minRestated*float64(len(before))
}

// minRestated is the share of an old description's words an update must keep to restate it.
const minRestated = 0.9

// retaughtIn lists the memories of next whose re-teachings grew from cur's.
func retaughtIn(cur, next []*store.Memory) []Retaught {
	was := make(map[string]*store.Memory, len(cur))
	for _, m := range cur {
		was[m.Name] = m
	}
	var out []Retaught
	for _, m := range next {
		old := was[m.Name]
		if old == nil || m.RetaughtCount <= old.RetaughtCount {
			continue
		}
		r := Retaught{Name: m.Name, Learnt: m.Learnt, Count: m.RetaughtCount, Sessions: []string{}}
		for _, e := range m.Retaught {
			if !slices.Contains(old.Retaught, e) {
				r.Sessions = append(r.Sessions, e.Session)
			}
		}
		out = append(out, r)
	}
	return out
}

// originOf is where a memory the plan sends to another store was learnt: the sessions and days of
// the memories of this store it takes with it (archived here as moved), and of the sessions the
// operation names. The note carries it, so the memory keeps them in the store it moves to.
func originOf(p *Plan, op extract.Operation) *transcript.Origin {
	m := &store.Memory{}
	names := slices.Concat([]string{op.Name}, op.MergedFrom, op.Supersedes)
	for _, r := range p.Retired {
		if r.Reason != store.Moved || !slices.Contains(names, r.Name) || r.Content == nil {
			continue
		}
		was := store.ParseMemory(r.Name, r.Content)
		m.Sources = withSources(m.Sources, was.Sources, evidence{})
		if d := cmp.Or(was.Learnt, was.Created); d != "" && (m.Learnt == "" || d < m.Learnt) {
			m.Learnt = d
		}
		m.Confirmed = max(m.Confirmed, was.Confirmed)
		before := m.RetaughtCount
		for _, e := range was.Retaught {
			m.AddRetaught(e.Session, e.Date)
		}
		m.RetaughtCount = max(m.RetaughtCount, before+was.RetaughtCount)
	}
	ev := evidence{kinds: map[string]string{}, dates: map[string]string{}}
	for _, r := range p.Read {
		for _, s := range r.Sessions {
			ev.kinds[s.ID] = s.Kind
			if !s.Date.IsZero() {
				ev.dates[s.ID] = s.Date.UTC().Format(time.DateOnly)
			}
		}
	}
	m.Sources = withSources(m.Sources, op.Evidence, ev)
	learnt(m, op.Evidence, ev)
	if len(m.Sources) == 0 && m.Learnt == "" {
		return nil
	}
	o := &transcript.Origin{Sources: m.Sources, Learnt: m.Learnt, Confirmed: m.Confirmed, RetaughtCount: m.RetaughtCount}
	for _, e := range m.Retaught {
		o.Retaught = append(o.Retaught, e.String())
	}
	return o
}
