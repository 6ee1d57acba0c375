package eval

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
)

// Check is one expectation, or one automatic check, and whether the store met it.
type Check struct {
	Category string `json:"category"`
	Kind     string `json:"kind"` // mentions, absent, exactly_one, not_current, retaught, stale, index, archive
	Text     string `json:"text,omitempty"`
	Note     string `json:"note,omitempty"`
	Pass     bool   `json:"pass"`
	Detail   string `json:"detail,omitempty"` // why it failed
}

// memoryText is what a memory says: its description and body. The front matter's bookkeeping
// (dates, sources) would make "mentions 2026-11-21" hold for every memory written today.
type memoryText struct {
	name, text string
}

// outcome is the store as the pass left it.
type outcome struct {
	memories []memoryText
	files    map[string]string // every .md file of the store, MEMORY.md included, as written
	index    []byte
	retaught map[string][]string // memory name → the re-teachings its front matter records
}

func readOutcome(dir string) (*outcome, error) {
	s, err := store.Load(dir)
	if err != nil {
		return nil, err
	}
	o := &outcome{files: map[string]string{}, index: s.Index, retaught: map[string][]string{}}
	for _, m := range s.Memories {
		for _, r := range m.Retaught {
			o.retaught[m.Name] = append(o.retaught[m.Name], r.String())
		}
		o.memories = append(o.memories, memoryText{name: m.Name, text: m.Description + "\n" + m.Body})
		raw := m.Raw
		if raw == nil {
			raw = m.Render()
		}
		o.files[m.Name+".md"] = string(raw)
	}
	if s.Index != nil {
		o.files[store.IndexFile] = string(s.Index)
	}
	return o, nil
}

// check evaluates one expectation against the store.
func (o *outcome) check(e Expectation) Check {
	kind, text := e.Kind()
	c := Check{Category: e.Category, Kind: kind, Text: text, Note: e.Note}
	switch kind {
	case "mentions":
		c.Pass = len(o.mentioning(text)) > 0
		if !c.Pass {
			c.Detail = fmt.Sprintf("no memory mentions it (%d memories)", len(o.memories))
		}
	case "exactly_one":
		names := o.mentioning(text)
		c.Pass = len(names) == 1
		if !c.Pass {
			c.Detail = fmt.Sprintf("%d memories mention it", len(names))
			if len(names) > 0 {
				c.Detail += ": " + strings.Join(names, ", ")
			}
		}
	case "absent":
		c.Pass = true
		for _, name := range sortedKeys(o.files) {
			if mentions(o.files[name], text) {
				c.Pass, c.Detail = false, "found in "+name
				break
			}
		}
	case "retaught":
		for _, name := range alternatives(text) {
			if len(o.retaught[strings.TrimSpace(name)]) > 0 {
				c.Pass = true
			}
		}
		if !c.Pass {
			c.Detail = "no re-teaching recorded"
		}
	case "stale":
		for _, name := range alternatives(text) {
			if o.markedStale(strings.TrimSpace(name)) {
				c.Pass = true
			}
		}
		if !c.Pass {
			c.Detail = "its index line is not marked " + strings.TrimSpace(phases.StaleMark)
		}
	case "not_current":
		c.Pass = true
		for _, m := range o.memories {
			if current, context := presentsAsCurrent(m.text, text); current {
				c.Pass, c.Detail = false, fmt.Sprintf("%s presents it as current: %q", m.name, context)
				break
			}
		}
	}
	return c
}

// mentioning lists the memories that mention text.
func (o *outcome) mentioning(text string) []string {
	var names []string
	for _, m := range o.memories {
		if mentions(m.text, text) {
			names = append(names, m.name)
		}
	}
	return names
}

// checkIndex is the automatic check of every scenario: MEMORY.md fits the caps and lists every
// topic file, so no memory is invisible to the agent.
func (o *outcome) checkIndex(lim memory.Limits) Check {
	c := Check{Category: Caps, Kind: "index", Text: store.IndexFile, Pass: true}
	st := memory.StatIndex(o.index)
	var why []string
	if !lim.IndexFits(st) {
		why = append(why, fmt.Sprintf("%d lines, %d bytes, longest line %d characters; caps %d, %d, %d",
			st.Lines, st.Bytes, st.LongestLine, lim.IndexMaxLines, lim.IndexMaxBytes, lim.IndexLineMax))
	}
	var missing []string
	for _, m := range o.memories {
		if !strings.Contains(string(o.index), "("+m.name+".md)") {
			missing = append(missing, m.name)
		}
	}
	if len(missing) > 0 {
		why = append(why, "not listed: "+strings.Join(missing, ", "))
	}
	if len(why) > 0 {
		c.Pass, c.Detail = false, strings.Join(why, "; ")
	}
	return c
}

// checkArchive is the automatic check of every scenario with a starting store: every memory
// present at the start is still in the store or was archived, with its content, by a committed
// run.
func (o *outcome) checkArchive(start []string, p store.Paths) Check {
	c := Check{Category: Archived, Kind: "archive", Text: fmt.Sprintf("%d starting memories", len(start)), Pass: true}
	archived, err := store.Archived(p)
	if err != nil {
		c.Pass, c.Detail = false, "reading the archive: "+err.Error()
		return c
	}
	kept := map[string]bool{}
	for _, m := range o.memories {
		kept[m.name] = true
	}
	for _, a := range archived {
		if fi, err := os.Stat(a.Path); err == nil && fi.Size() > 0 {
			kept[a.Name] = true
		}
	}
	var lost []string
	for _, name := range start {
		if !kept[name] {
			lost = append(lost, name)
		}
	}
	if len(lost) > 0 {
		c.Pass, c.Detail = false, "gone from the store and not in the archive: "+strings.Join(lost, ", ")
	}
	return c
}

// startingMemories names the memories of the store before the pass.
func startingMemories(dir string) ([]string, error) {
	s, err := store.Load(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(s.Memories))
	for _, m := range s.Memories {
		names = append(names, m.Name)
	}
	return names, nil
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// markedStale reports whether the index line of the memory name opens with phases.StaleMark.
func (o *outcome) markedStale(name string) bool {
	link := "[" + name + "](" + name + ".md)"
	for line := range strings.Lines(string(o.index)) {
		if _, rest, ok := strings.Cut(line, link); ok && strings.Contains(rest, phases.StaleMark) {
			return true
		}
	}
	return false
}
