package transcript

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

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
	// A subagent thread is only known from the head, so a read from the middle looks there again.
	subagent := false
	if from.Offset > 0 {
		var err error
		if subagent, err = codexSubagent(f.Path); err != nil {
			return Reading{}, err
		}
	}
	return readLines(f, from, func(from Cursor) lineState {
		s := newCodexState(f, from)
		s.subagent = subagent && from.Offset > 0
		return s
	})
}

func (codex) peek(f File) (string, string, error) {
	return peekLines(f, newCodexState(f, Cursor{}))
}

type codexState struct {
	*parse
	// subagent marks a thread spawned by another agent: its prompts are the agent's and its
	// head repeats the parent's history, so it is left out, like Claude Code's sidechains.
	subagent bool
	last     [2]spoken // the last user and assistant turn, to drop event_msg/response_item twins
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
	var typ string
	var ts time.Time
	var payload, id string
	ok := eachMember(line, func(key, value string) bool {
		switch key {
		case "type":
			typ = jsonString(value)
		case "timestamp":
			ts = parseTime(gjson.Parse(value))
		case "payload":
			payload = value
		case "id":
			id = value
		}
		return true
	})
	if !ok {
		s.warn(no, "malformed JSON, line skipped")
		return
	}
	var turns []codexTurn
	switch typ {
	case "session_meta":
		meta := gjson.Parse(payload)
		s.learn(meta.Get("id").Str, meta.Get("cwd").Str)
		s.subagent = s.subagent || meta.Get("source.subagent").Exists()
	case "turn_context":
		s.learn("", jsonString(member(payload, "cwd")))
	case "response_item":
		turns = codexItemTurns(payload)
	case "event_msg":
		turns = codexEventTurns(payload)
	case "compacted":
		// A summary of material already read.
	case "message", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "local_shell_call":
		turns = codexItemTurns(line) // early rollouts: items at the top level
	case "":
		s.learn(jsonString(id), "") // early rollouts: a bare {"id", "timestamp"} head
	}
	if len(turns) == 0 || s.subagent || !s.valid(no, line) {
		return
	}
	for _, t := range turns {
		t.Time = ts
		s.say(t)
	}
}

// say adds a turn unless it is the twin of the previous one of its role: Codex records what was
// said both as an event_msg and as a response_item.
func (s *codexState) say(t codexTurn) {
	if t.Role == Tool {
		s.add(t.Turn)
		return
	}
	t.Text = clip(t.Text, textCap(t.Turn))
	last := &s.last[0]
	if t.Role == Assistant {
		last = &s.last[1]
	}
	if t.Text == last.text && t.event != last.event && !last.matched {
		last.matched = true
		return
	}
	*last = spoken{text: t.Text, event: t.event}
	s.add(t.Turn)
}

// codexItemTurns maps a response item. Its type is skimmed first: most items (reasoning, tool
// output) are left out without being decoded.
func codexItemTurns(raw string) []codexTurn {
	var t Turn
	typ := jsonString(member(raw, "type"))
	if typ == "reasoning" || typ == "" {
		return nil
	}
	item := gjson.Parse(raw)
	switch typ {
	case "message":
		switch item.Get("role").Str {
		case "user":
			t = Turn{Role: User, Text: codexUserText(item.Get("content"))}
		case "assistant":
			t = Turn{Role: Assistant, Text: partsText(item.Get("content").Raw, 2*maxAssistantText)}
		}
	case "function_call":
		t = Turn{Role: Tool, Text: toolLine(item.Get("name").Str, argsText(item.Get("arguments").Raw))}
	case "custom_tool_call":
		t = Turn{Role: Tool, Text: customToolLine(item.Get("name").Str, item.Get("input").Str)}
	case "local_shell_call":
		t = Turn{Role: Tool, Text: toolLine("shell", toolArg(item.Get("action").Raw))}
	case "web_search_call":
		t = Turn{Role: Tool, Text: toolLine("web_search", toolArg(item.Get("action").Raw))}
	case "function_call_output", "custom_tool_call_output":
		if text, failed := codexFailure(item.Get("output")); failed {
			t = Turn{Role: Tool, Text: text, IsError: true}
		}
	}
	if t.Text == "" {
		return nil
	}
	return []codexTurn{{Turn: t}}
}

func codexEventTurns(raw string) []codexTurn {
	var t Turn
	typ := jsonString(member(raw, "type"))
	if typ != "user_message" && typ != "agent_message" {
		return nil
	}
	ev := gjson.Parse(raw)
	switch typ {
	case "user_message":
		t = Turn{Role: User, Text: codexInjectedFree(ev.Get("message").Str)}
	case "agent_message":
		t = Turn{Role: Assistant, Text: prefix(ev.Get("message").Str, 2*maxAssistantText)}
	}
	if t.Text == "" {
		return nil
	}
	return []codexTurn{{Turn: t, event: true}}
}

// Context Codex injects as user messages: not the person's words.
var codexInjectedPrefixes = []string{
	"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<INSTRUCTIONS>",
	"<permissions instructions>", "<user_shell_command>", "<turn_aborted>",
}

var codexInjectedTags = []string{"environment_context", "user_instructions", "INSTRUCTIONS"}

// codexUserText joins the input_text items of a user message that the person typed.
func codexUserText(content gjson.Result) string {
	if content.Type == gjson.String {
		return codexInjectedFree(content.Str)
	}
	var texts []string
	content.ForEach(func(_, item gjson.Result) bool {
		if text := codexInjectedFree(item.Get("text").Str); text != "" {
			texts = append(texts, text)
		}
		return true
	})
	return strings.Join(texts, "\n")
}

// codexInjectedFree returns text without injected context; "" when it is nothing else.
func codexInjectedFree(text string) string {
	text = strings.TrimSpace(prefix(text, 16*maxUserText))
	for _, p := range codexInjectedPrefixes {
		if strings.HasPrefix(text, p) {
			return ""
		}
	}
	if strings.Contains(text, "<") {
		for _, tag := range codexInjectedTags {
			text = stripBlocks(text, tag)
		}
	}
	return strings.TrimSpace(text)
}

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

// codexFailure returns the start of a tool output and whether the call failed: a non-zero exit
// code, or an explicit success=false.
func codexFailure(out gjson.Result) (string, bool) {
	var text string
	failed := false
	switch {
	case out.IsObject():
		failed = out.Get("success").Type == gjson.False
		text = partsText(out.Get("content").Raw, 2*maxToolError)
	case out.IsArray():
		text = partsText(out.Raw, 2*maxToolError)
	case out.Type == gjson.String:
		text = out.Str
		if strings.HasPrefix(text, `{"output"`) && gjson.Valid(text) {
			// Older rollouts wrap the output: {"output": "...", "metadata": {"exit_code": 1}}.
			wrapped := gjson.Parse(text)
			failed = wrapped.Get("metadata.exit_code").Int() != 0
			text = wrapped.Get("output").Str
		} else if rest, ok := strings.CutPrefix(text, "Exit code: "); ok {
			digits, _, _ := strings.Cut(rest, "\n")
			code, err := strconv.Atoi(strings.TrimSpace(digits))
			failed = err == nil && code != 0
		}
	}
	return prefix(text, 2*maxToolError), failed
}

// codexSubagent reports whether the rollout's head names it a subagent thread.
func codexSubagent(path string) (bool, error) {
	fh, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	subagent := false
	_, _, err = eachLine(io.LimitReader(fh, peekMaxBytes), func(b []byte) bool {
		head := gjson.ParseBytes(b)
		subagent = head.Get("type").Str == "session_meta" && head.Get("payload.source.subagent").Exists()
		return false
	})
	return subagent, err
}
