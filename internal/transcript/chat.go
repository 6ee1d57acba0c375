package transcript

import (
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// chat reads OpenAI-style conversations, [{"role", "content"}, …]: a .json file holding the
// array (or an object with a "messages" array), re-read whole when it changes, or a .jsonl file
// with one message a line (a line holding a "messages" array is taken in order too). Each file
// is one session of the source's configured project; system messages are left out.
type chat struct{}

func (chat) Kind() string { return "chat" }

func (chat) Discover(src Source) ([]File, []Skipped, error) {
	return discover("chat", src, func(rel, _ string) (bool, string) {
		return strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, ".jsonl"), ""
	})
}

func (chat) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "chat"
	if clineTask(f) {
		return readDoc(f, from, parseClineDoc)
	}
	if wholeDocument(f) {
		return readDoc(f, from, parseChatDoc)
	}
	return readLines(f, from, func(from Cursor) lineState {
		return &chatState{parse: newParse(f, from, stem(f.Path))}
	})
}

func (chat) peek(f File) (string, string, error) {
	if clineTask(f) {
		return filepath.Base(filepath.Dir(f.Path)), f.Project, nil
	}
	return stem(f.Path), f.Project, nil
}

// clineTask reports a Cline task's history under a chat source: it is read as the cline kind
// reads it (only the typed words are the person's, the task's own times), for every "user"
// message of a task holds what Cline injected and tool results.
func clineTask(f File) bool {
	return filepath.Base(f.Path) == clineTaskHistory
}

type chatState struct{ *parse }

func (s *chatState) line(b []byte, no int64) {
	if r, ok := s.record(b, no); ok {
		chatMessages(s.parse, r)
	}
}

func parseChatDoc(p *parse, doc string) {
	if !gjson.Valid(doc) {
		p.warn(0, "malformed JSON, file skipped")
		return
	}
	r := gjson.Parse(doc)
	if !r.IsArray() && !r.Get("messages").IsArray() {
		p.warn(0, "neither an array of messages nor an object with one, file skipped")
		return
	}
	chatMessages(p, r)
}

// chatMessages adds one message, or each message of an array or of a "messages" array.
func chatMessages(p *parse, r gjson.Result) {
	if msgs := r.Get("messages"); r.IsObject() && msgs.IsArray() {
		r = msgs
	}
	if !r.IsArray() {
		chatMessage(p, r)
		return
	}
	r.ForEach(func(_, m gjson.Result) bool {
		chatMessage(p, m)
		return true
	})
}

// chatMessage maps user → User, assistant → Assistant plus a line per tool call; system,
// developer and tool messages are left out.
func chatMessage(p *parse, m gjson.Result) {
	ts := parseTime(m.Get("timestamp"))
	if ts.IsZero() {
		ts = parseTime(m.Get("created_at"))
	}
	switch m.Get("role").Str {
	case "user":
		raw := partsText(m.Get("content").Raw, 16*maxUserText)
		text := chatUserText(raw)
		if text == "" && strings.TrimSpace(raw) != "" {
			p.drop()
			return
		}
		p.add(Turn{Role: User, Text: text, Time: ts})
	case "assistant":
		p.add(Turn{Role: Assistant, Text: partsText(m.Get("content").Raw, 2*maxAssistantText), Time: ts})
		m.Get("tool_calls").ForEach(func(_, call gjson.Result) bool {
			fn := call.Get("function")
			t := callTurn(fn.Get("name").Str, fn.Get("arguments").Raw)
			t.Time = ts
			p.add(t)
			return true
		})
		if fn := m.Get("function_call"); fn.IsObject() {
			t := callTurn(fn.Get("name").Str, fn.Get("arguments").Raw)
			t.Time = ts
			p.add(t)
		}
	}
}

// Blocks an editor client puts in the user messages it sends (the workspace, the open files, the
// AGENTS.md of Codex-style clients): not the person's words.
var chatInjectedTags = []string{
	"environment_details", "environment_context", "INSTRUCTIONS", "user_instructions", "system-reminder",
}

// chatUserText keeps the person's words of a user message: injected blocks are cut, the <task>
// wrapper some clients put around the first request is taken off, and a prompt file keeps only
// what the person typed (see promptFree).
func chatUserText(s string) string {
	s = injectedFree(strings.TrimSpace(s), chatInjectedTags)
	if strings.Contains(s, "<task>") {
		s = strings.TrimSpace(unwrapTags(s, "task"))
	}
	return promptFree(ideRequest(s))
}
