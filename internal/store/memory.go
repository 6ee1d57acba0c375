package store

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/sanitize"
)

// Memory is one topic file: its front matter fields and its markdown body.
type Memory struct {
	Name, Description, Body string
	Type                    memory.Type // as the file says: may be one dreamd does not know
	Created, Updated        string      // YYYY-MM-DD: when dreamd first wrote the file, last rewrote it
	// Learnt is when the lesson was first taught: the date of its earliest evidence session (not
	// of the run that wrote it), carried through a move to another store. Confirmed is the date of
	// the latest session that taught or confirmed it. YYYY-MM-DD, "" when unknown (older files).
	Learnt, Confirmed string
	// Retaught are the latest sessions (at most MaxRetaught, oldest first) that taught again what
	// the memory already said, after it was learnt: the agent was not following it.
	// RetaughtCount counts them all, those the list no longer holds included.
	Retaught       []Retaught
	RetaughtCount  int
	Sources        []string // e.g. ["claude:2ff46cd5-…"]
	Pinned         bool     // front matter `pinned: true`
	HasFrontMatter bool
	Raw            []byte // the file exactly as read; nil for a memory not yet on disk
	Unclean        bool   // the file held NUL or control bytes: read sanitised, kept as it is
	// Verbatim marks a file that opens a front matter dreamd cannot read and write back as it was
	// written (invalid YAML, duplicate keys, …): it is read whole as the body, and no pass may
	// rewrite or retire it, since that would lose what the front matter says (a pin, a note).
	Verbatim bool
	// Stale says what the memory names that its project no longer has, as a pass found (never
	// written to the file; the index line and the call show it). "": nothing, or not checked.
	Stale string
	// Link marks a topic file that is a symbolic link to a file of the store: read, never written
	// (writing would replace the link with a file, which no rollback turns back into a link).
	Link bool

	// extra holds the front matter keys dreamd does not know, in their original order and form.
	extra []extraKey
	// typeInMetadata: the file gives its type as Claude Code 2.1 writes its own memories,
	// `metadata:` then `  type: feedback`, with no type key of its own; it is written back there.
	typeInMetadata bool
}

// Retaught is one session that taught again what a memory already said.
type Retaught struct {
	Session string // kind:id, as in Sources
	Date    string // YYYY-MM-DD of the session; "" for an entry written by hand without one
}

// MaxRetaught bounds the re-taught sessions a file lists; RetaughtCount keeps counting.
const MaxRetaught = 5

// String is the entry as the front matter writes it: "kind:id@YYYY-MM-DD".
func (r Retaught) String() string {
	if r.Date == "" {
		return r.Session
	}
	return r.Session + "@" + r.Date
}

// ParseRetaught reads an entry "kind:id@YYYY-MM-DD"; an entry without a date after its last "@"
// is a session alone, kept as written.
func ParseRetaught(s string) Retaught {
	if i := strings.LastIndexByte(s, '@'); i >= 0 && isDate(s[i+1:]) {
		return Retaught{Session: s[:i], Date: s[i+1:]}
	}
	return Retaught{Session: s}
}

// AddRetaught records that session (kind:id) taught the memory again on date: once per session,
// the list cut to its newest MaxRetaught entries. It reports whether the event is new.
func (m *Memory) AddRetaught(session, date string) bool {
	if slices.ContainsFunc(m.Retaught, func(r Retaught) bool { return r.Session == session }) {
		return false
	}
	m.RetaughtCount = max(m.RetaughtCount, len(m.Retaught)) + 1
	m.Retaught = append(slices.Clone(m.Retaught), Retaught{Session: session, Date: date})
	slices.SortStableFunc(m.Retaught, func(a, b Retaught) int { return cmp.Compare(a.Date, b.Date) })
	if n := len(m.Retaught); n > MaxRetaught {
		m.Retaught = m.Retaught[n-MaxRetaught:]
	}
	return true
}

// extraKey is a front matter entry dreamd does not interpret, kept as the lines it was written on.
type extraKey struct {
	key  string
	text string // whole lines, each ending in "\n"
}

// ParseMemory reads a topic file named name (its stem). It is lenient: a file without front matter,
// or whose front matter dreamd cannot read and write back faithfully, is a Memory whose Body is the
// whole file, so nothing is ever lost. A file holding NUL bytes, terminal control characters or
// invalid UTF-8 is read as its sanitised text (so none of it reaches a prompt, an index or a
// terminal) and marked Unclean; Raw keeps its bytes, and the file is rewritten only by a plan that
// changes the memory. No content makes it fail.
func ParseMemory(name string, data []byte) *Memory {
	text := strings.TrimPrefix(string(data), sanitize.ByteOrderMark)
	unclean := !sanitize.Clean(strings.ReplaceAll(text, "\r\n", "\n")) // Windows line ends are fine
	if unclean {
		text = sanitize.Text(text)
	}
	m := parseText(name, text)
	m.Raw, m.Unclean = data, unclean
	return m
}

// parseText is ParseMemory of clean text.
func parseText(name, text string) *Memory {
	m := &Memory{Name: name, Body: text}
	fmText, body, ok := splitFrontMatter(m.Body)
	if !ok {
		return m
	}
	// Windows line ends are read and written as LF: unknown keys are kept as their lines, and a
	// CR in them would be a control byte in the file dreamd writes.
	fm, err := parseFrontMatter(strings.ReplaceAll(fmText, "\r\n", "\n"))
	if err != nil {
		return verbatim(m, fmText)
	}
	withFM := *m
	fm.fill(&withFM)
	withFM.HasFrontMatter = true
	withFM.Body = body
	// Only keep the front matter apart from the body if rendering it gives back the same fields;
	// otherwise a later rewrite could change what the person wrote.
	again, err := parseFrontMatter(withFM.frontMatter())
	if err != nil || !again.matches(&withFM) {
		return verbatim(m, fmText)
	}
	return &withFM
}

// verbatim marks m, read whole, as a file dreamd cannot write back. What its front matter's lines
// plainly say still counts for whoever shows it: a `pinned: true`, its description and type (the
// index line would otherwise be the header's first line).
func verbatim(m *Memory, fmText string) *Memory {
	m.Verbatim = true
	m.Pinned = pinnedLine.MatchString(fmText)
	m.Description = plainValue(fmText, "description")
	if t := memory.Type(plainValue(fmText, "type")); t.Valid() {
		m.Type = t
	}
	return m
}

var pinnedLine = lazyre.New(`(?mi)^pinned:[ \t]*(true|yes|on)[ \t]*\r?$`)

// plainValue is the value of the first line "key: value" of a front matter, quotes trimmed,
// sanitised to one line; "" when there is none.
func plainValue(fmText, key string) string {
	for line := range strings.Lines(fmText) {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			v = strings.TrimSpace(v)
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
				v = v[1 : len(v)-1]
			}
			return sanitize.Line(v)
		}
	}
	return ""
}

// Render is the file for m: front matter in the key order name, description, type, created,
// updated, learnt, confirmed, sources, retaught, retaught_count, then the unknown keys as they were, then the body ending in one "\n".
// A memory without front matter and without any field to write renders as its body alone.
func (m *Memory) Render() []byte {
	if !sanitize.Clean(m.Description) || !sanitize.Clean(m.Body) {
		// dreamd never writes a NUL or control byte, whoever handed it the text.
		c := *m
		c.Description, c.Body = sanitize.Text(m.Description), sanitize.Text(m.Body)
		m = &c
	}
	var b strings.Builder
	if m.needsFrontMatter() && !m.Verbatim { // a file read whole is its body, header included
		b.WriteString("---\n")
		b.WriteString(m.frontMatter())
		b.WriteString("---\n")
	}
	b.WriteString(normalizeBody(m.Body))
	return []byte(b.String())
}

func (m *Memory) needsFrontMatter() bool {
	return m.HasFrontMatter || m.Type != "" || m.Description != "" || m.Created != "" ||
		m.Updated != "" || m.Learnt != "" || m.Confirmed != "" || len(m.Retaught) > 0 || m.RetaughtCount > 0 ||
		len(m.Sources) > 0 || m.Pinned || len(m.extra) > 0
}

// frontMatter renders the YAML between the two "---" lines.
func (m *Memory) frontMatter() string {
	var b strings.Builder
	writeKey := func(key, value string) {
		b.WriteString(key + ": " + value + "\n")
	}
	writeKey("name", yamlScalar(m.Name))
	writeKey("description", yamlScalar(m.Description))
	if !m.typeInMetadata {
		writeKey("type", yamlScalar(string(m.Type)))
	}
	if m.Created != "" {
		writeKey("created", yamlScalar(m.Created))
	}
	if m.Updated != "" {
		writeKey("updated", yamlScalar(m.Updated))
	}
	if m.Learnt != "" {
		writeKey("learnt", yamlScalar(m.Learnt))
	}
	if m.Confirmed != "" {
		writeKey("confirmed", yamlScalar(m.Confirmed))
	}
	if len(m.Sources) > 0 {
		writeKey("sources", yamlFlowList(m.Sources))
	}
	if len(m.Retaught) > 0 {
		entries := make([]string, len(m.Retaught))
		for i, r := range m.Retaught {
			entries[i] = r.String()
		}
		writeKey("retaught", yamlFlowList(entries))
	}
	if m.RetaughtCount > len(m.Retaught) {
		writeKey("retaught_count", strconv.Itoa(m.RetaughtCount))
	}
	pinnedWritten := false
	for _, e := range m.extra {
		if e.key == "pinned" {
			pinnedWritten = true
			switch {
			case pinnedText(e.text) == m.Pinned:
				b.WriteString(e.text)
			case m.Pinned:
				writeKey("pinned", "true")
			}
			continue
		}
		if e.key == metadataKey && m.typeInMetadata {
			b.WriteString(setMetadataType(e.text, m.Type))
			continue
		}
		b.WriteString(e.text)
	}
	if m.Pinned && !pinnedWritten {
		writeKey("pinned", "true")
	}
	return b.String()
}

func retaughtStrings(list []Retaught) []string {
	var out []string
	for _, r := range list {
		out = append(out, r.String())
	}
	return out
}

// normalizeBody makes a body end in exactly one newline; an empty body stays empty.
func normalizeBody(body string) string {
	body = strings.TrimRight(body, "\n")
	if body == "" {
		return ""
	}
	return body + "\n"
}

// fill copies the parsed front matter into m; the name from the file stem wins when known.
func (fm *frontMatter) fill(m *Memory) {
	if m.Name == "" {
		m.Name = fm.name
	}
	m.Description = fm.description
	m.Type = memory.Type(cmp.Or(fm.typ, fm.metaType))
	m.typeInMetadata = fm.typ == "" && fm.metaType != ""
	m.Created = fm.created
	m.Updated = fm.updated
	m.Learnt, m.Confirmed = fm.learnt, fm.confirmed
	m.Retaught = nil
	for _, r := range fm.retaught {
		m.Retaught = append(m.Retaught, ParseRetaught(r))
	}
	m.RetaughtCount = max(fm.retaughtCount, len(m.Retaught))
	m.Sources = fm.sources
	m.Pinned = fm.pinned
	m.extra = fm.extra
}

// matches reports whether fm, read back from m's rendered front matter, holds m's fields.
func (fm *frontMatter) matches(m *Memory) bool {
	return fm.name == m.Name && fm.description == m.Description && memory.Type(cmp.Or(fm.typ, fm.metaType)) == m.Type &&
		fm.created == m.Created && fm.updated == m.Updated && slices.Equal(fm.sources, m.Sources) &&
		fm.learnt == m.Learnt && fm.confirmed == m.Confirmed && max(fm.retaughtCount, len(fm.retaught)) == m.RetaughtCount &&
		slices.Equal(fm.retaught, retaughtStrings(m.Retaught)) &&
		fm.pinned == m.Pinned && slices.Equal(fm.extra, m.extra)
}
