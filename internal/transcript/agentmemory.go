package transcript

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/sanitize"
)

// AgentMemoryKind is the source kind of what other agents' own memory features wrote: Qwen Code's
// auto-memory (~/.qwen/projects/<slug>/memory/), Codex's memories ($CODEX_HOME/memories/), and
// the facts Gemini CLI's and Qwen Code's save_memory tool appends under "## Gemini Added
// Memories" / "## Qwen Added Memories" in their user-level GEMINI.md / QWEN.md. dreamd adds these
// sources itself where the files exist (see AgentMemorySources); a project's own GEMINI.md or
// QWEN.md can be configured as a source of this kind with its project.
//
// These are lessons another agent already distilled, not words the person typed: each entry is
// an assistant turn naming where it comes from, so the consolidation weighs it as another agent's
// conclusion and never as the person's own statement. dreamd only reads these files; it never
// writes them, and the other agent's consolidation of them goes on as before.
//
// The files are whole documents rewritten in place. A changed file is read again whole, but only
// its entries not read before are material: the cursor keeps a fingerprint of every entry read
// (Cursor.Seen), so an entry the other agent rewrote is new and one it left alone is not sent again.
const AgentMemoryKind = "agentmemory"

type agentMemory struct{}

func (agentMemory) Kind() string { return AgentMemoryKind }

// memoryLayout is which agent's memory file a path is.
type memoryLayout int

const (
	notMemory    memoryLayout = iota
	qwenProject               // <qwen>/projects/<slug>/memory/*.md: Qwen Code's auto-memory
	qwenPerson                // <qwen>/memories/*.md: Qwen Code's auto-memory of the person, every project
	codexMemory               // <codex>/memories/MEMORY.md: task groups, each for its cwds
	codexSummary              // <codex>/memories/memory_summary.md: the user's profile and tips
	addedGemini               // GEMINI.md: the "## Gemini Added Memories" section
	addedQwen                 // QWEN.md: the "## Qwen Added Memories" section
)

// layoutOf tells a memory file by its name and place.
func layoutOf(path string) memoryLayout {
	base, dir := filepath.Base(path), filepath.Dir(path)
	switch {
	case base == "GEMINI.md":
		return addedGemini
	case base == "QWEN.md":
		return addedQwen
	case filepath.Base(dir) == "memories" && strings.HasSuffix(base, ".md") && isQwenHome(filepath.Dir(dir)):
		return qwenPerson
	case filepath.Base(dir) == "memories" && base == "MEMORY.md":
		return codexMemory
	case filepath.Base(dir) == "memories" && base == "memory_summary.md":
		return codexSummary
	case filepath.Base(dir) == "memory" && strings.HasSuffix(base, ".md") && filepath.Base(filepath.Dir(filepath.Dir(dir))) == "projects":
		return qwenProject
	}
	return notMemory
}

// isQwenHome reports whether dir is Qwen Code's home ($QWEN_HOME, else a .qwen folder), where
// "memories" is its own and not Codex's.
func isQwenHome(dir string) bool {
	if env := os.Getenv("QWEN_HOME"); env != "" {
		return filepath.Clean(env) == dir
	}
	return filepath.Base(dir) == ".qwen"
}

// userLevel reports whether a layout holds what the agent knows of the person in every project:
// it goes to the user store.
func (l memoryLayout) userLevel() bool {
	return l == qwenPerson || l == codexSummary || l == addedGemini || l == addedQwen
}

// origin names the agent and the feature that wrote an entry, for the consolidation to see.
func (l memoryLayout) origin() string {
	switch l {
	case qwenProject, qwenPerson:
		return "Qwen Code's auto-memory"
	case codexMemory, codexSummary:
		return "Codex's memories"
	case addedGemini:
		return "Gemini CLI's save_memory"
	case addedQwen:
		return "Qwen Code's save_memory"
	}
	return "another agent's memory"
}

// Discover lists the memory files of a source. Qwen Code's files belong to the project its chats
// name; Codex's MEMORY.md is listed once for each project its task groups apply to (each listing
// reads only that project's groups), or, when the source is the user store's, once for the groups
// that name no project. A user-level file without a store to go to is passed over, with why.
func (a agentMemory) Discover(src Source) ([]File, []Skipped, error) {
	files, skipped, err := discover(AgentMemoryKind, src, func(rel, _ string) (bool, string) {
		return layoutOf(filepath.Join(src.Path, filepath.FromSlash(rel))) != notMemory || rel == filepath.Base(src.Path) && strings.HasSuffix(rel, ".md"), ""
	})
	if err != nil {
		return nil, nil, err
	}
	var out []File
	projects := map[string]string{} // a Qwen project folder → the project its chats name
	for _, f := range files {
		layout := layoutOf(f.Path)
		switch {
		case f.Project != "" && src.Store == "":
			out = append(out, f) // configured with its project
		case layout == codexMemory:
			dirs, unplaced := codexProjects(f.open())
			if src.Store != "" {
				if unplaced {
					out = append(out, f)
				}
				continue
			}
			for _, dir := range dirs {
				g := f
				g.Project = dir
				out = append(out, g)
			}
		case layout.userLevel():
			if src.Store == "" {
				skipped = append(skipped, Skipped{Path: f.Path, Reason: "what " + layout.origin() + " keeps for every project goes to the user store, which is off"})
				continue
			}
			out = append(out, f)
		case layout == qwenProject:
			folder := filepath.Dir(filepath.Dir(f.Path))
			dir, ok := projects[folder]
			if !ok {
				dir = qwenFolderProject(folder)
				projects[folder] = dir
			}
			if dir == "" {
				skipped = append(skipped, Skipped{Path: f.Path, Reason: "no chat of this Qwen Code project names its directory"})
				continue
			}
			f.Project = dir
			out = append(out, f)
		default:
			skipped = append(skipped, Skipped{Path: f.Path, Reason: "a memory file without a project: configure the source with its project"})
		}
	}
	return out, skipped, nil
}

// qwenFolderProject is the working directory the chats of a Qwen Code project folder record
// (its cwd field), "" when none does: the folder's name is a lossy slug of it.
func qwenFolderProject(folder string) string {
	chats, _ := filepath.Glob(filepath.Join(folder, "chats", "*.jsonl"))
	for _, c := range chats {
		fh, _, err := safefile.Open(c)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(io.LimitReader(fh, 1<<20))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for n := 0; n < 20 && sc.Scan(); n++ {
			if cwd := gjson.GetBytes(sc.Bytes(), "cwd").Str; filepath.IsAbs(cwd) {
				fh.Close()
				return filepath.Clean(cwd)
			}
		}
		fh.Close()
	}
	return ""
}

func (agentMemory) peek(f File) (string, string, error) {
	return memoryID(f), f.Project, nil
}

// memoryID names a memory file's session: the agent's feature and the file.
func memoryID(f File) string {
	id := strings.ReplaceAll(strings.ToLower(layoutOf(f.Path).origin()), " ", "-")
	id = strings.NewReplacer("'s", "", "_", "-").Replace(id)
	switch layoutOf(f.Path) {
	case qwenProject:
		return id + ":" + filepath.Base(filepath.Dir(filepath.Dir(f.Path))) + "/" + stem(f.Path)
	case qwenPerson:
		return id + ":user/" + stem(f.Path)
	}
	return id + ":" + stem(f.Path)
}

// Read reads the file whole and returns, as one session, its entries for the file's project (or
// the user's, for a user-level file) that the cursor has not seen.
func (agentMemory) Read(f File, from Cursor) (Reading, error) {
	data, mtime, skipped, err := readWhole(f, "a memory file")
	if skipped != nil || err != nil {
		return orEmpty(skipped), err
	}
	layout := layoutOf(f.Path)
	all := memoryEntries(layout, strings.TrimPrefix(string(data), sanitize.ByteOrderMark), mtime)
	seen := seenSet(from.Seen)
	s := Session{Kind: AgentMemoryKind, ID: memoryID(f), Project: f.Project, Path: f.Path}
	for _, e := range all {
		if !e.mine(f, layout) || seen[e.key()] {
			continue
		}
		s.Turns = append(s.Turns, Turn{Role: Assistant, Text: e.turn(layout), Time: e.when})
		if s.Started.IsZero() || e.when.Before(s.Started) {
			s.Started = e.when
		}
		if e.when.After(s.Ended) {
			s.Ended = e.when
		}
	}
	c, tail, err := docEnd(data, mtime)
	if err != nil {
		return Reading{}, err
	}
	c.Seen = seenList(all)
	r := Reading{Cursor: c, Tail: tail}
	if len(s.Turns) > 0 {
		r.Sessions = []Session{s}
	}
	return r, nil
}

// memoryEntry is one lesson of another agent's memory.
type memoryEntry struct {
	projects []string // the project directories it applies to; none: the user's, every project
	context  string   // where in the file: the topic, the task group and its section
	text     string
	when     time.Time
}

// key fingerprints an entry: its text and where it applies, not its date.
func (e memoryEntry) key() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", strings.Join(e.projects, "\x00"), e.context, e.text)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// mine reports whether the entry belongs to the reading of f: its project's entries, or the
// user-level ones when f goes to the user store.
func (e memoryEntry) mine(f File, layout memoryLayout) bool {
	if layout != codexMemory {
		return true
	}
	if f.Store != "" {
		return len(e.projects) == 0
	}
	return slices.Contains(e.projects, f.Project)
}

// turn is the entry as the consolidation reads it: its origin first.
func (e memoryEntry) turn(layout memoryLayout) string {
	head := "From " + layout.origin()
	if e.context != "" {
		head += " (" + e.context + ")"
	}
	return head + ", a lesson that agent distilled from earlier sessions:\n" + e.text
}

// seenSet and seenList read and write Cursor.Seen: the sorted keys of the entries read.
func seenSet(s string) map[string]bool {
	set := map[string]bool{}
	for k := range strings.SplitSeq(s, ",") {
		if k != "" {
			set[k] = true
		}
	}
	return set
}

func seenList(entries []memoryEntry) string {
	keys := make([]string, 0, len(entries))
	for _, e := range entries {
		keys = append(keys, e.key())
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), ",")
}

// memoryEntries splits a memory file into its entries, dreamd's own linked blocks cut first so
// that its memory never comes back to it as another agent's.
func memoryEntries(layout memoryLayout, doc string, mtime time.Time) []memoryEntry {
	doc = withoutLinkedBlocks(doc)
	switch layout {
	case qwenProject, qwenPerson:
		return qwenEntries(doc, mtime)
	case codexMemory:
		return codexEntries(doc, mtime)
	case codexSummary:
		var out []memoryEntry
		for _, sec := range sections(doc, "## ") {
			if strings.Contains(strings.ToLower(sec.title), "in memory") {
				continue // "What's in Memory": an index of MEMORY.md, no lesson of its own
			}
			for _, item := range items(sec.body) {
				out = append(out, memoryEntry{context: sec.title, text: item, when: mtime})
			}
		}
		return out
	case addedGemini, addedQwen:
		header := "## Gemini Added Memories"
		if layout == addedQwen {
			header = "## Qwen Added Memories"
		}
		var out []memoryEntry
		for _, sec := range sections(doc, "## ") {
			if "## "+sec.title != header {
				continue
			}
			for _, item := range items(sec.body) {
				out = append(out, memoryEntry{text: item, when: mtime})
			}
		}
		return out
	}
	return nil
}

// withoutLinkedBlocks cuts every block `dreamd link` keeps in the file (its marker lines and what
// is between them).
func withoutLinkedBlocks(doc string) string {
	if !strings.Contains(doc, "<!-- dreamd:begin ") {
		return doc
	}
	var b strings.Builder
	in := false
	for line := range strings.Lines(doc) {
		switch {
		case strings.HasPrefix(line, "<!-- dreamd:begin "):
			in = true
		case in && strings.HasPrefix(line, "<!-- dreamd:end "):
			in = false
		case !in:
			b.WriteString(line)
		}
	}
	return b.String()
}

// qwenEntries: a topic file is one entry, its front matter's name, type and description its
// context; the MEMORY.md index holds links to them, and any line of its own is an entry.
func qwenEntries(doc string, mtime time.Time) []memoryEntry {
	meta, body := frontMatter(doc)
	if meta == nil {
		var out []memoryEntry
		for _, item := range items(body) {
			if isIndexLink(item) {
				continue
			}
			out = append(out, memoryEntry{context: "index", text: item, when: mtime})
		}
		return out
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return nil
	}
	ctx := strings.Join(slices.DeleteFunc([]string{meta["type"], meta["name"]}, func(s string) bool { return s == "" }), ": ")
	if d := meta["description"]; d != "" {
		body = d + "\n" + body
	}
	return []memoryEntry{{context: ctx, text: body, when: mtime}}
}

// isIndexLink reports whether an index line only points at a topic file: "- [Title](file.md) — hook".
func isIndexLink(item string) bool {
	item = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(item), "- "))
	return strings.HasPrefix(item, "[") && strings.Contains(item, "](") && !strings.Contains(item, "\n")
}

// frontMatter splits a Markdown file's YAML front matter (flat "key: value" lines) from its body;
// meta is nil when there is none.
func frontMatter(doc string) (meta map[string]string, body string) {
	rest, ok := strings.CutPrefix(doc, "---\n")
	if !ok {
		return nil, doc
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, doc
	}
	meta = map[string]string{}
	for line := range strings.Lines(head) {
		k, v, ok := strings.Cut(line, ":")
		if ok && !strings.HasPrefix(k, " ") {
			meta[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"'`)
		} else if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && k == "type" {
			meta["type"] = strings.TrimSpace(v) // under metadata:, as Claude Code 2.1 writes it
		}
	}
	return meta, body
}

// codexEntries reads Codex's MEMORY.md: "# Task Group: <title>" blocks, each with an
// "applies_to: cwd=<dir>[ and <dir>…]; reuse_rule=…" line and "## " sections of bullets. The
// evidence lists ("### rollout_summary_files") and search words ("### keywords") are pointers,
// not lessons, and are left out. An entry is dated by the newest updated_at its group cites.
func codexEntries(doc string, mtime time.Time) []memoryEntry {
	var out []memoryEntry
	for _, g := range sections(doc, "# Task Group:") {
		dirs := appliesTo(g.body)
		when := newestUpdate(g.body, mtime)
		for _, sec := range sections(g.body, "## ") {
			for _, sub := range subsections(sec.body) {
				if sub.title == "rollout_summary_files" || sub.title == "keywords" {
					continue
				}
				ctx := g.title + " — " + sec.title
				if sub.title != "" {
					ctx += " — " + sub.title
				}
				for _, item := range items(sub.body) {
					out = append(out, memoryEntry{projects: dirs, context: ctx, text: item, when: when})
				}
			}
		}
	}
	return out
}

// codexProjects lists the project directories the task groups of Codex's MEMORY.md apply to, in
// the order they first appear, and whether a group names none (it goes to the user store); it
// reads only the group headings and applies_to lines.
func codexProjects(path string) (dirs []string, unplaced bool) {
	fh, _, err := safefile.Open(path)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	placed := true // the text before the first group is no group
	sc := bufio.NewScanner(io.LimitReader(fh, maxDocBytes))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		switch line := sc.Text(); {
		case strings.HasPrefix(line, "# Task Group:"):
			unplaced = unplaced || !placed
			placed = false
		case strings.HasPrefix(line, "applies_to:"):
			for _, d := range appliesTo(line) {
				placed = true
				if !slices.Contains(dirs, d) {
					dirs = append(dirs, d)
				}
			}
		}
	}
	return dirs, unplaced || !placed
}

// appliesTo reads the directories of a group's applies_to line: "cwd=/a and cwd=/b; reuse_rule=…"
// or "cwd=/a and /b; …". "unknown" and relative paths name no project.
func appliesTo(body string) []string {
	var dirs []string
	for line := range strings.Lines(body) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "applies_to:")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, ";")
		for part := range strings.SplitSeq(rest, " and ") {
			dir := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(part), "cwd="))
			if filepath.IsAbs(dir) && !slices.Contains(dirs, filepath.Clean(dir)) {
				dirs = append(dirs, filepath.Clean(dir))
			}
		}
		break
	}
	return dirs
}

// newestUpdate is the newest "updated_at=<RFC 3339>" a group cites, else mtime.
func newestUpdate(body string, mtime time.Time) time.Time {
	var newest time.Time
	for rest := body; ; {
		_, after, ok := strings.Cut(rest, "updated_at=")
		if !ok {
			break
		}
		end := strings.IndexAny(after, ", )\n")
		if end < 0 {
			end = len(after)
		}
		if t, err := time.Parse(time.RFC3339, after[:end]); err == nil && t.After(newest) {
			newest = t
		}
		rest = after
	}
	if newest.IsZero() {
		return mtime
	}
	return newest
}

// section is a heading's title and the text under it, up to the next heading of its level.
type section struct{ title, body string }

// sections splits doc at the lines starting with prefix (a heading of one level); the text
// before the first is not a section. Headings inside code fences are text.
func sections(doc, prefix string) []section {
	var out []section
	var cur *section
	var body strings.Builder
	fenced := false
	flush := func() {
		if cur != nil {
			cur.body = body.String()
			out = append(out, *cur)
		}
		body.Reset()
	}
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, prefix) {
			flush()
			cur = &section{title: strings.TrimSpace(strings.TrimPrefix(line, prefix))}
			continue
		}
		body.WriteString(line)
	}
	flush()
	return out
}

// subsections splits a section's body at its "### " headings; the text before the first is a
// subsection without a title.
func subsections(body string) []section {
	head, _, _ := strings.Cut(body, "\n### ")
	if strings.HasPrefix(body, "### ") {
		head = ""
	}
	out := []section{{body: head}}
	return append(out, sections(body, "### ")...)
}

// items splits text into its entries: each top-level list item with its continuation lines, and
// each paragraph that is not a list. A key: value line of a group's head (scope:, applies_to:)
// is no entry.
func items(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* "):
			flush()
			cur.WriteString(line)
		case cur.Len() == 0 && isHeadField(trimmed):
		default:
			cur.WriteString(line)
		}
	}
	flush()
	return out
}

// isHeadField reports a task group's own field lines, which are not lessons.
func isHeadField(line string) bool {
	for _, f := range []string{"scope:", "applies_to:"} {
		if strings.HasPrefix(line, f) {
			return true
		}
	}
	return false
}

// AgentMemorySources are the sources of other agents' memories dreamd reads by default, those
// whose files exist under home: Qwen Code's auto-memory and Codex's MEMORY.md go to each
// project's store, and what the agents keep of the person in every project (Codex's
// memory_summary.md and the groups of its MEMORY.md naming no project, the save_memory sections
// of ~/.gemini/GEMINI.md and ~/.qwen/QWEN.md, Qwen Code's auto-memory of the person in
// ~/.qwen/memories/) to userStore, when there is one.
func AgentMemorySources(home, userStore string) []Source {
	qwen := cmp.Or(os.Getenv("QWEN_HOME"), filepath.Join(home, ".qwen"))
	codex := filepath.Join(cmp.Or(os.Getenv("CODEX_HOME"), filepath.Join(home, ".codex")), "memories")
	var out []Source
	add := func(path, store string) {
		if _, err := os.Stat(path); err == nil {
			out = append(out, Source{Kind: AgentMemoryKind, Path: path, Store: store})
		}
	}
	add(filepath.Join(qwen, "projects"), "")
	add(filepath.Join(codex, "MEMORY.md"), "")
	if userStore != "" {
		add(filepath.Join(codex, "MEMORY.md"), userStore)
		add(filepath.Join(codex, "memory_summary.md"), userStore)
		add(filepath.Join(home, ".gemini", "GEMINI.md"), userStore)
		add(filepath.Join(qwen, "QWEN.md"), userStore)
		add(filepath.Join(qwen, "memories"), userStore)
	}
	return out
}
