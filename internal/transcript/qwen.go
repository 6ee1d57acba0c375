package transcript

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// qwen reads Qwen Code chats: <path>/<project slug>/chats/<session id>.jsonl, one record a line in
// Claude Code's envelope (uuid, parentUuid, sessionId, timestamp, type, cwd) around a Gemini-style
// message ({"role", "parts": [{"text"}, {"functionCall"}, {"functionResponse"}]}). A resumed
// session appends to its file.
//
// Qwen Code marks who wrote a record: "provenance": "real_user" is what the person typed, and a
// user record it made itself (a sub-agent's notification, a cron prompt, a goal's runtime message)
// carries "provenance": "system" and a subtype. A sub-agent's transcript is a file of its own under
// <project slug>/subagents/<parent session>/, which discovery passes over; its records are
// "isSidechain": true. Qwen Code's own memory (<project slug>/memory/) is not a transcript.
type qwen struct{}

var errQwenSubThread = fmt.Errorf("%w (a Qwen Code sub-agent transcript, \"isSidechain\": true), left out like Claude Code's sidechains", ErrSubThread)

// Qwen Code's record types and the subtypes of a user record the person typed.
const (
	qwenUser       = "user"
	qwenAssistant  = "assistant"
	qwenToolResult = "tool_result"
	qwenRealUser   = "real_user"
	// qwenMidTurn is a message the person typed while the agent was busy, handed to the model
	// with the tool results.
	qwenMidTurn = "mid_turn_user_message"
)

// Blocks Qwen Code adds to the text of the person's message: reminders, and the context a
// UserPromptSubmit hook returned.
var qwenInjectedTags = []string{"system-reminder", "qwen:user-prompt-submit-context"}

// qwenReferenced start the content Qwen Code appends to a message that names files (@path) or MCP
// resources: what the person typed comes before.
var qwenReferenced = []string{"--- Content from referenced files ---", "--- Content from MCP resource "}

func (qwen) Kind() string { return "qwen" }

func (qwen) Discover(src Source) ([]File, []Skipped, error) {
	return discover("qwen", src, qwenFile)
}

// qwenFile classifies a file under a Qwen Code source: <slug>/chats/<session>.jsonl.
func qwenFile(rel, _ string) (bool, string) {
	if !strings.HasSuffix(rel, ".jsonl") {
		return false, ""
	}
	dirs := strings.Split(rel, "/")
	switch {
	case len(dirs) >= 3 && dirs[len(dirs)-3] == "subagents":
		return false, "Qwen Code sub-agent transcript (under <project>/subagents/)"
	case len(dirs) >= 2 && dirs[len(dirs)-2] == "chats":
		return true, ""
	case len(dirs) == 1:
		return true, "" // a source naming one project's chats folder
	}
	return false, ""
}

func (qwen) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "qwen"
	return readLines(f, from, func(from Cursor) lineState { return newQwenState(f, from) })
}

func (qwen) peek(f File) (string, string, error) {
	f.Kind = "qwen"
	s := newQwenState(f, Cursor{})
	id, project, err := peekLines(f, s)
	if err == nil && s.sidechain {
		return id, project, errQwenSubThread
	}
	return id, project, err
}

type qwenState struct {
	*parse
	sidechain bool // a record was a sub-agent's: the file is a sub-agent transcript
}

func newQwenState(f File, from Cursor) *qwenState {
	return &qwenState{parse: newParse(f, from, stem(f.Path))}
}

func (s *qwenState) line(b []byte, no int64) {
	r, ok := s.record(b, no)
	if !ok {
		return
	}
	s.learn(r.Get("sessionId").Str, r.Get("cwd").Str)
	if r.Get("isSidechain").Bool() {
		s.sidechain = true
		return
	}
	turns, cut := qwenTurns(r)
	if cut {
		s.drop()
	}
	ts := parseTime(r.Get("timestamp"))
	for _, t := range turns {
		t.Time = ts
		s.add(t)
	}
}

// qwenTurns maps one record: the person's message → User; the model's → Assistant and a line per
// tool call (thoughts left out); a failed tool → a Tool error. A user record that is not the
// person's words — a notification, a cron or goal prompt, a message holding only a tool's
// response — gives no turn and reports cut. System records (telemetry, compression summaries,
// slash command output) give nothing.
func qwenTurns(r gjson.Result) (turns []Turn, cut bool) {
	subtype := r.Get("subtype").Str
	switch r.Get("type").Str {
	case qwenUser:
		provenance := r.Get("provenance").Str
		if provenance != "" && provenance != qwenRealUser || subtype != "" && subtype != qwenMidTurn {
			return nil, true
		}
		text := qwenTyped(r)
		if text == "" {
			return nil, true
		}
		return []Turn{{Role: User, Text: text}}, false
	case qwenAssistant:
		if subtype != "" {
			return nil, false
		}
		var texts []string
		r.Get("message.parts").ForEach(func(_, part gjson.Result) bool {
			if call := part.Get("functionCall"); call.IsObject() {
				turns = assistantTurn(turns, texts)
				texts = texts[:0]
				turns = append(turns, Turn{Role: Tool, Text: toolLine(call.Get("name").Str, toolArg(call.Get("args").Raw)), Dir: toolDir(call.Get("args").Raw)})
			} else if t := part.Get("text"); t.Type == gjson.String && !part.Get("thought").Bool() {
				texts = append(texts, prefix(t.Str, 2*maxAssistantText))
			}
			return true
		})
		return assistantTurn(turns, texts), false
	case qwenToolResult:
		if answers := qwenAnswers(r); answers != "" { // answers.go
			return []Turn{{Role: User, Text: answers}}, false
		}
		if qwenFailed(r) {
			return []Turn{{Role: Tool, Text: qwenToolError(r), IsError: true}}, false
		}
	}
	return nil, false
}

// qwenTyped is what the person typed of a user record: the text Qwen Code displayed for it when it
// kept one (a message a hook added context to), else the text of its parts without the reminders,
// hook context and referenced files Qwen Code added. "" when there is none.
func qwenTyped(r gjson.Result) string {
	if d := r.Get("systemPayload.displayText"); d.Type == gjson.String {
		return strings.TrimSpace(prefix(d.Str, 16*maxUserText))
	}
	var texts []string
	size := 0
	r.Get("message.parts").ForEach(func(_, part gjson.Result) bool {
		if t := part.Get("text"); t.Type == gjson.String && !part.Get("thought").Bool() {
			texts = append(texts, prefix(t.Str, 16*maxUserText-size))
			size += len(texts[len(texts)-1]) + 1
		}
		return size < 16*maxUserText
	})
	text := strings.Join(texts, "\n")
	for _, marker := range qwenReferenced {
		if i := strings.Index(text, marker); i == 0 || i > 0 && text[i-1] == '\n' {
			text = text[:i]
		}
	}
	return promptFree(injectedFree(strings.TrimSpace(text), qwenInjectedTags))
}

// qwenFailed reports whether a tool result is a failure: an error status, or a shell command that
// exited non-zero.
func qwenFailed(r gjson.Result) bool {
	result := r.Get("toolCallResult")
	if result.Get("status").Str == "error" {
		return true
	}
	code := result.Get("resultDisplay.exitCode")
	return code.Type == gjson.Number && code.Int() != 0
}

// qwenToolError is what a failed tool reported: the shell's output, else the error shown, else a
// silent shell command's exit code, else the error given to the model.
func qwenToolError(r gjson.Result) string {
	for _, path := range []string{"toolCallResult.resultDisplay.output", "toolCallResult.resultDisplay"} {
		if v := r.Get(path); v.Type == gjson.String && strings.TrimSpace(v.Str) != "" {
			return prefix(v.Str, 2*maxToolError)
		}
	}
	if code := r.Get("toolCallResult.resultDisplay.exitCode"); code.Type == gjson.Number && code.Int() != 0 {
		return "exited with code " + code.Raw // a shell command that printed nothing
	}
	for _, path := range []string{"message.parts.0.functionResponse.response.error", "toolCallResult.resultDisplay.text"} {
		if v := r.Get(path); v.Type == gjson.String && strings.TrimSpace(v.Str) != "" {
			return prefix(v.Str, 2*maxToolError)
		}
	}
	if name := r.Get("message.parts.0.functionResponse.name").Str; name != "" {
		return name + " failed"
	}
	return "tool call failed"
}
