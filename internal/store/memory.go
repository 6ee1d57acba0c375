package store

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Memory is one topic file: its front matter fields and its markdown body.
type Memory struct {
	Name, Type, Description, Body string
	Created, Updated              string   // YYYY-MM-DD
	Sources                       []string // e.g. ["claude:2ff46cd5-…"]
	Pinned                        bool     // front matter `pinned: true`
	HasFrontMatter                bool
	Raw                           []byte // the file exactly as read; nil for a memory not yet on disk

	// extra holds the front matter keys dreamd does not know, in their original order and form.
	extra []extraKey
}

// extraKey is a front matter entry dreamd does not interpret, kept as the lines it was written on.
type extraKey struct {
	key  string
	text string // whole lines, each ending in "\n"
}

// ParseMemory reads a topic file named name (its stem). It is lenient: a file without front matter,
// or whose front matter dreamd cannot read and write back faithfully, is a Memory whose Body is the
// whole file, so nothing is ever lost. It fails only for content that is not text.
func ParseMemory(name string, data []byte) (*Memory, error) {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("memory %q: binary content (NUL byte), not a markdown file", name)
	}
	m := &Memory{Name: name, Raw: data, Body: string(data)}
	fmText, body, ok := splitFrontMatter(m.Body)
	if !ok {
		return m, nil
	}
	fm, err := parseFrontMatter(fmText)
	if err != nil {
		return m, nil
	}
	withFM := *m
	fm.fill(&withFM)
	withFM.HasFrontMatter = true
	withFM.Body = body
	// Only keep the front matter apart from the body if rendering it gives back the same fields;
	// otherwise a later rewrite could change what the person wrote.
	again, err := parseFrontMatter(withFM.frontMatter())
	if err != nil || !again.matches(&withFM) {
		return m, nil
	}
	return &withFM, nil
}

// Render is the file for m: front matter in the key order name, description, type, created,
// updated, sources, then the unknown keys as they were, then the body ending in one "\n".
// A memory without front matter and without any field to write renders as its body alone.
func (m *Memory) Render() []byte {
	var b strings.Builder
	if m.needsFrontMatter() {
		b.WriteString("---\n")
		b.WriteString(m.frontMatter())
		b.WriteString("---\n")
	}
	b.WriteString(normalizeBody(m.Body))
	return []byte(b.String())
}

func (m *Memory) needsFrontMatter() bool {
	return m.HasFrontMatter || m.Type != "" || m.Description != "" || m.Created != "" ||
		m.Updated != "" || len(m.Sources) > 0 || m.Pinned || len(m.extra) > 0
}

// frontMatter renders the YAML between the two "---" lines.
func (m *Memory) frontMatter() string {
	var b strings.Builder
	writeKey := func(key, value string) {
		b.WriteString(key + ": " + value + "\n")
	}
	writeKey("name", yamlScalar(m.Name))
	writeKey("description", yamlScalar(m.Description))
	writeKey("type", yamlScalar(m.Type))
	if m.Created != "" {
		writeKey("created", yamlScalar(m.Created))
	}
	if m.Updated != "" {
		writeKey("updated", yamlScalar(m.Updated))
	}
	if len(m.Sources) > 0 {
		writeKey("sources", yamlFlowList(m.Sources))
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
		b.WriteString(e.text)
	}
	if m.Pinned && !pinnedWritten {
		writeKey("pinned", "true")
	}
	return b.String()
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
	m.Type = fm.typ
	m.Created = fm.created
	m.Updated = fm.updated
	m.Sources = fm.sources
	m.Pinned = fm.pinned
	m.extra = fm.extra
}

// matches reports whether fm, read back from m's rendered front matter, holds m's fields.
func (fm *frontMatter) matches(m *Memory) bool {
	return fm.name == m.Name && fm.description == m.Description && fm.typ == m.Type &&
		fm.created == m.Created && fm.updated == m.Updated && slices.Equal(fm.sources, m.Sources) &&
		fm.pinned == m.Pinned && slices.Equal(fm.extra, m.extra)
}
