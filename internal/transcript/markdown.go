package transcript

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// markdown reads harness session notes (*.md, e.g. .harness/sessions/2026-05-15-08h00.md): a
// "# title" line, a "tags:" line, then "## Summary", "## Decisions" and "## Open threads"
// sections. Each file is one session of the source's configured project. Notes are edited in
// place, so a changed file is re-read whole.
type markdown struct{}

func (markdown) Kind() string { return "markdown" }

func (markdown) Discover(src Source) ([]File, []Skipped, error) {
	return discover("markdown", src, func(rel, real string) (bool, string) {
		base := rel[strings.LastIndexByte(rel, '/')+1:]
		switch {
		case !strings.HasSuffix(base, ".md"):
			return false, ""
		case base == aiderHistory:
			return false, "aider chat history: read by the aider kind"
		case specstoryFile(real):
			return false, "SpecStory export: read by the specstory kind"
		}
		return true, ""
	})
}

func (markdown) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "markdown"
	return readDoc(f, from, parseMarkdown)
}

func (markdown) peek(f File) (string, string, error) {
	return stem(f.Path), f.Project, nil
}

// markdownSection is a "## heading" and the lines under it.
type markdownSection struct {
	name  string
	lines []string
}

// parseMarkdown emits the note as one session: the summary and each decision as user turns (a
// decision is a lesson stated outright), open threads and other sections as assistant turns.
func parseMarkdown(p *parse, doc string) {
	title, sections := splitMarkdown(doc)
	date := markdownDate(stem(p.file.Path), title, p.file.ModTime)
	p.open(p.fallback, date)
	for _, sec := range sections {
		body := strings.TrimSpace(strings.Join(sec.lines, "\n"))
		if body == "" {
			continue
		}
		switch strings.ToLower(sec.name) {
		case "", "summary":
			p.add(Turn{Role: User, Text: body, Time: date})
		case "decisions":
			for _, d := range bulletItems(sec.lines) {
				p.add(Turn{Role: User, Text: "Decision: " + d, Time: date})
			}
		case "open threads":
			p.add(Turn{Role: Assistant, Text: body, Time: date})
		default:
			p.add(Turn{Role: Assistant, Text: sec.name + ":\n" + body, Time: date})
		}
	}
}

// splitMarkdown returns the title and the sections of a note; text before the first section is a
// section without a name. Front matter and the tags line are metadata, not content.
func splitMarkdown(doc string) (string, []markdownSection) {
	lines := strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n")
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "---" {
				lines = lines[i+1:]
				break
			}
		}
	}
	var title string
	sections := []markdownSection{{}}
	fence := false
	for _, line := range lines {
		cur := &sections[len(sections)-1]
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
		}
		switch {
		case fence:
		case title == "" && strings.HasPrefix(line, "# "):
			title = strings.TrimSpace(line[2:])
			continue
		case strings.HasPrefix(line, "## "):
			sections = append(sections, markdownSection{name: strings.TrimSpace(line[3:])})
			continue
		case cur.name == "" && strings.HasPrefix(strings.ToLower(line), "tags:"):
			continue
		}
		cur.lines = append(cur.lines, line)
	}
	return title, sections
}

var (
	bulletMark = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`)
	// A date, optionally with a time: 2026-05-15, 2026-05-15-08h00, 2026-05-15T08:00, 2026-05-15 08-00.
	markdownDateRE = regexp.MustCompile(`(\d{4})-(\d{2})-(\d{2})(?:[T _-](\d{2})[h:-]?(\d{2}))?`)
)

// bulletItems returns the top-level list items of lines, each with its continuation lines;
// a paragraph outside a list counts as one item.
func bulletItems(lines []string) []string {
	var items []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			items = append(items, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, line := range lines {
		text := strings.TrimSpace(line)
		switch {
		case text == "":
			flush()
		case len(line)-len(strings.TrimLeft(line, " \t")) < 2 && bulletMark.MatchString(text):
			flush()
			cur = append(cur, bulletMark.ReplaceAllString(text, ""))
		default:
			cur = append(cur, bulletMark.ReplaceAllString(text, ""))
		}
	}
	flush()
	return items
}

// markdownDate dates a note from its file name, else its title, else the file's modification time.
func markdownDate(name, title string, mtime time.Time) time.Time {
	for _, s := range []string{name, title} {
		m := markdownDateRE.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		hh, mm := m[4], m[5]
		if hh == "" {
			hh, mm = "00", "00"
		}
		t, err := time.ParseInLocation("2006-01-02 15:04", fmt.Sprintf("%s-%s-%s %s:%s", m[1], m[2], m[3], hh, mm), time.Local)
		if err == nil {
			return t
		}
	}
	return mtime
}
