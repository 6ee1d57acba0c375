package phases

import (
	"cmp"
	"crypto/rand"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
)

// Plan is one store's pass, complete: what was read, what the consolidator asked for, and the
// exact bytes every changed file will hold. Applying it needs nothing else (no LLM call). It is
// the pass's value, not a format: a plan is saved as a PlanFile (planfile.go), and reports and the
// JSON output build their own views of it (package report), never changing it.
type Plan struct {
	RunID            string
	Created          time.Time
	Store            string
	State            string
	StoreFingerprint string

	Consolidator string // model name, or "offline"
	Offline      bool
	OfflineWhy   string
	Summary      string
	Usage        extract.Usage
	Cost         float64 // at llm.prices; 0 when none are configured

	Read       []FileRead // transcripts consolidated, with cursors before and after
	Deferred   []FileRead // transcripts left for the next pass
	Cut        []string
	Warnings   []string
	Redactions int
	Bytes      int64
	Operations []extract.Operation
	Rejected   []extract.Rejected
	Repaired   []extract.Repaired
	Secrets    []SecretFinding // memories already holding a credential (redacted from the request)
	Unclean    []string        // store files holding NUL or control bytes, read sanitised and left as they are
	Verbatim   []string        // store files whose front matter dreamd cannot write back: never rewritten or retired
	Retired    []store.Retirement
	LeftOut    []extract.Operation // new memories that did not fit the index caps
	// Elsewhere are memories for another scope's store (Operation.Scope), queued for its pass when
	// the plan is applied; a memory of this store they name is in Retired as moved.
	Elsewhere []extract.Operation
	// OfferedAgain are transcripts whose cursors stay put because an operation drawn from them
	// was rejected: the next pass sends the material again. GaveUp are those offered too often.
	OfferedAgain []string
	GaveUp       []string
	OverCap      int // index entries still over the caps (the guard allowed no more)
	// Retaught are the lessons the pass's sessions taught again after they were learnt: the agent
	// did not follow them (Counts.Retaught, the adherence figure).
	Retaught []Retaught
	// Stale are the memories of the next store whose citations no longer hold in the project;
	// Citations is what the pass found, recorded for the next one when the plan is applied (nil:
	// no project was checked).
	Stale     []StaleMemory
	Citations *Citations
	// Quotes are, by operation name (OperationNames), a few of the person's words from the
	// operation's evidence sessions that support it (quotes.go): what a reviewer reads.
	Quotes map[string][]Quote
	// Edited are the operations (by name) a person rewrote in review before the plan was
	// applied (Selection.Edits): their text is the person's, checked like the model's.
	Edited  []string
	Changes []store.Change
	Cursors Cursors           // the store's cursors once applied
	Tails   map[string]string // per transcript: hash of the bytes before To.Offset

	Counts      Counts
	Limits      memory.Limits
	IndexBefore memory.IndexStats
	IndexAfter  memory.IndexStats
}

// Counts summarize a plan.
type Counts struct {
	Sessions   int `json:"sessions"`
	Created    int `json:"created"`
	Updated    int `json:"updated"`
	Merged     int `json:"merged"`
	Superseded int `json:"superseded"`
	Reinforced int `json:"reinforced"`
	Retaught   int `json:"retaught"` // lessons taught again after they were learnt
	Retired    int `json:"retired"`  // every memory leaving the store, for whatever reason
	Rejected   int `json:"rejected"`
}

// Empty reports whether applying the plan changes no memory.
func (p *Plan) Empty() bool { return len(p.Changes) == 0 }

// MakePlan puts one store's pass together: what gather read, what the consolidator answered,
// what decide chose and render wrote, and where the cursors go once it is applied. It is made at
// now, the pass's one reading of the clock, and writes nothing.
func MakePlan(env *Env, o *Oriented, g Gathered, c Consolidated, d Decision, r Rendered, now time.Time) *Plan {
	p := &Plan{
		RunID:            NewRunID(now),
		Created:          now.UTC(),
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
		Warnings:         slices.Concat(g.Warnings, r.Warnings),
		Redactions:       g.Redactions,
		Bytes:            g.Bytes,
		Operations:       d.Operations,
		Rejected:         c.Rejected,
		Repaired:         c.Repaired,
		Secrets:          slices.Concat(c.Secrets, r.Secrets),
		Unclean:          o.Store.Unclean(),
		Verbatim:         o.Store.Verbatim(),
		Retired:          r.Retired,
		LeftOut:          d.LeftOut,
		Elsewhere:        d.Elsewhere,
		OverCap:          d.OverCap,
		Retaught:         slices.Clip(append([]Retaught{}, d.Retaught...)),
		Changes:          r.Changes,
		Quotes:           pickQuotes(slices.Concat(d.Operations, d.Elsewhere), g.Sessions, g.Known, env.Redactor),
		Limits:           env.Limits,
		IndexBefore:      r.IndexBefore,
		IndexAfter:       r.IndexAfter,
	}
	again, gaveUp := offerAgain(g.Read, c.Rejected)
	p.Cursors = advance(o.Cursors, g.Read, again)
	p.OfferedAgain, p.GaveUp = slices.Sorted(maps.Keys(again)), gaveUp
	p.Counts = count(p, o.Store)
	p.Counts.Retaught = len(p.Retaught)
	return p
}

// NewRunID names a run (an apply or a rollback) by its time, plus random bits so two runs in one
// second never collide; ids sort by time.
func NewRunID(t time.Time) string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s-%x", t.UTC().Format("20060102T150405Z"), b)
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
