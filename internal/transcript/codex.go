package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/tidwall/gjson"
)

// codex reads Codex CLI rollouts: <path>/YYYY/MM/DD/rollout-*.jsonl, and the flat and archived
// layouts (any rollout-*.jsonl below path). The session id and cwd live only in the head
// (session_meta), so they travel in the Cursor for incremental reads.
type codex struct{}

func (codex) Kind() string { return "codex" }

func (codex) Discover(src Source) ([]File, []Skipped, error) {
	return discover("codex", src, func(rel, _ string) (bool, string) {
		base := rel[strings.LastIndexByte(rel, '/')+1:]
		switch {
		case !strings.HasSuffix(base, ".jsonl"):
			return false, ""
		case !strings.HasPrefix(base, "rollout-"):
			return false, "not a rollout-*.jsonl file"
		}
		return true, ""
	})
}

func (codex) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "codex"
	// A subagent thread is only known from the head, so a read from the middle looks there again.
	subagent := false
	if from.Offset > 0 {
		var err error
		if subagent, err = codexSubagent(f); err != nil {
			return Reading{}, err
		}
	}
	return readLines(f, from, func(from Cursor) lineState {
		s := newCodexState(f, from)
		s.subagent = subagent && from.Offset > 0
		return s
	})
}

// ErrSubThread marks a transcript that is a thread another agent spawned (a Codex subagent or
// review thread, a Gemini CLI sub-agent session): its prompts are the agent's, not the person's,
// so it is not a session. Peek returns it wrapped with what the records said: test it with
// errors.Is.
var ErrSubThread = errors.New("a sub-thread spawned by another agent")

var errCodexSubThread = fmt.Errorf("%w (session_meta.source names a subagent), left out like Claude Code's sidechains", ErrSubThread)

func (codex) peek(f File) (string, string, error) {
	f.Kind = "codex"
	s := newCodexState(f, Cursor{})
	id, project, err := peekLines(f, s)
	if err == nil && s.subagent {
		return id, project, errCodexSubThread
	}
	return id, project, err
}

type codexState struct {
	*parse
	// subagent marks a thread spawned by another agent: its prompts are the agent's and its
	// head repeats the parent's history, so it is left out, like Claude Code's sidechains.
	subagent bool
	// last are the last user turn, assistant turn and cut record, to recognise their
	// event_msg/response_item twins.
	last [3]spoken
	// said holds a hash of every turn kept, and replay is set by a compaction record: what
	// follows it that was already said (the history the compaction carries over, written again)
	// is left out until the first turn that is new.
	said   map[uint64]bool
	replay bool
	// asked holds the arguments of each request_user_input call by its call_id, until its output
	// (the person's answers) comes (answers.go).
	asked map[string]string
	// cwd is the directory of the turn under way (turn_context, else session_meta), where Codex
	// runs a shell call that names no workdir, and against which it resolves one that is relative.
	cwd string
	// calls follows shell calls whose process was still running when they returned
	// (codex_running.go).
	calls codexCalls
}

// spoken is a kept user or assistant turn, remembered to recognise its twin.
type spoken struct {
	text    string
	event   bool // came from an event_msg rather than a response_item
	matched bool // its twin was already dropped
}

func newCodexState(f File, from Cursor) *codexState {
	return &codexState{parse: newParse(f, from, codexFallbackID(f.Path))}
}

// codexFallbackID is the session uuid that ends a rollout's file name, else the file stem.
func codexFallbackID(path string) string {
	s := stem(path)
	if n := len(s); n > 36 && s[n-37] == '-' && strings.Count(s[n-36:], "-") == 4 {
		return s[n-36:]
	}
	return s
}

// codexTurn is a turn and where it came from.
type codexTurn struct {
	Turn
	event bool
	// cut marks a user record that holds only context Codex injected (AGENTS.md, the
	// environment): no turn, but counted as cut. Its Text is the record's text, to know its twin.
	cut bool
}

func (s *codexState) line(b []byte, no int64) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if b[0] != '{' {
		s.warn(no, "not a JSON object, line skipped")
		return
	}
	line := view(b)
	// One pass: the payload's members are collected while the line is scanned.
	var rec, payload codexItem
	var ts time.Time
	end := members(line, 0, func(key string, v int) int {
		if key == "payload" && line[v] == '{' {
			return payload.scan(line, v)
		}
		end := skipValue(line, v)
		if end >= 0 && key == "timestamp" {
			ts = parseTime(gjson.Parse(line[v:end]))
		} else if end >= 0 {
			rec.set(key, line[v:end])
		}
		return end
	})
	if end < 0 {
		s.warn(no, "malformed JSON, line skipped")
		return
	}
	var turns []codexTurn
	switch rec.typ {
	case "session_meta":
		s.learn(jsonString(payload.id), jsonString(payload.cwd))
		s.shellCwd(payload.cwd)
		s.subagent = s.subagent || member(payload.source, "subagent") != ""
	case "turn_context":
		s.learn("", jsonString(payload.cwd))
		s.shellCwd(payload.cwd)
	case "response_item":
		turns = s.withDir(codexItemTurns(payload), payload)
		turns = append(turns, s.answered(payload)...)
	case "event_msg":
		turns = codexEventTurns(payload)
	case "compacted":
		// A summary of material already read, and the history it keeps, which may follow it
		// again as items: that is left out (see say).
		s.replay = len(s.said) > 0
	case "message", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "local_shell_call":
		turns = s.withDir(codexItemTurns(rec), rec) // early rollouts: items at the top level
	case "":
		s.learn(jsonString(rec.id), "") // early rollouts: a bare {"id", "timestamp"} head
	}
	if s.subagent {
		return
	}
	s.learnEnvironment(turns)
	item := payload
	if rec.typ != "response_item" {
		item = rec
	}
	before := s.turnCount()
	if len(turns) > 0 && s.valid(no, line) {
		for _, t := range turns {
			t.Time = ts
			s.say(t)
		}
	}
	s.track(item, before)
}

// environmentCwd is the directory of the <environment_context> Codex injects into a user message.
var environmentCwd = lazyre.New(`<environment_context>[\s\S]*?<cwd>([^<\n]+)</cwd>`)

// learnEnvironment takes the session's directory from the environment Codex injected, when no
// head named it: early rollouts (mid-2025: a bare {"id", "timestamp", "instructions"} head, then
// items at the top level) say where the session ran only there.
func (s *codexState) learnEnvironment(turns []codexTurn) {
	if s.project != "" {
		return
	}
	for _, t := range turns {
		if !t.cut || t.Role != User {
			continue
		}
		if m := environmentCwd.FindStringSubmatch(t.Text); m != nil {
			cwd := strings.TrimSpace(m[1])
			s.learn("", cwd)
			if s.cwd == "" {
				s.cwd = strings.Clone(cwd)
			}
			return
		}
	}
}

// turnCount is how many turns the session being read holds.
func (s *codexState) turnCount() int {
	if s.cur == nil {
		return 0
	}
	return len(s.cur.Turns)
}

// shellCwd records the turn's directory from a raw cwd member.
func (s *codexState) shellCwd(raw string) {
	if cwd := jsonString(raw); cwd != "" && cwd != s.cwd {
		s.cwd = strings.Clone(cwd)
	}
}

// withDir sets where the shell call of a function_call or local_shell_call item ran: its workdir,
// resolved against the turn's cwd, or the turn's cwd when it names none.
func (s *codexState) withDir(turns []codexTurn, it codexItem) []codexTurn {
	var input string
	switch it.typ {
	case "function_call":
		input = argsInput(it.arguments)
	case "local_shell_call":
		input = it.action
	default:
		return turns
	}
	for i := range turns {
		if turns[i].Role == Tool && !turns[i].IsError {
			turns[i].Dir = resolveDir(shellDir(input, s.cwd), s.cwd)
		}
	}
	return turns
}

// say adds a turn, or counts a record cut, unless it is the twin of the previous one of its kind:
// Codex records what was said both as an event_msg and as a response_item.
func (s *codexState) say(t codexTurn) {
	if t.Role == Tool {
		if !s.repeated(t) {
			s.add(t.Turn)
		}
		return
	}
	t.Text = clip(t.Text, textCap(t.Turn))
	last := &s.last[0]
	switch {
	case t.cut:
		last = &s.last[2]
	case t.Role == Assistant:
		last = &s.last[1]
	}
	if t.Text == last.text && t.event != last.event && !last.matched {
		last.matched = true
		return
	}
	*last = spoken{text: t.Text, event: t.event}
	switch {
	case t.cut:
		s.drop()
	case s.repeated(t):
		if t.Role == User {
			s.drop()
		}
	default:
		s.add(t.Turn)
	}
}

// repeated reports whether a turn repeats, after a compaction, one already kept; it remembers
// the turn otherwise. The replay is of response items: an event_msg is what happened now, and
// it, like the first new user or assistant item, ends the replay.
func (s *codexState) repeated(t codexTurn) bool {
	h := maphash.String(turnSeed, string(t.Role)+"\x00"+clip(t.Text, textCap(t.Turn)))
	if s.replay && !t.event && s.said[h] {
		return true
	}
	if t.Role != Tool || t.event {
		s.replay = false
	}
	if s.said == nil {
		s.said = map[uint64]bool{}
	}
	s.said[h] = true
	return false
}

// turnSeed hashes turn texts to recognise a replay.
var turnSeed = maphash.MakeSeed()

// codexItem holds the members a record or its payload is judged by, as raw JSON (typ and role
// decoded), so that only what is kept is ever decoded.
type codexItem struct {
	typ, role, content, name, arguments, input, action, output, message string
	id, cwd, source                                                     string
	callID                                                              string
}

func (it *codexItem) set(key, value string) {
	switch key {
	case "type":
		it.typ = jsonString(value)
	case "role":
		it.role = jsonString(value)
	case "content":
		it.content = value
	case "name":
		it.name = value
	case "arguments":
		it.arguments = value
	case "input":
		it.input = value
	case "action":
		it.action = value
	case "output":
		it.output = value
	case "message":
		it.message = value
	case "id":
		it.id = value
	case "cwd":
		it.cwd = value
	case "source":
		it.source = value
	case "call_id":
		it.callID = value
	}
}

// scan collects the members of the object at s[i] and returns the index just past it.
func (it *codexItem) scan(s string, i int) int {
	return members(s, i, func(key string, v int) int {
		end := skipValue(s, v)
		if end >= 0 {
			it.set(key, s[v:end])
		}
		return end
	})
}

// call is the item's call_id, copied out of the line it points into: which call an output answers.
func (it codexItem) call() string { return strings.Clone(jsonString(it.callID)) }

// codexItemTurns maps a response item. Most items (reasoning, tool output) are left out, and
// their bulk is never decoded.
func codexItemTurns(it codexItem) []codexTurn {
	var t Turn
	switch it.typ {
	case "message":
		switch it.role {
		case "user":
			text, raw := codexUserText(it.content)
			if text == "" && raw != "" {
				return []codexTurn{{Turn: Turn{Role: User, Text: raw}, cut: true}}
			}
			t = Turn{Role: User, Text: text}
		case "assistant":
			t = Turn{Role: Assistant, Text: partsText(it.content, 2*maxAssistantText)}
		}
	case "function_call":
		t = Turn{Role: Tool, Text: toolLine(jsonString(it.name), argsText(it.arguments)), Call: it.call()}
	case "custom_tool_call":
		t = Turn{Role: Tool, Text: customToolLine(jsonString(it.name), jsonPrefix(it.input, 64<<10)), Call: it.call()}
	case "local_shell_call":
		t = Turn{Role: Tool, Text: toolLine("shell", toolArg(it.action)), Call: it.call()}
	case "web_search_call":
		t = Turn{Role: Tool, Text: toolLine("web_search", toolArg(it.action))}
	case "function_call_output", "custom_tool_call_output":
		if text, failed := codexFailure(it.output); failed {
			t = Turn{Role: Tool, Text: text, IsError: true, Call: it.call()}
		}
	}
	if t.Text == "" {
		return nil
	}
	return []codexTurn{{Turn: t}}
}

func codexEventTurns(ev codexItem) []codexTurn {
	var t Turn
	switch ev.typ {
	case "user_message":
		raw := strings.TrimSpace(jsonPrefix(ev.message, 16*maxUserText))
		t = Turn{Role: User, Text: codexInjectedFree(raw)}
		if t.Text == "" && raw != "" {
			return []codexTurn{{Turn: Turn{Role: User, Text: raw}, event: true, cut: true}}
		}
	case "agent_message":
		t = Turn{Role: Assistant, Text: jsonPrefix(ev.message, 2*maxAssistantText)}
	}
	if t.Text == "" {
		return nil
	}
	return []codexTurn{{Turn: t, event: true}}
}

// Context Codex injects as user messages: not the person's words. A record that starts with one
// of these prefixes and holds nothing else is cut whole.
var codexInjectedPrefixes = []string{"<permissions instructions>"}

// codexShellCommand wraps a command the person ran with "!" in Codex's composer, and its result:
// the command is theirs (it says how the project is run), kept as "!command"; its output is not.
const codexShellCommand = "<user_shell_command>"

// codexInjectedTags are blocks of context that Codex, or an editor client driving it, puts in a
// user message: AGENTS.md ("# AGENTS.md instructions for <dir>" then an <INSTRUCTIONS> block),
// the environment, user instructions, a sub-agent's result (Codex 0.171's multi-agent tools
// report a finished sub-agent as a user message). An editor client may put them in front of the person's first
// message, in the same text: the blocks are cut out and what follows them is kept.
var codexInjectedTags = []string{
	"environment_context", "user_instructions", "INSTRUCTIONS", "permissions instructions", "turn_aborted",
	"local-command-caveat", "subagent_notification",
}

// codexUserText joins the input_text items of a user message that the person typed. raw is all
// the message's text, injected context included: when only text is empty, the message was
// nothing but injected context.
func codexUserText(content string) (text, raw string) {
	if strings.HasPrefix(content, `"`) {
		raw = strings.TrimSpace(jsonPrefix(content, 16*maxUserText))
		return codexInjectedFree(raw), raw
	}
	var texts, raws []string
	eachElement(content, func(item string) bool {
		r := strings.TrimSpace(jsonPrefix(member(item, "text"), 16*maxUserText))
		if r != "" {
			raws = append(raws, r)
		}
		if text := codexInjectedFree(r); text != "" {
			texts = append(texts, text)
		}
		return true
	})
	return strings.Join(texts, "\n"), strings.Join(raws, "\n")
}

// codexInjectedFree returns text without injected context, and without the prompt file a
// custom prompt expands into; "" when it is nothing else.
func codexInjectedFree(text string) string {
	text = strings.TrimSpace(prefix(text, 16*maxUserText))
	for _, p := range codexInjectedPrefixes {
		if strings.HasPrefix(text, p) {
			return ""
		}
	}
	if strings.HasPrefix(text, codexShellCommand) {
		if cmd := tagText(text, "command"); cmd != "" {
			return "!" + cmd
		}
		return ""
	}
	if strings.HasPrefix(text, codexSummaryPrefix) || strings.HasPrefix(text, codexBridgePrefix) {
		return "" // a compaction's summary or its bridge: the model's account of earlier turns
	}
	return promptFree(ideRequest(injectedFree(text, codexInjectedTags)))
}

// Codex's compaction puts its summary in the history as a user message, after this prefix (and,
// in early versions, a bridge that repeats the person's earlier messages).
const (
	codexSummaryPrefix = "Another language model started to solve this problem and produced a summary"
	codexBridgePrefix  = "You were originally given instructions from a user over one or more turns."
)

// customToolLine summarises a freeform tool call; for apply_patch, the files it touches.
func customToolLine(name, input string) string {
	if name == "apply_patch" {
		var files []string
		for _, line := range strings.Split(prefix(input, 64<<10), "\n") {
			for _, op := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: "} {
				if f, ok := strings.CutPrefix(line, op); ok {
					files = append(files, strings.TrimSpace(f))
				}
			}
		}
		if len(files) > 0 {
			return name + ": " + strings.Join(files, ", ")
		}
	}
	first, _, _ := strings.Cut(strings.TrimSpace(prefix(input, 2*maxToolLine)), "\n")
	return toolLine(name, first)
}

// codexFailure reports whether a raw tool output says the call failed, a non-zero exit code or
// an explicit success=false, and then returns its start. Outputs that did not fail are not
// decoded beyond their head.
func codexFailure(out string) (string, bool) {
	out = strings.TrimSpace(out)
	switch {
	case strings.HasPrefix(out, "{"):
		if member(out, "success") != "false" {
			return "", false
		}
		return partsText(member(out, "content"), 2*maxToolError), true
	case strings.HasPrefix(out, "["):
		// Newer rollouts may give the output as content items: the exec header is in the first.
		first := codexFirstItem(out)
		if first == "" {
			return "", false
		}
		return codexExecFailure(first)
	case !strings.HasPrefix(out, `"`):
		return "", false
	}
	if strings.HasPrefix(jsonPrefix(out, 64), `{"output"`) {
		// Older rollouts wrap the output: {"output": "...", "metadata": {"exit_code": 1}}.
		if wrappedExitCode(out) == 0 {
			return "", false
		}
		return prefix(gjson.Get(jsonString(out), "output").Str, 2*maxToolError), true
	}
	return codexExecFailure(out)
}

// codexExecHeader is how many bytes of an exec output hold its header lines.
const codexExecHeader = 512

// codexExecFailure reads the header Codex puts before a command's output, as a raw JSON string,
// and reports a non-zero exit code with the output that follows. Two forms are known:
//
//	Exit code: 2                     (shell tool, up to 0.5x)
//	Wall time: 0.3 seconds
//	Output:
//
//	Chunk ID: 3fa9                   (exec_command, unified exec, 0.6x and later; 0.171 too)
//	Wall time: 4.2 seconds
//	Process exited with code 2
//	Original token count: 58
//	Output:
//
// A command still running ("Process running with session ID 7") has not failed.
func codexExecFailure(raw string) (string, bool) {
	head := jsonPrefix(raw, codexExecHeader)
	code, ok := 0, false
	for line := range strings.Lines(head) {
		line = strings.TrimSpace(line)
		if line == "Output:" {
			break
		}
		for _, label := range []string{"Exit code: ", "Process exited with code "} {
			if rest, found := strings.CutPrefix(line, label); found {
				n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), "."))
				code, ok = n, err == nil
			}
		}
		if ok {
			break
		}
	}
	if !ok || code == 0 {
		return "", false
	}
	return codexFailureText(jsonPrefix(raw, codexExecHeader+2*maxToolError), code), true
}

// codexFailureText keeps what says why a command failed: its exit code and its output, without
// the bookkeeping lines (chunk id, wall time, token count) that would take the error's room.
func codexFailureText(text string, code int) string {
	head, body, found := strings.Cut(text, "\nOutput:\n")
	if !found {
		head, body = text, ""
	}
	if strings.HasPrefix(head, "Exit code: ") {
		return text // the older form: kept as it always was
	}
	return strings.TrimSpace(fmt.Sprintf("Process exited with code %d\n%s", code, body))
}

// wrappedExitCode finds metadata.exit_code in a wrapped output without decoding it: in the raw
// string the key appears escaped, as \"exit_code\":.
func wrappedExitCode(raw string) int {
	const key = `\"exit_code\":`
	i := strings.LastIndex(raw, key)
	if i < 0 {
		return 0
	}
	rest := strings.TrimLeft(raw[i+len(key):], " ")
	end := 0
	for end < len(rest) && (rest[end] == '-' || rest[end] >= '0' && rest[end] <= '9') {
		end++
	}
	code, _ := strconv.Atoi(rest[:end])
	return code
}

// codexSubagent reports whether the rollout's head names it a subagent thread.
func codexSubagent(f File) (bool, error) {
	head := newCodexState(f, Cursor{})
	err := firstLine(f, head)
	return head.subagent, err
}

// answered keeps a request_user_input call's questions and, at its output, returns the person's
// answers as a user turn (codexAnswers).
func (s *codexState) answered(it codexItem) []codexTurn {
	switch it.typ {
	case "function_call":
		if jsonString(it.name) == "request_user_input" {
			if s.asked == nil {
				s.asked = map[string]string{}
			}
			s.asked[it.callID] = it.arguments
		}
	case "function_call_output":
		args, ok := s.asked[it.callID]
		if !ok {
			return nil
		}
		delete(s.asked, it.callID)
		if text := codexAnswers(args, it.output); text != "" {
			return []codexTurn{{Turn: Turn{Role: User, Text: text}}}
		}
	}
	return nil
}
