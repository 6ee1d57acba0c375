package transcript

import (
	"bytes"
	"os"
	"strings"

	"github.com/tidwall/gjson"
)

// gemini reads Gemini CLI chats: <path>/<project hash>/chats/session-*.jsonl, a metadata line then
// one message a line, with {"$set": {…}} metadata updates and {"$rewindTo": id} rewinds; and the
// older session-*.json files, one object with a messages array, which are re-read whole.
type gemini struct{}

func (gemini) Kind() string { return "gemini" }

func (gemini) Discover(src Source) ([]File, []Skipped, error) {
	return discover("gemini", src, func(rel, real string) (bool, string) {
		dirs := strings.Split(rel, "/")
		base := dirs[len(dirs)-1]
		isJSONL, isJSON := strings.HasSuffix(base, ".jsonl"), strings.HasSuffix(base, ".json")
		switch {
		case !isJSONL && !isJSON:
			return false, ""
		case len(dirs) < 2 || dirs[len(dirs)-2] != "chats" || !strings.HasPrefix(base, "session-"):
			return false, ""
		case isJSON:
			if _, err := os.Stat(real + "l"); err == nil {
				return false, "superseded by " + base + "l"
			}
		}
		return true, ""
	})
}

func (gemini) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "gemini"
	if wholeDocument(f) {
		return readDoc(f, from, parseGeminiDoc)
	}
	return readLines(f, from, func(from Cursor) lineState { return newGeminiState(f, from) })
}

func (gemini) peek(f File) (string, string, error) {
	f.Kind = "gemini"
	if wholeDocument(f) {
		return peekDoc(f, parseGeminiDoc)
	}
	return peekLines(f, newGeminiState(f, Cursor{}))
}

type geminiState struct {
	*parse
	msgs  []geminiMessage // this reading's messages, in order, until finish adds them
	index map[string]int  // message id → position in msgs, for updates and rewinds
}

type geminiMessage struct {
	id    string
	turns []Turn
}

func newGeminiState(f File, from Cursor) *geminiState {
	return &geminiState{parse: newParse(f, from, stem(f.Path)), index: map[string]int{}}
}

func (s *geminiState) line(b []byte, no int64) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	line := view(b)
	if b[0] != '{' || !gjson.Valid(line) {
		s.warn(no, "malformed JSON, line skipped")
		return
	}
	r := gjson.Parse(line)
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
}

// message adds a message, or replaces an earlier one with the same id (an update).
func (s *geminiState) message(m gjson.Result) {
	turns := geminiTurns(m)
	for i := range turns {
		turns[i].Text = clip(turns[i].Text, textCap(turns[i]))
		s.kept += len(turns[i].Text)
	}
	id := m.Get("id").String()
	if i, ok := s.index[id]; ok && id != "" {
		s.msgs[i].turns = turns
		return
	}
	id = strings.Clone(id)
	s.msgs = append(s.msgs, geminiMessage{id: id, turns: turns})
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
	for _, m := range s.msgs {
		for _, t := range m.turns {
			s.add(t)
		}
	}
	s.msgs, s.index = nil, map[string]int{}
}

// parseGeminiDoc reads a legacy session-*.json: one object with the metadata and a messages array.
func parseGeminiDoc(p *parse, doc string) {
	if !gjson.Valid(doc) {
		p.warn(0, "malformed JSON, file skipped")
		return
	}
	r := gjson.Parse(doc)
	p.learn(r.Get("sessionId").Str, r.Get("directories.0").Str)
	r.Get("messages").ForEach(func(_, m gjson.Result) bool {
		for _, t := range geminiTurns(m) {
			p.add(t)
		}
		return true
	})
}

// geminiTurns maps one message: user → User, gemini → Assistant plus a line per tool call,
// info and warning → Tool, error → a Tool error. Thoughts are left out.
func geminiTurns(m gjson.Result) []Turn {
	ts := parseTime(m.Get("timestamp"))
	text := partsText(m.Get("content").Raw, 16*maxUserText)
	var turns []Turn
	switch m.Get("type").Str {
	case "user":
		// @file references are expanded into the message; the person typed what comes before.
		text, _, _ = strings.Cut(prefix(text, 16*maxUserText), "\n--- Content from referenced files ---")
		turns = append(turns, Turn{Role: User, Text: text})
	case "gemini":
		turns = append(turns, Turn{Role: Assistant, Text: prefix(text, 2*maxAssistantText)})
		m.Get("toolCalls").ForEach(func(_, call gjson.Result) bool {
			turns = append(turns, Turn{Role: Tool, Text: toolLine(call.Get("name").Str, toolArg(call.Get("args").Raw))})
			if call.Get("status").Str == "error" {
				turns = append(turns, Turn{Role: Tool, Text: geminiToolError(call), IsError: true})
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
	return kept
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
