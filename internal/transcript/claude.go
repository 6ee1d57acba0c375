package transcript

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// claude reads Claude Code transcripts: <path>/<project slug>/<session id>.jsonl, one JSON record
// a line; a source may also point at one project directory, <path>/<session id>.jsonl. Subagent
// transcripts are passed over: their prompts are the agent's, not the person's.
type claude struct{}

func (claude) Kind() string { return "claude" }

func (claude) Discover(src Source) ([]File, []Skipped, error) {
	return discover("claude", src, func(rel, _ string) (bool, string) {
		if !strings.HasSuffix(rel, ".jsonl") {
			return false, ""
		}
		dir, base := "", rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			dir, base = rel[:i], rel[i+1:]
		}
		switch {
		case strings.Contains(dir, "subagents") && slices.Contains(strings.Split(dir, "/"), "subagents"):
			return false, "subagent transcript (under <session>/subagents/)"
		case strings.HasPrefix(base, "agent-"):
			return false, "subagent transcript (agent-*.jsonl)"
		case strings.HasSuffix(dir, claudeMemObserver):
			return false, "claude-mem observer session (the memory plugin's own prompts, not the person's)"
		case strings.Contains(dir, "/"):
			return false, "not a session file at <project>/<session>.jsonl"
		}
		return true, ""
	})
}

// claudeMemObserver ends the project slug of the sessions the claude-mem plugin runs from
// ~/.claude-mem/observer-sessions: every "user" message there is the plugin's prompt about
// another session ("Hello memory agent, you are continuing to observe…").
const claudeMemObserver = "-claude-mem-observer-sessions"

func (claude) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "claude"
	var st *claudeState
	defer func() {
		if st != nil {
			st.seen.release()
		}
	}()
	return readLines(f, from, func(from Cursor) lineState {
		st = newClaudeState(f, from)
		return st
	})
}

func (claude) peek(f File) (string, string, error) {
	f.Kind = "claude"
	st := newClaudeState(f, Cursor{})
	defer st.seen.release()
	return peekLines(f, st)
}

type claudeState struct {
	*parse
	seen   *uuidSet      // uuids of records already kept: streamed duplicates are dropped
	blocks []claudeBlock // reused across lines
	caveat string        // uuid of the last local-command caveat: its child is the command's
}

func newClaudeState(f File, from Cursor) *claudeState {
	p := newParse(f, from, stem(f.Path))
	if p.session == "" && sessionFileName.MatchString(p.fallback) {
		// Claude Code names the file after its session: a record of the session before it that
		// starts the file (a plan accepted in a new session, "[Request interrupted by user]")
		// carries the other id, and `claude --resume` knows this one.
		p.session = p.fallback
	}
	return &claudeState{parse: p, seen: uuidSets.Get().(*uuidSet)}
}

// sessionFileName is the name Claude Code gives a session's file: the session's UUID.
var sessionFileName = lazyre.New(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// uuidSet is a set of record uuids for one reading, reused by the next: a machine with many short
// sessions would otherwise grow (and collect) a map and a copy of every uuid for each file.
type uuidSet struct {
	keys  map[string]struct{}
	arena []byte // the keys' bytes: each key views its own span, never rewritten while in keys
}

var uuidSets = sync.Pool{New: func() any { return &uuidSet{keys: map[string]struct{}{}} }}

// keepUUIDs bounds what a set may hold to be reused: one left by a giant transcript is dropped.
const keepUUIDs = 4096

func (u *uuidSet) has(id string) bool {
	_, ok := u.keys[id]
	return ok
}

// add copies id (it may view the line buffer) into the arena and keeps it.
func (u *uuidSet) add(id string) {
	if id == "" {
		return
	}
	if len(u.arena)+len(id) > cap(u.arena) {
		// A new arena: the keys viewing the old one keep it alive, unchanged.
		u.arena = make([]byte, 0, max(2*cap(u.arena), len(id), 1024))
	}
	start := len(u.arena)
	u.arena = append(u.arena, id...)
	u.keys[unsafe.String(&u.arena[start], len(id))] = struct{}{}
}

// release empties the set for the next reading.
func (u *uuidSet) release() {
	if len(u.keys) > keepUUIDs {
		return
	}
	clear(u.keys)
	u.arena = u.arena[:0]
	uuidSets.Put(u)
}

// claudeRecord is what one record says, found in a single scan of its line. Its strings point
// into the line buffer and hold raw JSON, except typ, decoded.
type claudeRecord struct {
	typ, uuid, parent, sessionID, cwd string
	time                              time.Time
	skip                              bool   // sidechain, meta, compaction summary or API error: not the conversation
	content                           string // message.content when it is a plain string
	blocks                            []claudeBlock
	answers                           string // toolUseResult.answers: the person's answers to AskUserQuestion
	attachment                        string // the attachment of an "attachment" record, raw
}

// claudeBlock is one item of message.content: raw JSON members, or a bare string item as text.
type claudeBlock struct {
	typ                                 string // decoded
	text, isError, content, name, input string
	id                                  string // a tool_use's id, a tool_result's tool_use_id; decoded
}

func (s *claudeState) line(b []byte, no int64) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if b[0] != '{' {
		s.warn(no, "not a JSON object, line skipped")
		return
	}
	line := view(b)
	r := claudeRecord{blocks: s.blocks[:0]}
	ok := r.scan(line)
	s.blocks = r.blocks[:0]
	if !ok {
		s.warn(no, "malformed JSON, line skipped")
		return
	}
	s.learn(jsonString(r.sessionID), jsonString(r.cwd))
	if r.uuid != "" && s.seen.has(r.uuid) {
		return
	}
	if r.skip {
		if r.typ == "user" && s.valid(no, line) {
			s.drop() // isMeta: an expanded skill or command, a caveat
			if r.uuid != "" && strings.Contains(jsonString(r.content), "<local-command-caveat>") {
				s.caveat = strings.Clone(r.uuid)
			}
		}
		return
	}
	if r.typ == "user" && r.parent != "" && r.parent == s.caveat && localCommandReply(r) {
		if s.valid(no, line) {
			s.drop()
		}
		return
	}
	var turns []Turn
	switch r.typ {
	case "attachment":
		text, queued := queuedPrompt(r.attachment)
		if text != "" {
			turns = []Turn{{Role: User, Text: text}}
		} else if queued && s.valid(no, line) {
			s.drop() // a notification or another session's message, queued like a prompt
		}
	case "user":
		turns = claudeUserTurns(r)
		if len(turns) == 0 && len(blockTexts(r, 64)) > 0 && s.valid(no, line) {
			s.drop() // only injected text: reminders, command output, caveats
		}
	case "assistant":
		turns = claudeAssistantTurns(r)
	}
	if len(turns) == 0 || !s.valid(no, line) {
		return
	}
	if r.uuid != "" {
		s.seen.add(r.uuid)
	}
	for _, t := range turns {
		t.Time = r.time
		s.add(t)
	}
}

// localCommandReply reports a record Claude Code wrote itself, untagged, right after a
// local-command caveat: its answer to a slash command it could not run ("Unknown skill: usage",
// "Commands are in the form `/command [args]`", Claude Code 2.1.88 and later). The person's own
// command after a caveat is tagged (<command-name>, <bash-input>) and stays theirs.
func localCommandReply(r claudeRecord) bool {
	return len(r.blocks) == 0 && strings.HasPrefix(r.content, `"`) && !strings.HasPrefix(jsonString(r.content), "<")
}

// scan reads a record's members in one pass over the line: the big ones (tool output, file
// contents, thinking) are skipped, never decoded.
func (r *claudeRecord) scan(line string) bool {
	return members(line, skipSpace(line, 0), func(key string, v int) int {
		if key == "message" && line[v] == '{' {
			return r.scanMessage(line, v)
		}
		end := skipValue(line, v)
		if end < 0 {
			return end
		}
		value := line[v:end]
		switch key {
		case "type":
			r.typ = jsonString(value)
		case "uuid":
			r.uuid = value
		case "parentUuid":
			r.parent = value
		case "sessionId":
			r.sessionID = value
		case "cwd":
			r.cwd = value
		case "timestamp":
			r.time = parseTime(gjson.Parse(value))
		case "isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage", "isVisibleInTranscriptOnly":
			r.skip = r.skip || value == "true"
		case "attachment":
			r.attachment = value
		case "toolUseResult":
			if value[0] == '{' {
				r.answers = member(value, "answers")
			}
		case "origin":
			// Claude Code 2.1 marks what it queued itself: {"kind": "task-notification", …}.
			r.skip = r.skip || jsonString(member(value, "kind")) == "task-notification"
		}
		return end
	}) >= 0
}

func (r *claudeRecord) scanMessage(s string, i int) int {
	return members(s, i, func(key string, v int) int {
		if key == "content" && s[v] == '[' {
			return elements(s, v, func(e int) int { return r.scanBlock(s, e) })
		}
		end := skipValue(s, v)
		if key == "content" && end >= 0 {
			r.content = s[v:end]
		}
		return end
	})
}

func (r *claudeRecord) scanBlock(s string, i int) int {
	if s[i] != '{' {
		end := skipValue(s, i)
		if end >= 0 && s[i] == '"' {
			r.blocks = append(r.blocks, claudeBlock{typ: "text", text: s[i:end]})
		}
		return end
	}
	var b claudeBlock
	end := members(s, i, func(key string, v int) int {
		end := skipValue(s, v)
		if end < 0 {
			return end
		}
		switch key {
		case "type":
			b.typ = jsonString(s[v:end])
		case "text":
			b.text = s[v:end]
		case "is_error":
			b.isError = s[v:end]
		case "content":
			b.content = s[v:end]
		case "name":
			b.name = s[v:end]
		case "input":
			b.input = s[v:end]
		case "id", "tool_use_id":
			b.id = strings.Clone(jsonString(s[v:end])) // the line is a view of a buffer read over
		}
		return end
	})
	if end >= 0 {
		r.blocks = append(r.blocks, b)
	}
	return end
}

// claudeUserTurns maps a user record: the person's text, and failed tool results. Successful
// tool results are left out.
func claudeUserTurns(r claudeRecord) []Turn {
	texts := blockTexts(r, 16*maxUserText)
	var errs []Turn
	for _, b := range r.blocks {
		switch {
		case b.typ != "tool_result":
		case b.isError == "true":
			said, rejected := rejectionReason(partsText(b.content, maxUserText))
			switch {
			case !rejected:
				errs = append(errs, Turn{Role: Tool, Text: partsText(b.content, 2*maxToolError), IsError: true, Call: b.id})
			case said != "":
				// the call did not run: no program failed, and what the person typed is theirs
				errs = append(errs, Turn{Role: Tool, Text: rejectedCall, IsError: true, Call: b.id}, Turn{Role: User, Text: said})
			default:
				errs = append(errs, Turn{Role: Tool, Text: rejectedCall, IsError: true, Call: b.id})
			}
		default:
			if answer := questionAnswers(b.content, r.answers); answer != "" {
				texts = append(texts, answer)
			}
		}
	}
	text := strings.Join(texts, "\n")
	var turns []Turn
	if isTeammate(text) {
		turns = append(turns, Turn{Role: Tool, Text: teammateText(text)})
	} else if text = cleanUserText(text); text != "" {
		turns = append(turns, Turn{Role: User, Text: text})
	}
	return append(turns, errs...)
}

// Claude Code's result of a tool call the person rejected, and the two ways it has written the
// reason they typed: the words after either are the person's, often a correction ("不是懒加载，
// 而是提前加载", "use pnpm build"). Its own text when the person asks to clarify a question
// (AskUserQuestion) is no reason of theirs.
const (
	rejectedPrefix = "The user doesn't want to proceed with this tool use."
	rejectedCall   = "The person rejected this call."
	clarifyAsked   = "The user wants to clarify these questions."
	// rejectedNote is what Claude Code 2.1 appends to a rejection when its auto memory is on.
	rejectedNote = "Note: The user's next message may contain a correction or preference."
)

var rejectionReasons = []string{"To tell you how to proceed, the user said:", "The user provided the following reason for the rejection:"}

// rejectionReason reports whether a failed tool result is the person's rejection of the call,
// and the reason they typed, "" when none.
func rejectionReason(result string) (string, bool) {
	result = strings.TrimSpace(result)
	if !strings.HasPrefix(result, rejectedPrefix) {
		return "", false
	}
	for _, p := range rejectionReasons {
		if _, said, ok := strings.Cut(result, p); ok {
			said, _, _ = strings.Cut(said, rejectedNote)
			said = strings.TrimSpace(said)
			if strings.HasPrefix(said, clarifyAsked) {
				return "", true
			}
			return cleanUserText(said), true
		}
	}
	return "", true
}

// The result Claude Code gives the model when the person answers its multiple-choice questions
// (the AskUserQuestion tool): the person's choices, and any note they typed, are their words and
// often a decision. Both phrasings seen in real transcripts are known; the record's
// toolUseResult.answers, when present, is read whatever the phrasing.
var answerPrefixes = []string{"User has answered your questions:", "Your questions have been answered:"}

const (
	answerSuffix = "You can now continue with"
	answerLabel  = "Answers to the agent's questions:"
)

// questionAnswers returns the person's answers in a tool result's raw content, or in the record's
// raw toolUseResult.answers, "" when neither holds any. The question each answers is kept beside
// it: "Postgres" alone decides nothing.
func questionAnswers(content, answers string) string {
	head := strings.TrimSpace(partsText(content, 64))
	for _, p := range answerPrefixes {
		if !strings.HasPrefix(head, p) {
			continue
		}
		text := strings.TrimSpace(partsText(content, maxUserText))
		text = strings.TrimSpace(strings.TrimPrefix(text, p))
		if i := strings.LastIndex(text, answerSuffix); i > 0 {
			text = strings.TrimSpace(text[:i])
		}
		// The sentence's period after the last pair, as the other agents' answers are written.
		if strings.HasSuffix(text, `".`) {
			text = strings.TrimSuffix(text, ".")
		}
		if text == "" {
			return ""
		}
		return answerLabel + " " + text
	}
	if !strings.HasPrefix(answers, "{") {
		return ""
	}
	var pairs []questionAnswer
	eachMember(answers, func(question, answer string) bool {
		a := jsonPrefix(answer, maxToolLine)
		if strings.HasPrefix(answer, "[") { // a multi-select answer
			a = strings.ReplaceAll(partsText(answer, maxToolLine), "\n", ", ")
		}
		if strings.TrimSpace(a) != "" {
			pairs = append(pairs, questionAnswer{question: jsonString(`"` + question + `"`), answer: a})
		}
		return len(pairs) < maxAnswers
	})
	return answersText(pairs)
}

// queuedPrompt returns what the person typed while the agent was busy: Claude Code 2.1 hands it
// to the model mid-turn and records it only as an attachment,
// {"type": "queued_command", "commandMode": "prompt", "prompt": …, "origin": {"kind": "human"}}.
// A queued task notification or another session's message (origin.kind "peer") is not the
// person's; queued reports that the attachment was a queued command at all.
func queuedPrompt(attachment string) (text string, queued bool) {
	if !strings.HasPrefix(attachment, "{") {
		return "", false
	}
	var typ, mode, prompt, origin string
	eachMember(attachment, func(key, value string) bool {
		switch key {
		case "type":
			typ = jsonString(value)
		case "commandMode":
			mode = jsonString(value)
		case "prompt":
			prompt = value
		case "origin":
			origin = jsonString(member(value, "kind"))
		}
		return true
	})
	if typ != "queued_command" {
		return "", false
	}
	if mode != "" && mode != "prompt" || origin != "" && origin != "human" {
		return "", true
	}
	return cleanUserText(partsText(prompt, 16*maxUserText)), true
}

// claudeAssistantTurns maps an assistant record: its text blocks, and one short line per tool
// call. Thinking is left out.
func claudeAssistantTurns(r claudeRecord) []Turn {
	if r.content != "" {
		return assistantTurn(nil, []string{jsonPrefix(r.content, 2*maxAssistantText)})
	}
	var turns []Turn
	var texts []string
	for _, b := range r.blocks {
		switch b.typ {
		case "text":
			texts = append(texts, jsonPrefix(b.text, 2*maxAssistantText))
		case "tool_use", "server_tool_use":
			turns = assistantTurn(turns, texts)
			texts = texts[:0]
			// Claude Code's Bash keeps one shell: the record's cwd is where it stood. A command
			// run in the background returns at once: it has neither failed nor worked (as
			// Codex CLI's calls still running, codex_running.go).
			name := jsonString(b.name)
			text := toolLine(name, toolArg(b.input))
			if name == "Bash" && gjson.Get(b.input, "run_in_background").Bool() {
				text += stillRunning
			}
			turns = append(turns, Turn{Role: Tool, Text: text, Dir: shellDir(b.input, jsonString(r.cwd)), Call: b.id})
		}
	}
	return assistantTurn(turns, texts)
}

// blockTexts returns the texts of a message, its content string or its text blocks, each
// decoded up to n bytes.
func blockTexts(r claudeRecord, n int) []string {
	if r.content != "" {
		return []string{jsonPrefix(r.content, n)}
	}
	var texts []string
	for _, b := range r.blocks {
		if b.typ == "text" {
			texts = append(texts, jsonPrefix(b.text, n))
		}
	}
	return texts
}

// assistantTurn appends the joined texts as one assistant turn, if they say anything.
func assistantTurn(turns []Turn, texts []string) []Turn {
	text := strings.TrimSpace(strings.Join(texts, "\n\n"))
	if text == "" || text == "No response requested." {
		return turns
	}
	return append(turns, Turn{Role: Assistant, Text: prefix(text, 2*maxAssistantText)})
}

// Blocks Claude Code adds to user records that the person did not type.
var claudeInjectedTags = []string{
	"system-reminder", "local-command-stdout", "local-command-stderr", "local-command-caveat",
	"command-message", "command-contents", "bash-stdout", "bash-stderr", "task-notification",
	// What an editor's extension adds: the file open in the IDE, the selection, its diagnostics.
	"ide_opened_file", "ide_selection", "ide_diagnostics",
}

// taskOutputHint follows a <task-notification> (a background command or agent finished): Claude
// Code's pointer to the output, not the person's words.
const taskOutputHint = "Read the output file to retrieve the result:"

// Wrappers around words the person did type: a slash command and its arguments, a ! command,
// a # memory note.
var claudeWrapperTags = []string{"command-name", "command-args", "bash-input", "user-memory-input"}

var claudeNoise = []string{"[Request interrupted by user for tool use]", "[Request interrupted by user]"}

const (
	claudeCaveat   = "Caveat: The messages below were generated by the user while running local commands."
	teammatePrefix = "Another Claude session sent a message:"
)

// cleanUserText keeps only the person's words of a user record. A slash command is what the
// person typed — "/name args" — and nothing of the template it expands into (a custom command's
// or a skill's prompt file is the command author's text, not the person's). A bare slash command
// ("/clear") teaches nothing and is dropped.
// claudeDesktopPreview starts the prompt the Claude desktop app sends as the person's when they
// ask it to preview the project: its own instructions (a launch.json format, "Call
// preview_start…"), not anything the person wrote (seen in real sessions of Claude Code 2.1.87).
const claudeDesktopPreview = "Detect my project's dev servers and save all their configurations to .claude/launch.json"

func cleanUserText(s string) string {
	s = strings.TrimSpace(prefix(s, 16*maxUserText))
	if strings.HasPrefix(s, claudeCaveat) || strings.HasPrefix(s, "Base directory for this skill:") ||
		strings.HasPrefix(s, claudeDesktopPreview) {
		return ""
	}
	if name := tagText(s, "command-name"); name != "" {
		typed := strings.TrimSpace(name + " " + tagText(s, "command-args"))
		if !strings.ContainsAny(typed, " \n\t") {
			return ""
		}
		return typed
	}
	if strings.ContainsAny(s, "<[") {
		for _, tag := range claudeInjectedTags {
			s = stripBlocks(s, tag)
		}
		for _, tag := range claudeWrapperTags {
			s = unwrapTags(s, tag)
		}
		for _, noise := range claudeNoise {
			s = strings.ReplaceAll(s, noise, "")
		}
		s = dropLines(strings.TrimSpace(s), taskOutputHint)
	}
	if strings.HasPrefix(s, "/") && !strings.ContainsAny(s, " \n\t") {
		return ""
	}
	return s
}

// dropLines removes the lines of s that start with prefix.
func dropLines(s, prefix string) string {
	if !strings.Contains(s, prefix) {
		return s
	}
	var kept []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), prefix) {
			kept = append(kept, line)
		}
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// tagText is the trimmed text inside the first <tag>…</tag> of s, "" when there is none.
func tagText(s, tag string) string {
	open, end := "<"+tag+">", "</"+tag+">"
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	rest := s[i+len(open):]
	j := strings.Index(rest, end)
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(rest[:j])
}

func isTeammate(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), teammatePrefix)
}

// teammateText cuts a message relayed from another Claude session down to "teammate <id>: …".
func teammateText(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), teammatePrefix)
	if i := strings.Index(s, "This came from another Claude session"); i >= 0 {
		s = s[:i]
	}
	s = prefix(s, 4*maxToolLine)
	if i := indexTag(s, "teammate-message"); i >= 0 {
		if j := strings.IndexByte(s[i:], '>'); j >= 0 {
			s = "teammate " + attr(s[i:i+j], "teammate_id") + ": " + s[i+j+1:]
		}
	}
	return oneLine(strings.ReplaceAll(s, "</teammate-message>", ""))
}

// attr returns the value of name="…" in an opening tag.
func attr(tag, name string) string {
	_, rest, ok := strings.Cut(tag, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func stem(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}
