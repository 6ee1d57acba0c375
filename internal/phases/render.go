package phases

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/store"
)

// render.go is the one step that turns a decision into bytes: every memory file that changes, the
// derived index, the notes rescued from a hand-edited index, and the index's size before and
// after. It reads nothing but the store it is given and writes nothing.

// Rendered is a decision as the files it writes.
type Rendered struct {
	Changes []store.Change     // every file whose bytes differ, sorted by name
	Retired []store.Retirement // the decision's, less the archiving of memories left byte-identical
	// Secrets and Warnings are what rendering found in the prose a person typed into MEMORY.md,
	// which moves into a topic file (redacted, sanitised).
	Secrets  []SecretFinding
	Warnings []string

	IndexBefore, IndexAfter memory.IndexStats
}

// Render renders every file that changes between the store s as it is and the store d decided on.
func Render(env *Env, s *store.Store, d Decision) Rendered {
	var r Rendered
	// What a person typed into MEMORY.md moves into a topic file dreamd writes, which never holds a
	// credential; the journal keeps the index as it was, for rollback.
	notes, found := redactText(env.Redactor, store.IndexExtras(s.Index))
	if len(found) > 0 {
		r.Secrets = append(r.Secrets, SecretFinding{Memory: store.IndexFile, Kinds: found})
	}
	if !sanitize.Clean(notes) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s held NUL or control bytes or invalid UTF-8: its prose moves to %s.md without them (the run's journal keeps the index as it was)", store.IndexFile, notesName))
	}
	r.Changes = changes(s, d.Next, d.Retired, notes, env.Redactor, env.Limits.IndexLineMax)
	r.Retired = withoutIdleRewrites(d.Retired, r.Changes)
	r.IndexBefore = memory.StatIndex(s.Index)
	r.IndexAfter = r.IndexBefore
	for _, ch := range r.Changes {
		if ch.Name == store.IndexFile {
			r.IndexAfter = memory.StatIndex(ch.New)
		}
	}
	return r
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
