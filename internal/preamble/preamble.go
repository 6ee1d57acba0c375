// Package preamble renders the text put in front of an agent's session: the memories of most
// value that fit a byte budget, then one line saying how to search the rest. The text depends
// only on the memories, never on the clock, so it stays byte-identical while the store does —
// which keeps a provider's prompt cache warm and an instruction file's managed block unchanged.
package preamble

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/sanitize"
)

// Memory is what the preamble needs of one memory.
type Memory struct {
	Name, Type, Description, Body string
	Updated                       string // YYYY-MM-DD, "" when unknown
	Pinned                        bool
}

// DefaultMaxBytes keeps the preamble well inside the instruction-file budgets agents apply
// (Codex CLI stops reading project docs at 32 KiB in all).
const DefaultMaxBytes = 8 << 10

// typeOrder is the order of sections, as in MEMORY.md.
var typeOrder = []string{"user", "feedback", "project", "reference"}

// typeRank is how much a type is worth in front of a session: how the person wants to be worked
// with changes every answer; project facts and references are there to be looked up.
var typeRank = map[string]int{"feedback": 0, "user": 1, "project": 2, "reference": 3}

// Render returns the preamble of mems within maxBytes (0 = DefaultMaxBytes). Memories are taken in
// order of value — pinned first, then by type, then most recently updated, then by name — each
// whole while it fits, else as its description line; the rest are left to recall. The result is
// "" for a store without memories.
func Render(mems []Memory, maxBytes int) string {
	if len(mems) == 0 {
		return ""
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	ranked := slices.Clone(mems)
	slices.SortFunc(ranked, byValue)

	header := "# Memory\n\nLessons from earlier sessions in this project, kept by dreamd. Follow them unless the person says otherwise.\n"
	footer := func(left int) string {
		if left == 0 {
			return "\nSearch them with `dreamd recall QUERY` (or the dreamd MCP tool `recall`).\n"
		}
		return fmt.Sprintf("\n%d more %s not shown: search them with `dreamd recall QUERY` (or the dreamd MCP tool `recall`).\n", left, plural(left, "memory is", "memories are"))
	}
	budget := maxBytes - len(header) - len(footer(len(mems)))
	entries := map[string]string{}
	for _, m := range ranked {
		full, short := entry(m, true), entry(m, false)
		switch {
		case len(full) <= budget:
			entries[m.Name] = full
		case len(short) <= budget:
			entries[m.Name] = short
		default:
			continue
		}
		budget -= len(entries[m.Name])
	}
	if len(entries) == 0 {
		return ""
	}

	var b strings.Builder
	b.WriteString(header)
	for _, typ := range append(slices.Clone(typeOrder), "") {
		var section []string
		for _, m := range ranked {
			if e, ok := entries[m.Name]; ok && sectionOf(m.Type) == typ {
				section = append(section, e)
			}
		}
		if len(section) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n", title(typ))
		for _, e := range section {
			b.WriteString(e)
		}
	}
	b.WriteString(footer(len(mems) - len(entries)))
	return b.String()
}

// entry is one memory: its description line, with the body below it when withBody.
func entry(m Memory, withBody bool) string {
	// A name is a hand-written file's stem: a newline or an escape in it must not become a
	// heading or a terminal sequence in the file an agent loads.
	name := sanitize.Line(m.Name)
	line := fmt.Sprintf("- **%s**: %s\n", name, oneLine(cmp.Or(sanitize.Line(m.Description), name)))
	body := strings.TrimSpace(m.Body)
	if !withBody || body == "" {
		return line
	}
	var b strings.Builder
	b.WriteString(line)
	for l := range strings.Lines(body) {
		if strings.TrimSpace(l) == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("  " + strings.TrimRight(l, "\n") + "\n")
	}
	return b.String()
}

func byValue(a, b Memory) int {
	if a.Pinned != b.Pinned {
		if a.Pinned {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(rankOf(a.Type), rankOf(b.Type)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Updated, a.Updated); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

func rankOf(typ string) int {
	if r, ok := typeRank[typ]; ok {
		return r
	}
	return len(typeRank)
}

func sectionOf(typ string) string {
	if slices.Contains(typeOrder, typ) {
		return typ
	}
	return ""
}

func title(typ string) string {
	if typ == "" {
		return "Other"
	}
	return strings.ToUpper(typ[:1]) + typ[1:]
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// plural picks the word for n things: one or many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
