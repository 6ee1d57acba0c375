package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/tidwall/gjson"
)

// gemini reads Gemini CLI chats: <path>/<project hash>/chats/session-*.jsonl, a metadata line then
// one message a line, with {"$set": {…}} metadata updates and {"$rewindTo": id} rewinds; and the
// older session-*.json files, one object with a messages array, which are re-read whole.
//
// A session whose metadata says "kind": "subagent" is a sub-agent's: its prompt is the main
// agent's, so it is left out like Codex sub-threads and Claude Code's sidechains (Peek reports
// ErrSubThread). Recent versions file such sessions under chats/<parent session id>/, which
// discovery passes over.
type gemini struct{}

// geminiSubagentKind is the metadata "kind" of a session a sub-agent ran.
const geminiSubagentKind = "subagent"

var errGeminiSubThread = fmt.Errorf("%w (a Gemini CLI session of \"kind\": \"subagent\"), left out like Claude Code's sidechains", ErrSubThread)

// Texts Gemini CLI records as a user message that the person did not type.
const (
	// geminiContinue is sent by Gemini CLI itself to make the model go on after an invalid or
	// empty response.
	geminiContinue = "System: Please continue."
	// geminiToolResult starts a tool's result that Gemini CLI recorded as a user message (a
	// function response sent along with text parts, flattened to a string).
	geminiToolResult = "[Function Response: "
)

func (gemini) Kind() string { return "gemini" }

func (gemini) Discover(src Source) ([]File, []Skipped, error) {
	files, skipped, err := discover("gemini", src, geminiFile)
	if err != nil {
		return nil, nil, err
	}
	files, skipped = withoutMigrated(src, files, skipped)
	files, err = withKept("gemini", src, files, geminiFile)
	return files, skipped, err
}

// withoutMigrated passes over the sessions of an older Gemini CLI's hash folder that a newer one
// copied into the project's short-name folder (its storage migration copies the folder and leaves
// the old one): the copy is read, once.
func withoutMigrated(src Source, files []File, skipped []Skipped) ([]File, []Skipped) {
	moved := map[string]string{} // hash folder → the short-name folder its project moved to
	roots, _ := filepath.Glob(filepath.Join(src.Path, "*", ".project_root"))
	for _, r := range roots {
		if p := readProjectRoot(filepath.Dir(r)); p != "" {
			moved[ProjectHash(p)] = filepath.Dir(r)
		}
	}
	if len(moved) == 0 {
		return files, skipped
	}
	kept := files[:0]
	for _, f := range files {
		folder := geminiFolder(f.Path)
		to, ok := moved[filepath.Base(folder)]
		if ok && folder != "" {
			rel, _ := filepath.Rel(folder, f.Path)
			if _, err := os.Stat(filepath.Join(to, rel)); err == nil {
				skipped = append(skipped, Skipped{Path: f.Path, Reason: "copied by Gemini CLI into " + to + " (its storage migration), read there"})
				continue
			}
		}
		kept = append(kept, f)
	}
	return kept, skipped
}

// geminiFile classifies a file under a Gemini CLI source: <folder>/chats/session-*.json(l), and
// <folder>/logs.json for the sessions that have no chats/ file (geminilogs.go).
func geminiFile(rel, real string) (bool, string) {
	dirs := strings.Split(rel, "/")
	base := dirs[len(dirs)-1]
	isJSONL, isJSON := strings.HasSuffix(base, ".jsonl"), strings.HasSuffix(base, ".json")
	switch {
	case base == geminiLogsName && len(dirs) <= 2:
		return true, ""
	case !isJSONL && !isJSON:
		return false, ""
	case len(dirs) >= 3 && dirs[len(dirs)-3] == "chats":
		return false, "Gemini CLI sub-agent session (under chats/<parent session id>/)"
	case len(dirs) < 2 || dirs[len(dirs)-2] != "chats" || !strings.HasPrefix(base, "session-"):
		return false, ""
	case isJSON:
		if _, err := os.Stat(real + "l"); err == nil {
			return false, "superseded by " + base + "l"
		}
	}
	return true, ""
}

func (gemini) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "gemini"
	if isGeminiLogs(f.Path) {
		return readGeminiLogs(f, from)
	}
	if wholeDocument(f) {
		return readDoc(f, from, parseGeminiDoc)
	}
	// A sub-agent's session is only known from the metadata line, so a read from the middle looks
	// there again.
	subagent := false
	if from.Offset > 0 {
		var err error
		if subagent, err = geminiSubagent(f); err != nil {
			return Reading{}, err
		}
	}
	return readLines(f, from, func(from Cursor) lineState {
		s := newGeminiState(f, from)
		s.subagent = subagent && from.Offset > 0
		return s
	})
}

func (gemini) peek(f File) (string, string, error) {
	f.Kind = "gemini"
	if isGeminiLogs(f.Path) {
		return peekGeminiLogs(f)
	}
	if wholeDocument(f) {
		return peekDoc(f, parseGeminiDoc)
	}
	s := newGeminiState(f, Cursor{})
	id, project, err := peekLines(f, s)
	if err == nil && s.subagent {
		return id, project, errGeminiSubThread
	}
	return id, project, err
}

type geminiState struct {
	*parse
	msgs     []geminiMessage // this reading's messages, in order, until finish adds them
	index    map[string]int  // message id → position in msgs, for updates and rewinds
	subagent bool            // the metadata names a sub-agent's session: nothing is read
	root     string          // the workspace's directory the metadata names, "" when it names none
}

type geminiMessage struct {
	id    string
	turns []Turn
	cut   bool // a user message that is not the person's words (see geminiTurns)
}

func newGeminiState(f File, from Cursor) *geminiState {
	return &geminiState{parse: newParse(f, from, stem(f.Path)), index: map[string]int{}}
}

func (s *geminiState) line(b []byte, no int64) {
	r, ok := s.record(b, no)
	if !ok {
		return
	}
	if set := r.Get(`$set`); set.IsObject() {
		s.learnGemini(set)
		return
	}
	if to := r.Get(`$rewindTo`); to.Exists() {
		s.rewind(to.String())
		return
	}
	if r.Get("type").Exists() {
		s.message(r)
		return
	}
	s.learnGemini(r) // the metadata line
}

func (s *geminiState) learnGemini(meta gjson.Result) {
	s.learn(meta.Get("sessionId").Str, meta.Get("directories.0").Str)
	if dir := meta.Get("directories.0").Str; dir != "" {
		s.root = dir
	}
	s.subagent = s.subagent || meta.Get("kind").Str == geminiSubagentKind
}

// message adds a message, or replaces an earlier one with the same id (an update).
func (s *geminiState) message(m gjson.Result) {
	if s.subagent {
		return
	}
	turns, cut := geminiTurns(m)
	for i := range turns {
		turns[i].Text = clip(turns[i].Text, textCap(turns[i]))
		s.kept += len(turns[i].Text)
	}
	id := m.Get("id").String()
	if i, ok := s.index[id]; ok && id != "" {
		s.msgs[i].turns, s.msgs[i].cut = turns, cut
		return
	}
	id = strings.Clone(id)
	s.msgs = append(s.msgs, geminiMessage{id: id, turns: turns, cut: cut})
	if id != "" {
		s.index[id] = len(s.msgs) - 1
	}
}

// rewind drops the message with the given id and every later one. A message read in an earlier
// pass is not in this reading: then everything this reading holds came after it.
func (s *geminiState) rewind(id string) {
	i, ok := s.index[id]
	if !ok {
		i = 0
	}
	for _, m := range s.msgs[i:] {
		delete(s.index, m.id)
	}
	s.msgs = s.msgs[:i]
}

func (s *geminiState) finish() {
	learnGeminiFolder(s.parse)
	root := geminiRoot(s.root, s.file.Path)
	for _, m := range s.msgs {
		if m.cut {
			s.drop()
		}
		for _, t := range m.turns {
			t.Dir = root.resolve(t.Dir)
			s.add(t)
		}
	}
	s.msgs, s.index = nil, map[string]int{}
}

// learnGeminiFolder gives a session whose records name no directory (Gemini CLI 0.61's main
// sessions record only the projectHash) the project its folder names (see Locate).
func learnGeminiFolder(p *parse) {
	if p.project == "" {
		p.learn("", geminiProject(p.file.Path))
	}
}

// geminiWorkspace is the workspace a session's relative dir_path is taken from: the directory its
// metadata names, else the one its folder's .project_root names (Gemini CLI 0.61), both as Gemini
// CLI ran in them, before the project is made the git root. The file is read only for a relative
// dir_path.
type geminiWorkspace struct {
	dir, path string
	looked    bool
}

func geminiRoot(named, path string) *geminiWorkspace {
	return &geminiWorkspace{dir: named, path: path, looked: named != ""}
}

// resolve makes a relative dir_path absolute in the workspace.
func (w *geminiWorkspace) resolve(dir string) string {
	if dir == "" || filepath.IsAbs(dir) {
		return dir
	}
	if !w.looked {
		w.dir, w.looked = geminiProject(w.path), true
	}
	return resolveDir(dir, w.dir)
}

// geminiSubagent reports whether the metadata line of a session-*.jsonl names a sub-agent's session.
func geminiSubagent(f File) (bool, error) {
	head := newGeminiState(f, Cursor{})
	err := firstLine(f, head)
	return head.subagent, err
}

// parseGeminiDoc reads a legacy session-*.json: one object with the metadata and a messages array.
func parseGeminiDoc(p *parse, doc string) {
	if !gjson.Valid(doc) {
		p.warn(0, "malformed JSON, file skipped")
		return
	}
	r := gjson.Parse(doc)
	p.learn(r.Get("sessionId").Str, r.Get("directories.0").Str)
	learnGeminiFolder(p)
	if r.Get("kind").Str == geminiSubagentKind {
		p.subThread = errGeminiSubThread
		return
	}
	root := geminiRoot(r.Get("directories.0").Str, p.file.Path)
	r.Get("messages").ForEach(func(_, m gjson.Result) bool {
		turns, cut := geminiTurns(m)
		if cut {
			p.drop()
		}
		for _, t := range turns {
			t.Dir = root.resolve(t.Dir)
			p.add(t)
		}
		return true
	})
}

// geminiTurns maps one message: user → User, gemini → Assistant plus a line per tool call,
// info and warning → Tool, error → a Tool error. Thoughts are left out. A user message that is
// not the person's words — Gemini CLI's own "System: Please continue.", a tool's result — gives
// no turn and reports cut. The result is left out as the other adapters leave out tool output:
// the call already stands as a Tool line of the gemini message that made it.
func geminiTurns(m gjson.Result) (turns []Turn, cut bool) {
	ts := parseTime(m.Get("timestamp"))
	content := m.Get("content").Raw
	text := partsText(content, 16*maxUserText)
	switch m.Get("type").Str {
	case "user":
		if geminiNotTyped(content, text) {
			return nil, true
		}
		// @file references are expanded into the message; the person typed what comes before.
		text, _, _ = strings.Cut(prefix(text, 16*maxUserText), "\n--- Content from referenced files ---")
		turns = append(turns, Turn{Role: User, Text: text})
	case "gemini":
		turns = append(turns, Turn{Role: Assistant, Text: prefix(text, 2*maxAssistantText)})
		m.Get("toolCalls").ForEach(func(_, call gjson.Result) bool {
			turns = append(turns, Turn{Role: Tool, Text: toolLine(call.Get("name").Str, toolArg(call.Get("args").Raw)), Dir: toolDir(call.Get("args").Raw)})
			if geminiFailed(call) {
				turns = append(turns, Turn{Role: Tool, Text: geminiToolError(call), IsError: true})
			}
			if answers := geminiAnswers(call); answers != "" { // answers.go
				turns = append(turns, Turn{Role: User, Text: answers})
			}
			return true
		})
	case "info", "warning":
		turns = append(turns, Turn{Role: Tool, Text: prefix(text, 2*maxToolLine)})
	case "error":
		turns = append(turns, Turn{Role: Tool, Text: prefix(text, 2*maxToolError), IsError: true})
	}
	kept := turns[:0]
	for _, t := range turns {
		if strings.TrimSpace(t.Text) != "" {
			t.Time = ts
			kept = append(kept, t)
		}
	}
	return kept, false
}

// geminiNotTyped reports whether a user message's content (raw JSON) with the given text is one
// Gemini CLI wrote itself: its automatic continuation, or a tool's result, flattened to a string
// ("[Function Response: read_many_files]--- <path> ---…") or kept as functionResponse parts.
func geminiNotTyped(content, text string) bool {
	text = strings.TrimSpace(text)
	if text == geminiContinue || strings.HasPrefix(text, geminiToolResult) {
		return true
	}
	if !strings.HasPrefix(content, "[") {
		return false
	}
	response := false
	eachElement(content, func(item string) bool {
		response = strings.HasPrefix(item, "{") && member(item, "functionResponse") != ""
		return !response
	})
	return response
}

// geminiExitCode is how Gemini CLI's shell tool reports its command's exit status in the result.
var geminiExitCode = lazyre.New(`(?m)^Exit Code: (-?\d+)\s*$`)

// geminiFailed reports whether a tool call failed: an error status, or (Gemini CLI 0.61 records a
// shell command that exits non-zero as a success) a shell result whose exit code is not 0.
func geminiFailed(call gjson.Result) bool {
	if call.Get("status").Str == "error" {
		return true
	}
	out := call.Get("result.0.functionResponse.response.output").Str
	m := geminiExitCode.FindStringSubmatch(out)
	return m != nil && m[1] != "0"
}

// geminiToolError is what a failed tool call reported.
func geminiToolError(call gjson.Result) string {
	for _, path := range []string{"resultDisplay", "result.0.functionResponse.response.error", "result.0.functionResponse.response.output"} {
		if v := call.Get(path); v.Type == gjson.String && strings.TrimSpace(v.Str) != "" {
			return prefix(v.Str, 2*maxToolError)
		}
	}
	return call.Get("name").Str + " failed"
}
