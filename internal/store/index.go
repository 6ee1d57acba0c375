package store

import (
	"github.com/dreamd/dreamd/internal/sanitize"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/lazyre"
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
	sections := map[string][]*Memory{}
	for _, m := range mems {
		sections[indexType(m.Type)] = append(sections[indexType(m.Type)], m)
	}
	var b strings.Builder
	b.WriteString("# Memory\n")
	for _, typ := range Types {
		entries := sections[typ]
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

func indexType(typ string) string {
	if slices.Contains(Types, typ) {
		return typ
	}
	return "project"
}

// IndexLine is m's index entry "- [name](name.md) — description", the description put on one
// line and shortened with "…" so the entry fits lineMax characters (0: no limit). When not even one
// character of the description fits, the entry is the link alone.
func IndexLine(m *Memory, lineMax int) string {
	link := "- [" + m.Name + "](" + m.Name + ".md)"
	desc := sanitize.Line(m.Description)
	if desc == "" {
		return link
	}
	line := link + " — " + desc
	if lineMax <= 0 || utf8.RuneCountInString(line) <= lineMax {
		return line
	}
	room := lineMax - utf8.RuneCountInString(link+" — ") - 1 // one for "…"
	if room < 1 {
		return link
	}
	cut := strings.TrimRight(string([]rune(desc)[:room]), " ")
	return link + " — " + cut + "…"
}

// IndexStats measures an index against the caps.
type IndexStats struct {
	Lines       int `json:"lines"`
	Bytes       int `json:"bytes"`
	LongestLine int `json:"longest_line"`
}

// StatIndex counts b's lines, bytes and the characters of its longest line.
func StatIndex(b []byte) IndexStats {
	s := IndexStats{Bytes: len(b)}
	text := strings.TrimSuffix(string(b), "\n")
	if len(b) == 0 {
		return s
	}
	for line := range strings.SplitSeq(text, "\n") {
		s.Lines++
		s.LongestLine = max(s.LongestLine, utf8.RuneCountInString(strings.TrimSuffix(line, "\r")))
	}
	return s
}

// IndexFits reports whether an index of these stats is within the caps; a cap of 0 or less is no cap.
func (l Limits) IndexFits(s IndexStats) bool {
	within := func(v, limit int) bool { return limit <= 0 || v <= limit }
	return within(s.Lines, l.IndexMaxLines) && within(s.Bytes, l.IndexMaxBytes) && within(s.LongestLine, l.IndexLineMax)
}

var (
	// indexEntry is a list item linking a topic file of the store: what the index is made of.
	indexEntry = lazyre.New(`^\s*[-*+]\s+\[[^\]]*\]\([^)/\\:\s]+\.md\)`)
	// derivedHeading is a heading RenderIndex writes: "# Memory", or "## " and a type.
	derivedHeading = lazyre.New(`(?i)^(#\s+memory|##\s+(` + strings.Join(Types, "|") + `))\s*$`)
	heading        = lazyre.New(`^#{1,6}\s`)
)

// IndexExtras returns what a person added to MEMORY.md beyond the derived index: every line that is
// not an entry linking a topic file, a heading RenderIndex writes, or blank, with single blank
// lines kept between paragraphs. Other headings are kept for context, but headings alone are not
// content: then it returns "".
func IndexExtras(index []byte) string {
	var kept []string
	gap, content := false, false
	for line := range strings.SplitSeq(string(index), "\n") {
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
