package transcript

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/tidwall/gjson"
)

// cursorAgent reads the transcripts of Cursor's agent (the editor's agent and the cursor-agent
// CLI): <projects>/<folder>/agent-transcripts/<id>/<id>.jsonl (earlier <id>.jsonl directly under
// agent-transcripts), one message a line, appended as the session runs:
//
//	{"role": "user", "message": {"content": [{"type": "text", "text": "<user_query>…</user_query>"}]}}
//	{"role": "assistant", "message": {"content": [{"type": "text", …}, {"type": "tool_use", "name", "input"}]}}
//	{"type": "turn_ended", "status": …}
//
// (This is not cursor.go, which is about dreamd's read positions in files.) The person's words
// are what Cursor wraps in <user_query>; the rest of a user message is what it injected (the
// workspace, rules, open files, reminders). The records carry no project: it is the directory the
// folder's name stands for (see cursorFolderProject). Recent versions put a <timestamp> before the
// query, which dates it; a session without one is dated by its files. A sub-agent's transcript (agent-transcripts/<id>/subagents/) is left out like Claude
// Code's sidechains.
type cursorAgent struct{}

const (
	cursorAgentKind = "cursor-agent"
	// cursorTranscripts is the folder of a project's agent transcripts.
	cursorTranscripts = "agent-transcripts"
	// cursorQuery wraps what the person typed.
	cursorQuery = "user_query"
	// cursorWorkspace names the workspace in the <user_info> block Cursor puts in a user message.
	cursorWorkspace = "Workspace Path:"
)

func (cursorAgent) Kind() string { return cursorAgentKind }

func (cursorAgent) Discover(src Source) ([]File, []Skipped, error) {
	return discover(cursorAgentKind, src, cursorAgentFile)
}

// cursorAgentFile classifies a file under a Cursor projects folder.
func cursorAgentFile(rel, _ string) (bool, string) {
	dirs := strings.Split(rel, "/")
	base := dirs[len(dirs)-1]
	at := -1
	for i, d := range dirs[:len(dirs)-1] {
		if d == cursorTranscripts {
			at = i
		}
	}
	switch {
	case at < 0:
		return false, ""
	case slicesContain(dirs[at+1:len(dirs)-1], "subagents"):
		if strings.HasSuffix(base, ".jsonl") {
			return false, "Cursor sub-agent transcript (under subagents/, its prompt is the main agent's)"
		}
		return false, ""
	case strings.HasSuffix(base, ".txt"):
		return false, "Cursor's plain-text agent transcript (an earlier format, not read)"
	case !strings.HasSuffix(base, ".jsonl"):
		return false, ""
	}
	depth := len(dirs) - 1 - at // 1: agent-transcripts/<id>.jsonl; 2: agent-transcripts/<id>/<id>.jsonl
	return depth == 1 || depth == 2 && dirs[len(dirs)-2]+".jsonl" == base, ""
}

func slicesContain(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func (cursorAgent) Read(f File, from Cursor) (Reading, error) {
	f.Kind = cursorAgentKind
	return readLines(f, from, func(from Cursor) lineState { return newCursorAgentState(f, from) })
}

func (cursorAgent) peek(f File) (string, string, error) {
	f.Kind = cursorAgentKind
	s := newCursorAgentState(f, Cursor{})
	id, project, err := peekLines(f, s)
	if err == nil && project == "" {
		if dir := cursorFolderProject(f.Path, s.hints); dir != "" {
			project = CanonicalProject(dir)
		}
	}
	return id, project, err
}

type cursorAgentState struct {
	*parse
	hints []string // absolute paths the records name, to place the project folder
}

func newCursorAgentState(f File, from Cursor) *cursorAgentState {
	p := newParse(f, from, stem(f.Path))
	p.learn(stem(f.Path), "")
	return &cursorAgentState{parse: p}
}

func (s *cursorAgentState) line(b []byte, no int64) {
	r, ok := s.record(b, no)
	if !ok {
		return
	}
	content := r.Get("message.content")
	if !content.Exists() {
		content = r.Get("content")
	}
	switch r.Get("role").Str {
	case "user":
		s.user(content)
	case "assistant":
		s.assistant(content)
	}
}

// user adds the person's words of a user message, and the tool results that failed; a message
// with nothing typed is cut.
func (s *cursorAgentState) user(content gjson.Result) {
	var typed []string
	var failed []Turn
	var at time.Time
	each := func(text string) {
		if ws := cursorWorkspacePath(text); ws != "" {
			s.learn("", ws)
		}
		if t := cursorTimestamp(text); !t.IsZero() {
			at = t
		}
		typed = append(typed, cursorTyped(text)...)
	}
	if content.Type == gjson.String {
		each(content.Str)
	}
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			each(b.Get("text").Str)
		case "tool_result":
			if b.Get("is_error").Bool() {
				text := partsText(b.Get("content").Raw, 2*maxToolError)
				failed = append(failed, Turn{Role: Tool, Text: text, IsError: true})
			}
		}
		return true
	})
	if text := strings.TrimSpace(strings.Join(typed, "\n\n")); text != "" {
		s.add(Turn{Role: User, Text: text, Time: at})
	} else if len(failed) == 0 {
		s.drop()
	}
	for _, t := range failed {
		s.add(t)
	}
}

// cursorTyped is what the person typed in one text block: each <user_query>; a text with no tag
// at all is taken as typed, one that opens with another tag is Cursor's.
func cursorTyped(text string) []string {
	if indexTag(text, cursorQuery) >= 0 {
		var out []string
		for _, q := range tagContents(prefix(text, 16*maxUserText), cursorQuery) {
			if q = promptFree(strings.TrimSpace(q)); q != "" {
				out = append(out, q)
			}
		}
		return out
	}
	if text = strings.TrimSpace(text); text == "" || strings.HasPrefix(text, "<") {
		return nil
	}
	return []string{promptFree(text)}
}

// cursorTime is how Cursor's <timestamp> before a query says when it was sent: "Friday, Sep 4,
// 2026, 2:21 AM (UTC+8)"; the zone may be missing (then the time is local).
const cursorTime = "Monday, Jan 2, 2006, 3:04 PM"

var cursorZone = lazyre.New(`\s*\(UTC(?:([+-])(\d{1,2})(?::(\d{2}))?)?\)\s*$`)

// cursorTimestamp is the time the <timestamp> block of a text names, zero when it has none that
// parses.
func cursorTimestamp(text string) time.Time {
	stamp := tagText(prefix(text, 4096), "timestamp")
	if stamp == "" {
		return time.Time{}
	}
	loc := time.Local
	if m := cursorZone.FindStringSubmatch(stamp); m != nil {
		stamp = stamp[:len(stamp)-len(m[0])]
		hours, _ := strconv.Atoi(m[2])
		minutes, _ := strconv.Atoi(m[3])
		offset := hours*3600 + minutes*60
		if m[1] == "-" {
			offset = -offset
		}
		loc = time.FixedZone("", offset)
	}
	t, err := time.ParseInLocation(cursorTime, strings.TrimSpace(stamp), loc)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// cursorWorkspacePath is the workspace a <user_info> block names, or "".
func cursorWorkspacePath(text string) string {
	_, rest, ok := strings.Cut(prefix(text, 64<<10), cursorWorkspace)
	if !ok || !strings.Contains(text, "<user_info>") {
		return ""
	}
	line, _, _ := strings.Cut(rest, "\n")
	if line = strings.TrimSpace(line); filepath.IsAbs(line) || isWindowsPath(line) {
		return line
	}
	return ""
}

func (s *cursorAgentState) assistant(content gjson.Result) {
	var texts []string
	var turns []Turn
	if content.Type == gjson.String {
		texts = append(texts, prefix(content.Str, 2*maxAssistantText))
	}
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			texts = append(texts, prefix(b.Get("text").Str, 2*maxAssistantText))
		case "tool_use":
			turns = assistantTurn(turns, texts)
			texts = texts[:0]
			input := b.Get("input")
			s.hint(input)
			turns = append(turns, Turn{Role: Tool, Text: toolLine(b.Get("name").Str, toolArg(input.Raw)), Dir: toolDir(input.Raw)})
		}
		return true
	})
	for _, t := range assistantTurn(turns, texts) {
		s.add(t)
	}
}

// hint keeps the absolute paths a tool call names (a bounded few): they tell where the project is.
func (s *cursorAgentState) hint(input gjson.Result) {
	if len(s.hints) >= 32 || s.project != "" {
		return
	}
	input.ForEach(func(_, v gjson.Result) bool {
		if v.Type == gjson.String && (strings.HasPrefix(v.Str, "/") || isWindowsPath(v.Str)) && len(v.Str) < 4096 {
			s.hints = append(s.hints, strings.Clone(v.Str))
		}
		return len(s.hints) < 32
	})
}

func (s *cursorAgentState) finish() {
	if s.projectOf() == "" {
		s.learn("", cursorFolderProject(s.file.Path, s.hints))
	}
	// No record carries a time: a session begins when its folder was made, not when its file was
	// last written.
	if s.cur != nil && s.cur.Started.IsZero() {
		s.cur.Started = cursorStarted(s.file)
	}
}

// cursorStarted is the modification time of a transcript's own folder (agent-transcripts/<id>/,
// written when the transcript was created in it) when earlier than the file's.
func cursorStarted(f File) time.Time {
	dir := filepath.Dir(f.Path)
	if filepath.Base(dir)+".jsonl" != filepath.Base(f.Path) {
		return f.ModTime
	}
	fi, err := os.Stat(dir)
	if err != nil || f.ModTime.IsZero() || !fi.ModTime().Before(f.ModTime) {
		return f.ModTime
	}
	return fi.ModTime()
}

// cursorSlug is the folder name Cursor gives a workspace: every run of characters other than
// ASCII letters and digits becomes one "-", with none at either end ("/Users/ana/my_app" →
// "Users-ana-my-app").
func cursorSlug(path string) string {
	var b strings.Builder
	dash := false
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteByte(c)
			continue
		}
		dash = true
	}
	return b.String()
}

// cursorFolderProject is the directory the project folder holding a transcript
// (<projects>/<folder>/agent-transcripts/…) stands for: the first path the records name that is,
// or is inside, a directory whose slug is the folder's name; else the directory found by walking
// the file system from the root, matching the name part by part; "" when neither finds one (the
// name is lossy: "my-app" and "my_app" share one). Answers from the file system are kept a little
// while.
func cursorFolderProject(path string, hints []string) string {
	folder := cursorFolder(path)
	if folder == "" {
		return ""
	}
	for _, h := range hints {
		for d := filepath.Clean(h); ; {
			if strings.EqualFold(cursorSlug(d), folder) {
				return d
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	now := time.Now()
	if c, ok := cursorFolders.Load(folder); ok && now.Sub(c.(cachedRoot).at) < rootTTL {
		return c.(cachedRoot).root
	}
	dir := walkSlug(string(filepath.Separator), folder, 0)
	cursorFolders.Store(folder, cachedRoot{dir, now})
	return dir
}

var cursorFolders sync.Map // folder name → cachedRoot

// cursorFolder is the name of the project folder above a transcript's agent-transcripts, or "".
func cursorFolder(path string) string {
	for d := filepath.Dir(path); ; {
		parent := filepath.Dir(d)
		if filepath.Base(d) == cursorTranscripts {
			return filepath.Base(parent)
		}
		if parent == d {
			return ""
		}
		d = parent
	}
}

// walkSlug finds, under dir, the directory whose path below dir has the slug rest.
func walkSlug(dir, rest string, depth int) string {
	if rest == "" {
		return dir
	}
	if depth > 24 {
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		s := cursorSlug(e.Name())
		if s == "" || !strings.HasPrefix(rest, s) || len(rest) > len(s) && rest[len(s)] != '-' {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
			continue
		}
		if len(rest) == len(s) {
			return sub
		}
		if found := walkSlug(sub, rest[len(s)+1:], depth+1); found != "" {
			return found
		}
	}
	return ""
}
