package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/cores"
	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/store"
)

// Consolidated is the consolidator's answer after validation.
type Consolidated struct {
	Summary    string
	Operations []extract.Operation // valid, for this store, in the consolidator's order
	// Elsewhere are valid operations for another scope's store (their Scope): they are sent there
	// when the plan is applied, and a memory of this store they name moves out of it.
	Elsewhere []extract.Operation
	Rejected  []extract.Rejected // dropped, each with why
	Repaired  []extract.Repaired // mended instead of dropped
	Usage     extract.Usage
	Model     string
	Offline   bool
	Notes     []string // what the prompt left out for space
	// Secrets lists the memories whose text held a credential, redacted from the request; the
	// store itself is not rewritten for it (the report tells the person where to look).
	Secrets []SecretFinding
}

// SecretFinding is a credential found in an existing memory.
type SecretFinding struct {
	Memory string   `json:"memory"`
	Kinds  []string `json:"kinds"`
}

// Consolidate makes the store's one consolidation call and validates every operation it returns.
// A response that is not the contract's shape fails the pass; nothing has been written. known
// holds the secret values the digest's redaction found (nil: none).
func Consolidate(ctx context.Context, env *Env, s *store.Store, sessions []extract.Session, known *redact.Known) (Consolidated, error) {
	if err := indexWritable(s); err != nil {
		return Consolidated{}, err // caught before the call: the plan could never be applied
	}
	req, secrets := Request(env, s, sessions, known)
	res, err := env.Consolidator.Consolidate(ctx, req)
	if err != nil {
		return Consolidated{}, err
	}
	v := extract.Validate(res.Response, req, env.Limits, env.Redactor)
	summary := cleanSummary(res.Response.Summary)
	if env.Redactor != nil {
		summary, _ = env.Redactor.Redact(summary)
	}
	here, elsewhere := byScope(v.Operations, req.Scope())
	here, moved := clearOfLinks(here, s.Outside)
	return Consolidated{
		Summary:    summary,
		Operations: here,
		Elsewhere:  elsewhere,
		Rejected:   v.Rejected,
		Repaired:   slices.Concat(v.Repaired, moved),
		Usage:      res.Usage,
		Model:      res.Model,
		Offline:    res.Offline,
		Notes:      res.Notes,
		Secrets:    secrets,
	}, nil
}

// Request is what the consolidator sees: today, every memory of the store, the digest. The
// request leaves the machine, so every memory's text is redacted like the transcripts are: a
// person may have typed a credential into a topic file. Where that happened is returned. Once a
// value is a secret every occurrence of it goes: the values found in the digest (known, nil: none)
// and in the memories are swept from both.
func Request(env *Env, s *store.Store, sessions []extract.Session, known *redact.Known) (extract.Request, []SecretFinding) {
	if known == nil {
		known = &redact.Known{}
	}
	mems := make([]extract.Memory, len(s.Memories))
	kinds := make([][]string, len(s.Memories))
	// On every core: a store of 10,000 memories is redacted whole for every pass's request.
	cores.Each(len(s.Memories), func(i int) {
		m := s.Memories[i]
		mems[i] = extract.Memory{
			Name:        m.Name,
			Type:        memoryType(m),
			Description: describe(m),
			Body:        m.Body,
			Pinned:      fixed(m), // the model may not rewrite what dreamd could not write back
			Updated:     m.Updated,
			Stale:       m.Stale,
		}
		kinds[i] = redactMemory(env.Redactor, &mems[i], known)
	})
	var secrets []SecretFinding
	for i, m := range s.Memories {
		if len(kinds[i]) > 0 {
			secrets = append(secrets, SecretFinding{Memory: m.Name, Kinds: kinds[i]})
		}
	}
	cores.Each(len(mems), func(i int) {
		mems[i].Description, _ = known.Sweep(mems[i].Description)
		mems[i].Body, _ = known.Sweep(mems[i].Body)
	})
	sessions = sweepSessions(sessions, known)
	return extract.Request{
		Today:          env.now(),
		Memories:       mems,
		Sessions:       sessions,
		MaxInputTokens: env.MaxInputTokens,
		Scopes:         env.Scopes(s.Dir),
		TeamTypes:      env.TeamTypes,
	}, secrets
}

// byScope splits operations into this store's (scope own) and the others'.
func byScope(ops []extract.Operation, own memory.Scope) (here, elsewhere []extract.Operation) {
	for _, op := range ops {
		if op.Scope == own {
			here = append(here, op)
		} else {
			elsewhere = append(elsewhere, op)
		}
	}
	return here, elsewhere
}

// redactMemory redacts a memory's name, description and body in place and returns the kinds of
// secret found, sorted. The values found are remembered in known (nil: not).
func redactMemory(r *redact.Redactor, m *extract.Memory, known *redact.Known) []string {
	var kinds []string
	for _, field := range []*string{&m.Name, &m.Description, &m.Body} {
		if r == nil || *field == "" {
			continue
		}
		out, found := r.Redact(*field)
		if known != nil {
			known.Remember(*field, found)
		}
		*field = out
		for _, f := range found {
			kinds = append(kinds, f.Kind)
		}
	}
	slices.Sort(kinds)
	return slices.Compact(kinds)
}

// sweepSessions returns sessions with every value of known redacted from their turns; sessions
// themselves are left as they are (they belong to the digest), copied only where a turn changes.
func sweepSessions(sessions []extract.Session, known *redact.Known) []extract.Session {
	var out []extract.Session
	for i, s := range sessions {
		for j, t := range s.Turns {
			text, n := known.Sweep(t.Text)
			if n == 0 {
				continue
			}
			if out == nil {
				out = slices.Clone(sessions)
			}
			if &out[i].Turns[0] == &sessions[i].Turns[0] {
				out[i].Turns = slices.Clone(s.Turns)
			}
			out[i].Turns[j].Text = text
		}
	}
	if out == nil {
		return sessions
	}
	return out
}

// freeName is base, else the first of base-2, base-3, … that is not taken.
func freeName(base string, taken func(string) bool) string {
	name := base
	for n := 2; taken(name); n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	return name
}

// clearOfLinks gives a memory created under the name of a link to a file outside the store (which
// dreamd leaves alone, and would otherwise write over) the next free name.
func clearOfLinks(ops []extract.Operation, outside []string) ([]extract.Operation, []extract.Repaired) {
	if len(outside) == 0 {
		return ops, nil
	}
	taken := func(name string) bool {
		return slices.Contains(outside, name+".md") || slices.ContainsFunc(ops, func(o extract.Operation) bool { return o.Name == name })
	}
	var repaired []extract.Repaired
	for i, op := range ops {
		if op.Action != extract.Create || !slices.Contains(outside, op.Name+".md") {
			continue
		}
		name := freeName(op.Name, taken)
		ops[i].Name = name
		repaired = append(repaired, extract.Repaired{Name: name, What: fmt.Sprintf("created as %s: %s.md is a link to a file outside the store, left alone", name, op.Name)})
	}
	return ops, repaired
}

// maxSummary is how many characters of the model's summary a report and the history keep.
const maxSummary = 1000

// cleanSummary is the model's summary as reports print it: one line, no terminal control byte
// (it is printed as it is, and kept in the history), cut to maxSummary characters.
func cleanSummary(s string) string {
	s = sanitize.Line(s)
	if utf8.RuneCountInString(s) <= maxSummary {
		return s
	}
	return string([]rune(s)[:maxSummary-1]) + "…"
}

// indexWritable refuses a store whose MEMORY.md is not a regular file: dreamd derives the index
// and writes it whole, which would replace a link (inside the store or out) or fail on a directory.
func indexWritable(s *store.Store) error {
	path := filepath.Join(s.Dir, store.IndexFile)
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().IsRegular() {
		return nil // absent: the pass writes it
	}
	what := "not a regular file (" + fi.Mode().Type().String() + ")"
	if fi.Mode()&os.ModeSymlink != 0 {
		what = "a link"
		if slices.Contains(s.Outside, store.IndexFile) {
			what = "a link to a file outside the store"
		}
	}
	return fmt.Errorf("%s is %s: dreamd derives the index itself and writes it whole, so it neither writes through a link nor replaces one; make it a regular file, or remove it, and run again", path, what)
}

// gatherAndConsolidate digests the pending material and makes the store's consolidation call.
// The digest is cut with an estimate; when the exact count of the prompt still says it is over
// budget, the material is read again (as far as the first reading went) and cut harder, and the
// prompt built again — the model is called once. The material read is dropped once it is
// digested: held through the call, every store in flight kept its whole backlog in memory.
func gatherAndConsolidate(ctx context.Context, env *Env, o *Oriented, pending []PendingFile) (Gathered, Consolidated, error) {
	readBudget := digestBudget(env, o.Store) // how far Read goes, the same on every try
	budget := readBudget
	for try := 0; ; try++ {
		g, err := gatherOnce(ctx, env, o, pending, readBudget, budget, try == 0)
		if err != nil {
			return Gathered{}, Consolidated{}, err
		}
		if len(g.Sessions) == 0 {
			c := Consolidated{Model: env.ConsolidatorName, Summary: "The new material held nothing to consolidate (no user or assistant words)."}
			return g, c, nil
		}
		env.log().Debug("consolidating", "store", o.Paths.Store, "sessions", len(g.Sessions), "consolidator", env.ConsolidatorName)
		env.progress(Progress{Store: o.Paths.Store, Stage: Consolidating, Files: len(pending), Done: len(pending)})
		c, err := Consolidate(ctx, env, o.Store, g.Sessions, g.Known)
		env.progress(Progress{Store: o.Paths.Store, Stage: Finished})
		if errors.Is(err, extract.ErrOverBudget) && budget > 1000 {
			budget = budget * 2 / 3
			continue
		}
		return g, c, err
	}
}

// gathering bounds the stores reading and digesting their material at once to the cores: each
// reading uses every core already, and a store waiting on its call holds only its digest.
var gathering = make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))

// gatherOnce reads the pending material as far as readBudget lets Read go and digests it within
// budget; first says to log a backlog left for later passes.
func gatherOnce(ctx context.Context, env *Env, o *Oriented, pending []PendingFile, readBudget, budget int, first bool) (Gathered, error) {
	select {
	case gathering <- struct{}{}:
	case <-ctx.Done():
		return Gathered{}, ctx.Err()
	}
	defer func() { <-gathering }()
	material, err := Read(ctx, env, o.Paths.Store, pending, readBudget)
	if err != nil {
		return Gathered{}, err
	}
	if n := len(material.unread); n > 0 && first {
		read := len(pending) - n
		env.log().Info("a long backlog: this pass consolidates the oldest sessions, the rest waits for the next passes",
			"store", o.Paths.Store, "read", read, "left", n, "passes_left", (n+read-1)/read, "why", material.why)
	}
	return material.Digest(env.Redactor, budget), nil
}
