package store

import (
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/sanitize"
)

// RenderIndex is MEMORY.md for mems with full descriptions: "# Memory", then a section per type in
// the order of Types. Only types that have entries get a section, so the index Claude Code loads
// carries no empty headings. A memory of unknown or empty type is listed under Project.
func RenderIndex(mems []*Memory) []byte {
	return RenderIndexWithin(mems, 0)
}

// RenderIndexWithin is RenderIndex with every entry shortened by IndexLine to lineMax characters
// (0: no limit).
func RenderIndexWithin(mems []*Memory, lineMax int) []byte {
	sections := map[memory.Type][]*Memory{}
	for _, m := range mems {
		sections[indexType(m.Type)] = append(sections[indexType(m.Type)], m)
	}
	var b strings.Builder
	b.WriteString("# Memory\n")
	for _, t := range memory.Types {
		typ := string(t)
		entries := sections[t]
		if len(entries) == 0 {
			continue
		}
		slices.SortStableFunc(entries, func(x, y *Memory) int { return strings.Compare(x.Name, y.Name) })
		b.WriteString("\n## " + strings.ToUpper(typ[:1]) + typ[1:] + "\n")
		for _, m := range entries {
			b.WriteString(IndexLine(m, lineMax) + "\n")
		}
	}
	return []byte(b.String())
}

func indexType(typ memory.Type) memory.Type {
	if typ.Valid() {
		return typ
	}
	return memory.Project
}

// IndexLine is m's index entry (memory.IndexLine).
func IndexLine(m *Memory, lineMax int) string {
	return memory.IndexLine(m.Name, m.Description, lineMax)
}

var (
	// indexEntry is a list item linking a topic file of the store: what the index is made of. A
	// hand-written topic file's name may hold spaces, brackets or parentheses ("notes(1).md"), and
	// IndexLine links it as it is: the link target is any name without a path (no / \ :).
	indexEntry = lazyre.New(`^\s*[-*+]\s+\[.*?\]\([^/\\:]+?\.md\)`)
	// derivedHeading is a heading RenderIndex writes: "# Memory", or "## " and a type.
	derivedHeading = lazyre.New(`(?i)^(#\s+memory|##\s+(` + strings.Join(memory.TypeNames(), "|") + `))\s*$`)
	heading        = lazyre.New(`^#{1,6}\s`)
)

// IndexExtras returns what a person added to MEMORY.md beyond the derived index: every line that is
// not an entry linking a topic file, a heading RenderIndex writes, or blank, with single blank
// lines kept between paragraphs. Other headings are kept for context, but headings alone are not
// content: then it returns "".
func IndexExtras(index []byte) string {
	var kept []string
	gap, content := false, false
	for line := range strings.SplitSeq(strings.TrimPrefix(string(index), sanitize.ByteOrderMark), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.TrimSpace(line) == "":
			gap = len(kept) > 0
		case indexEntry.MatchString(line) || derivedHeading.MatchString(strings.TrimSpace(line)):
		default:
			if gap {
				kept = append(kept, "")
				gap = false
			}
			kept = append(kept, line)
			content = content || !heading.MatchString(line)
		}
	}
	if !content {
		return ""
	}
	return strings.Join(kept, "\n") + "\n"
}
