package phases

import (
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/store"
)

// index.go is how each memory is listed in the derived index (MEMORY.md): what decide.go measures
// against the caps, render.go writes, and verify.go re-derives.

// DerivedIndex is the MEMORY.md a pass writes for mems: what a merge of two machines' indexes is
// rebuilt from.
func DerivedIndex(mems []*store.Memory, red *redact.Redactor, lineMax int) []byte {
	return store.RenderIndexWithin(indexed(mems, red), lineMax)
}

// StaleMark opens the index line of a memory whose citations no longer hold in its project, so an
// agent reading MEMORY.md checks before it acts on it.
const StaleMark = "[may be stale] "

// indexed gives every memory an index type and description, hand-written ones included. The
// index is what Claude Code loads into every session, so a credential a person typed into a
// description is redacted there (red nil: not, for measuring the index's size).
func indexed(mems []*store.Memory, red *redact.Redactor) []*store.Memory {
	out := make([]*store.Memory, len(mems))
	for i, m := range mems {
		cp := *m
		cp.Type = memoryType(m)
		cp.Description, _ = redactText(red, describe(m))
		if m.Stale != "" {
			cp.Description = StaleMark + cp.Description
		}
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
