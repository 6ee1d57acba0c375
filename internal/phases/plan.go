package phases

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/store"
)

// PlanVersion is the format of saved plans (`dreamd plan -o`).
const PlanVersion = 1

// Plan is one store's pass, complete: what was read, what the consolidator asked for, and the
// exact bytes every changed file will hold. Applying it needs nothing else (no LLM call).
type Plan struct {
	Version          int       `json:"version"`
	RunID            string    `json:"run_id"`
	Created          time.Time `json:"created"`
	Store            string    `json:"store"`
	State            string    `json:"state"`
	StoreFingerprint string    `json:"store_fingerprint"`

	Consolidator string        `json:"consolidator"` // model name, or "offline"
	Offline      bool          `json:"offline"`
	OfflineWhy   string        `json:"offline_reason,omitempty"`
	Summary      string        `json:"summary"`
	Usage        extract.Usage `json:"usage"`
	Cost         float64       `json:"cost_usd"` // at llm.prices; 0 when none are configured

	Read       []FileRead          `json:"read"`     // transcripts consolidated, with cursors before and after
	Deferred   []FileRead          `json:"deferred"` // transcripts left for the next pass
	Cut        []string            `json:"cut"`
	Warnings   []string            `json:"warnings"`
	Redactions int                 `json:"redactions"`
	Bytes      int64               `json:"bytes"`
	Operations []extract.Operation `json:"operations"`
	Rejected   []extract.Rejected  `json:"rejected"`
	Repaired   []extract.Repaired  `json:"repaired"`
	Secrets    []SecretFinding     `json:"secrets"`  // memories already holding a credential (redacted from the request)
	Unclean    []string            `json:"unclean"`  // store files holding NUL or control bytes, read sanitised and left as they are
	Verbatim   []string            `json:"verbatim"` // store files whose front matter dreamd cannot write back: never rewritten or retired
	Retired    []store.Retirement  `json:"retired"`
	LeftOut    []extract.Operation `json:"left_out"` // new memories that did not fit the index caps
	// Elsewhere are memories for another scope's store (Operation.Scope), queued for its pass when
	// the plan is applied; a memory of this store they name is in Retired as moved.
	Elsewhere []extract.Operation `json:"elsewhere"`
	// OfferedAgain are transcripts whose cursors stay put because an operation drawn from them
	// was rejected: the next pass sends the material again. GaveUp are those offered too often.
	OfferedAgain []string          `json:"offered_again"`
	GaveUp       []string          `json:"gave_up"`
	OverCap      int               `json:"over_cap"` // index entries still over the caps (the guard allowed no more)
	Changes      []store.Change    `json:"changes"`
	Cursors      Cursors           `json:"cursors"` // the store's cursors once applied
	Tails        map[string]string `json:"tails"`   // per transcript: hash of the bytes before To.Offset

	Counts      Counts            `json:"counts"`
	Limits      memory.Limits     `json:"limits"`
	IndexBefore memory.IndexStats `json:"index_before"`
	IndexAfter  memory.IndexStats `json:"index_after"`

	MAC string `json:"mac"` // HMAC of the rest with the state directory's plan key (WritePlan)
}

// Counts summarize a plan.
type Counts struct {
	Sessions   int `json:"sessions"`
	Created    int `json:"created"`
	Updated    int `json:"updated"`
	Merged     int `json:"merged"`
	Superseded int `json:"superseded"`
	Reinforced int `json:"reinforced"`
	Retired    int `json:"retired"` // every memory leaving the store, for whatever reason
	Rejected   int `json:"rejected"`
}

// Empty reports whether applying the plan changes no memory.
func (p *Plan) Empty() bool { return len(p.Changes) == 0 }

// Retire is a memory prune retires after consolidation.
type Retire struct {
	Name   string
	Reason store.RetireReason // Expired or Capped
	Detail string
}

// MakePlan renders every file that changes between the store as it is and the store prune
// decided on. It writes nothing.
func MakePlan(env *Env, o *Oriented, g Gathered, c Consolidated, pr Pruned) *Plan {
	today := env.now()
	p := &Plan{
		Version:          PlanVersion,
		Created:          today.UTC(),
		Store:            o.Paths.Store,
		State:            o.Paths.State,
		StoreFingerprint: o.Store.Fingerprint(),
		Consolidator:     c.Model,
		Offline:          c.Offline,
		OfflineWhy:       env.OfflineReason,
		Summary:          c.Summary,
		Usage:            c.Usage,
		Cost:             env.Prices.Cost(c.Usage),
		Read:             g.Read,
		Deferred:         g.Deferred,
		Cut:              slices.Concat(g.Cut, c.Notes),
		Warnings:         g.Warnings,
		Redactions:       g.Redactions,
		Bytes:            g.Bytes,
		Operations:       pr.Operations,
		Rejected:         c.Rejected,
		Repaired:         c.Repaired,
		Secrets:          c.Secrets,
		Unclean:          o.Store.Unclean(),
		Verbatim:         o.Store.Verbatim(),
		Retired:          pr.Retired,
		LeftOut:          pr.LeftOut,
		Elsewhere:        pr.Elsewhere,
		OverCap:          pr.OverCap,
		Limits:           env.Limits,
	}
	p.RunID = NewRunID(today)
	// What a person typed into MEMORY.md moves into a topic file dreamd writes, which never holds a
	// credential; the journal keeps the index as it was, for rollback.
	notes, found := redactText(env.Redactor, store.IndexExtras(o.Store.Index))
	if len(found) > 0 {
		p.Secrets = append(slices.Clone(p.Secrets), SecretFinding{Memory: store.IndexFile, Kinds: found})
	}
	if !sanitize.Clean(notes) {
		p.Warnings = append(slices.Clone(p.Warnings), fmt.Sprintf("%s held NUL or control bytes or invalid UTF-8: its prose moves to %s.md without them (the run's journal keeps the index as it was)", store.IndexFile, notesName))
	}
	p.Changes = changes(o.Store, pr.Next, pr.Retired, notes, env.Redactor, env.Limits.IndexLineMax)
	p.Retired = withoutIdleRewrites(p.Retired, p.Changes)
	again, gaveUp := offerAgain(g.Read, c.Rejected)
	p.Cursors = advance(o.Cursors, g.Read, again)
	p.OfferedAgain, p.GaveUp = slices.Sorted(maps.Keys(again)), gaveUp
	p.Counts = count(p, o.Store)
	p.IndexBefore = memory.StatIndex(o.Store.Index)
	p.IndexAfter = p.IndexBefore
	for _, ch := range p.Changes {
		if ch.Name == store.IndexFile {
			p.IndexAfter = memory.StatIndex(ch.New)
		}
	}
	return p
}

// NewRunID names a run (an apply or a rollback) by its time, plus random bits so two runs in one
// second never collide; ids sort by time.
func NewRunID(t time.Time) string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s-%x", t.UTC().Format("20060102T150405Z"), b)
}

// nextMemories applies operations and retirements to the current memories. It returns the
// memories the store will hold, sorted by name, and every memory that leaves it, with why.
func nextMemories(cur []*store.Memory, ops []extract.Operation, pruned []Retire, today time.Time, kinds map[string]string) ([]*store.Memory, []store.Retirement) {
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
			byName[op.Name] = write(byName[op.Name], op, date, kinds)
		case extract.Reinforce:
			if old, ok := byName[op.Name]; ok {
				byName[op.Name] = reinforce(old, op, date, kinds)
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

// withoutIdleRewrites drops the archiving of a hand-written memory that the run leaves
// byte-identical (an update to what it already says): nothing of it is rewritten, so there is no
// version to keep, and the store refuses to archive a memory no change touches.
func withoutIdleRewrites(retired []store.Retirement, changes []store.Change) []store.Retirement {
	return slices.DeleteFunc(slices.Clone(retired), func(r store.Retirement) bool {
		return r.Reason == store.Rewritten &&
			!slices.ContainsFunc(changes, func(c store.Change) bool { return c.Name == r.Name+".md" })
	})
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

// reinforce is a memory a session confirmed: its sources and updated date move (so prune values
// it more), its text stays as it is.
func reinforce(old *store.Memory, op extract.Operation, date string, kinds map[string]string) *store.Memory {
	m := *old
	m.Sources = withSources(m.Sources, op.Evidence, kinds)
	if m.Updated == date && len(m.Sources) == len(old.Sources) {
		return old // nothing to record: the file stays byte-identical
	}
	m.Updated = date
	m.HasFrontMatter = true
	m.Raw = nil
	return &m
}

// withSources adds the evidence sessions, as kind:id, to sources.
func withSources(sources, evidence []string, kinds map[string]string) []string {
	out := slices.Clone(sources)
	for _, id := range evidence {
		if kind := kinds[id]; kind != "" {
			id = kind + ":" + id
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// write is a memory after a create or update: the old one's created date, sources and keys
// dreamd does not know are kept.
func write(old *store.Memory, op extract.Operation, date string, kinds map[string]string) *store.Memory {
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
	m.Sources = withSources(m.Sources, op.Evidence, kinds)
	m.Raw = nil
	return m
}

// changes renders every file whose bytes differ: written memories, retired ones (removed), the
// derived index, and the notes rescued from a hand-edited index.
func changes(s *store.Store, next []*store.Memory, retired []store.Retirement, notes string, red *redact.Redactor, lineMax int) []store.Change {
	old := make(map[string][]byte, len(s.Memories))
	for _, m := range s.Memories {
		old[m.Name+".md"] = m.Raw
	}
	if notes != "" {
		next = withIndexNotes(next, retired, notes)
	}
	var out []store.Change
	for _, m := range next {
		if m.Raw != nil {
			continue // untouched: stays byte-identical
		}
		name := m.Name + ".md"
		if b := m.Render(); !bytes.Equal(b, old[name]) {
			out = append(out, store.Change{Name: name, Old: old[name], New: b})
		}
	}
	for _, r := range retired {
		if r.Reason == store.Rewritten {
			continue // archived, and written anew above
		}
		out = append(out, store.Change{Name: r.Name + ".md", Old: old[r.Name+".md"]})
	}
	index := store.RenderIndexWithin(indexed(next, red), lineMax)
	if len(next) == 0 && s.Index == nil {
		index = nil // no memories and no index yet: nothing to derive
	}
	if !bytes.Equal(index, s.Index) {
		out = append(out, store.Change{Name: store.IndexFile, Old: s.Index, New: index})
	}
	slices.SortFunc(out, func(a, b store.Change) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// notesName is the topic file that receives what a person wrote into MEMORY.md by hand.
const notesName = "memory-index-notes"

// withIndexNotes adds extras to the notes memory of next (in a copy of next), or as a new one. Notes
// that are pinned, kept as written or retired by this run are not written again: the extras go to
// the next free name.
func withIndexNotes(next []*store.Memory, retired []store.Retirement, extras string) []*store.Memory {
	name := freeName(notesName, func(name string) bool {
		return slices.ContainsFunc(next, func(m *store.Memory) bool { return m.Name == name && fixed(m) }) ||
			slices.ContainsFunc(retired, func(r store.Retirement) bool { return r.Name == name && r.Reason != store.Rewritten })
	})
	m := &store.Memory{
		Name:           name,
		Type:           "project",
		Description:    "Notes written by hand into MEMORY.md, moved here so the index stays derived",
		HasFrontMatter: true,
	}
	i := slices.IndexFunc(next, func(n *store.Memory) bool { return n.Name == name })
	if i >= 0 {
		cp := *next[i]
		m = &cp
	}
	m.Body = strings.TrimRight(strings.TrimSpace(m.Body)+"\n\n"+strings.TrimSpace(extras), "\n") + "\n"
	m.Body = strings.TrimLeft(m.Body, "\n")
	m.Raw = nil
	if i >= 0 {
		next = slices.Clone(next)
		next[i] = m
		return next
	}
	return append(slices.Clip(next), m)
}

// DerivedIndex is the MEMORY.md a pass writes for mems: what a merge of two machines' indexes is
// rebuilt from.
func DerivedIndex(mems []*store.Memory, red *redact.Redactor, lineMax int) []byte {
	return store.RenderIndexWithin(indexed(mems, red), lineMax)
}

// indexed gives every memory an index type and description, hand-written ones included. The
// index is what Claude Code loads into every session, so a credential a person typed into a
// description is redacted there (red nil: not, for measuring the index's size).
func indexed(mems []*store.Memory, red *redact.Redactor) []*store.Memory {
	out := make([]*store.Memory, len(mems))
	for i, m := range mems {
		cp := *m
		cp.Type = memoryType(m)
		cp.Description, _ = redactText(red, describe(m))
		out[i] = &cp
	}
	return out
}

// redactText redacts s with red (nil: as it is) and returns the kinds of what it found.
func redactText(red *redact.Redactor, s string) (string, []string) {
	if red == nil || s == "" {
		return s, nil
	}
	out, found := red.Redact(s)
	var kinds []string
	for _, f := range found {
		kinds = append(kinds, f.Kind)
	}
	slices.Sort(kinds)
	return out, slices.Compact(kinds)
}

// memoryType is a memory's type; a hand-written file without one counts as project knowledge.
func memoryType(m *store.Memory) memory.Type {
	if m.Type.Valid() {
		return m.Type
	}
	return memory.Project
}

// describe is a memory's description; a hand-written file without one is described by its
// first line of text.
func describe(m *store.Memory) string {
	if d := strings.TrimSpace(m.Description); d != "" {
		return d
	}
	for line := range strings.Lines(m.Body) {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#-*> "))
		if line != "" {
			return line
		}
	}
	return m.Name
}

// advance moves the cursors of every file read; deferred files keep theirs.
func advance(cur Cursors, read []FileRead, again map[string]bool) Cursors {
	next := make(Cursors, len(cur)+len(read))
	for k, v := range cur {
		next[k] = v
	}
	for _, r := range read {
		c := r.To
		if again[r.Path] {
			c = r.From
			c.Offers++
		}
		// The cursor remembers where the file was routed, so later passes need not peek at it.
		c.Project, c.Session = cmp.Or(c.Project, r.Project), cmp.Or(c.Session, r.Session)
		next[r.Path] = c
	}
	return next
}

// MaxOffers bounds how often the same material is sent to the model again because an operation
// drawn from it was rejected: a poisonous session costs at most this many more calls.
const MaxOffers = 2

// offerAgain chooses the files whose material goes to the model again: those holding a session
// that a rejected operation names as evidence, unless they were offered MaxOffers times already.
// It returns them, and the files given up on.
func offerAgain(read []FileRead, rejected []extract.Rejected) (again map[string]bool, gaveUp []string) {
	ids := map[string]bool{}
	for _, r := range rejected {
		for _, id := range r.Operation.Evidence {
			_, bare, ok := strings.Cut(id, ":")
			ids[id] = true
			if ok {
				ids[bare] = true
			}
		}
	}
	again = map[string]bool{}
	for _, r := range read {
		if !slices.ContainsFunc(r.Sessions, func(s SessionRef) bool { return ids[s.ID] }) {
			continue
		}
		if r.From.Offers >= MaxOffers {
			gaveUp = append(gaveUp, r.Path)
			continue
		}
		again[r.Path] = true
	}
	return again, gaveUp
}

func count(p *Plan, s *store.Store) Counts {
	c := Counts{Rejected: len(p.Rejected)}
	for _, r := range p.Read {
		c.Sessions += len(r.Sessions)
	}
	exists := map[string]bool{}
	for _, m := range s.Memories {
		exists[m.Name] = true
	}
	for _, op := range p.Operations {
		switch {
		case op.Action == extract.Delete:
		case op.Action == extract.Reinforce:
			c.Reinforced++
		case exists[op.Name]:
			c.Updated++
		default:
			c.Created++
		}
	}
	for _, r := range p.Retired {
		switch r.Reason {
		case store.Rewritten:
			continue // archived, not gone
		case store.Merged:
			c.Merged++
		case store.Superseded:
			c.Superseded++
		}
		c.Retired++
	}
	return c
}
