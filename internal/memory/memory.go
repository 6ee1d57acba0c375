// Package memory is the memory format of docs/DESIGN.md in one place: the memory types, the caps and
// their defaults, and the form of an index line. Every other package takes them from here, and
// the JSON schema the model answers to lists the types from Types.
package memory

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/sanitize"
)

// Type is what kind of knowledge a memory holds.
type Type string

// The memory types.
const (
	User      Type = "user"      // who the person is: role, background, how they like to work
	Feedback  Type = "feedback"  // how the agent should work: corrections and confirmed habits
	Project   Type = "project"   // facts and decisions about the project
	Reference Type = "reference" // where to find things: dashboards, docs, tickets
)

// Types are the memory types, in index order.
var Types = []Type{User, Feedback, Project, Reference}

// Valid reports whether t is one of Types.
func (t Type) Valid() bool {
	switch t {
	case User, Feedback, Project, Reference:
		return true
	}
	return false
}

// TypeNames are Types as strings, for messages, flags and the JSON schema.
func TypeNames() []string {
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return names
}

// Scope is which store a memory lives in: the project's own, the person's (across projects), or
// the team's (shared over git).
type Scope string

// The scopes.
const (
	ScopeProject Scope = "project" // facts of one project: its store beside Claude Code's project memory
	ScopeUser    Scope = "user"    // who the person is and what they want in every project
	ScopeTeam    Scope = "team"    // what everyone on the project should know, committed to git
)

// Scopes are the scopes, as the JSON schema's enum lists them.
var Scopes = []Scope{ScopeProject, ScopeUser, ScopeTeam}

// Valid reports whether s is one of Scopes.
func (s Scope) Valid() bool { return s == ScopeProject || s == ScopeUser || s == ScopeTeam }

// IndexFile is the index Claude Code loads, derived from the topic files.
const IndexFile = "MEMORY.md"

// Limits are the caps of the format, configurable as the limits of the config file and of an
// eval scenario (docs/DESIGN.md). The description cap is the format's own, not configurable.
type Limits struct {
	IndexMaxLines  int `json:"index_max_lines" yaml:"index_max_lines" mapstructure:"index_max_lines"`    // lines of MEMORY.md
	IndexMaxBytes  int `json:"index_max_bytes" yaml:"index_max_bytes" mapstructure:"index_max_bytes"`    // bytes of MEMORY.md
	IndexLineMax   int `json:"index_line_max" yaml:"index_line_max" mapstructure:"index_line_max"`       // characters of one index line
	MemoryMaxBytes int `json:"memory_max_bytes" yaml:"memory_max_bytes" mapstructure:"memory_max_bytes"` // bytes of a memory's body
	DescriptionMax int `json:"description_max" yaml:"-" mapstructure:"-"`                                // characters of a description
}

// DefaultLimits are docs/DESIGN.md's caps.
var DefaultLimits = Limits{IndexMaxLines: 200, IndexMaxBytes: 25000, IndexLineMax: 150, MemoryMaxBytes: 4096, DescriptionMax: 150}

// OrDefaults fills every zero cap of l with its default.
func (l Limits) OrDefaults() Limits {
	d := DefaultLimits
	return Limits{
		IndexMaxLines:  cmp.Or(l.IndexMaxLines, d.IndexMaxLines),
		IndexMaxBytes:  cmp.Or(l.IndexMaxBytes, d.IndexMaxBytes),
		IndexLineMax:   cmp.Or(l.IndexLineMax, d.IndexLineMax),
		MemoryMaxBytes: cmp.Or(l.MemoryMaxBytes, d.MemoryMaxBytes),
		DescriptionMax: cmp.Or(l.DescriptionMax, d.DescriptionMax),
	}
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
	if len(b) == 0 {
		return s
	}
	for line := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
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

// indexLineFixed counts the characters of an index line besides the name (twice) and the
// description: "- [", "](", ".md) — ".
const indexLineFixed = 3 + 2 + 7

// IndexLine is a memory's index entry "- [name](name.md) — description", the description put on
// one line and shortened with "…" so the entry fits lineMax characters (0: no limit). When not
// even one character of the description fits, the entry is the link alone.
//
// The name is a file's stem, and a file written by hand may be called anything: a newline in it
// would start a line of its own in the index (a heading, a forged entry) and a control character
// reach a terminal. Such characters are left out of the link's text and percent-encoded in its
// target, which still names the file.
func IndexLine(name, description string, lineMax int) string {
	link := "- [" + sanitize.Line(name) + "](" + linkTarget(name) + ".md)"
	desc := sanitize.Line(description)
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

// linkTarget is name as a link target: every character sanitize.Line would change (an invalid
// byte too) is percent-encoded, byte by byte; a clean name (every name dreamd gives) is as it is.
func linkTarget(name string) string {
	if sanitize.Line(name) == name {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, n := utf8.DecodeRuneInString(name[i:])
		c := name[i : i+n]
		if r == ' ' || !(r == utf8.RuneError && n == 1) && sanitize.Line(c) == c {
			b.WriteString(c)
		} else {
			for _, x := range []byte(c) {
				fmt.Fprintf(&b, "%%%02X", x)
			}
		}
		i += n
	}
	return b.String()
}

// DescriptionBudget is the longest description, in characters, that lets the index line of a
// memory called name fit IndexLineMax without a cut, and that DescriptionMax allows (never below
// 20: a long name shortens its line instead).
func (l Limits) DescriptionBudget(name string) int {
	return max(min(l.DescriptionMax, l.IndexLineMax-indexLineFixed-2*utf8.RuneCountInString(name)), 20)
}
