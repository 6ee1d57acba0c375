package transcript

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/tidwall/gjson"
)

// copilot reads GitHub Copilot CLI sessions: <path>/<session id>/events.jsonl, one event a line
// ({"type", "data", "id", "timestamp", "parentId"}), beside workspace.yaml (the session's cwd and
// git root); older versions (0.0.3xx) wrote the same events to <path>/<session id>.jsonl. A resumed
// session appends to its file after a session.resume event.
//
// The person's words are the user.message events Copilot CLI itself counts as the person's turns:
// no "source" (or "user") and not an autopilot continuation; a skill's hidden prompt, another
// agent's prompt ("source": "agent-…") and autopilot's are cut. A sub-agent's events are in the
// same file, each carrying its "agentId" (or, before it, its "parentToolCallId"): they are left
// out, its prompt with them. The system.message event holds the whole system prompt, instruction
// files included (dreamd's own linked block among them): it is never read.
type copilot struct{}

// Copilot CLI's event types that hold what dreamd reads.
const (
	copilotStart        = "session.start"
	copilotResume       = "session.resume"
	copilotUserMessage  = "user.message"
	copilotAssistant    = "assistant.message"
	copilotToolComplete = "tool.execution_complete"
	// copilotEvents is the name of a session's event log in its folder.
	copilotEvents = "events.jsonl"
	// copilotWorkspace is the file beside it naming the session's cwd.
	copilotWorkspace = "workspace.yaml"
	// copilotShellNote starts the line Copilot CLI ends a shell command's result with
	// ("<shellId: 0 completed with exit code 2>").
	copilotShellNote = "<shellId: "
)

func (copilot) Kind() string { return "copilot" }

func (copilot) Discover(src Source) ([]File, []Skipped, error) {
	return discover("copilot", src, func(rel, _ string) (bool, string) {
		dirs := strings.Split(rel, "/")
		base := dirs[len(dirs)-1]
		switch {
		case len(dirs) == 1 && strings.HasSuffix(base, ".jsonl"):
			return true, "" // an older Copilot CLI's <session id>.jsonl, or a source naming one file
		case base != copilotEvents:
			return false, ""
		case len(dirs) > 2:
			return false, "not a session's events.jsonl at <session id>/events.jsonl"
		}
		return true, ""
	})
}

func (copilot) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "copilot"
	return readLines(f, from, func(from Cursor) lineState { return newCopilotState(f, from) })
}

func (copilot) peek(f File) (string, string, error) {
	f.Kind = "copilot"
	s := newCopilotState(f, Cursor{})
	id, project, err := peekLines(f, s)
	if err == nil && project == "" {
		learnCopilotWorkspace(s.parse)
		project = s.projectOf()
	}
	return id, project, err
}

type copilotState struct {
	*parse
}

// newCopilotState reads a session whose id, when no event names it, is its folder's name (an
// older Copilot CLI's <session id>.jsonl: its name).
func newCopilotState(f File, from Cursor) *copilotState {
	id := stem(f.Path)
	if filepath.Base(f.Path) == copilotEvents {
		id = filepath.Base(filepath.Dir(f.Path))
	}
	return &copilotState{parse: newParse(f, from, id)}
}

func (s *copilotState) line(b []byte, no int64) {
	r, ok := s.record(b, no)
	if !ok {
		return
	}
	typ := r.Get("type").Str
	switch typ {
	case copilotStart, copilotResume:
		s.learn(r.Get("data.sessionId").Str, r.Get("data.context.cwd").Str)
		return
	case copilotUserMessage, copilotAssistant, copilotToolComplete, copilotHumanResponse:
	default:
		return // system.message (the system prompt) and every other event
	}
	if r.Get("agentId").Exists() || r.Get("data.parentToolCallId").Exists() {
		return // a sub-agent's (versions before agentId marked them by the tool call that started it)
	}
	turns, cut := copilotTurns(typ, r.Get("data"))
	if cut {
		s.drop()
	}
	ts := parseTime(r.Get("timestamp"))
	for _, t := range turns {
		t.Time = ts
		s.add(t)
	}
}

// finish gives a session whose events name no cwd the one its workspace.yaml names.
func (s *copilotState) finish() { learnCopilotWorkspace(s.parse) }

// copilotTurns maps one event of the main agent: the person's message → User (another origin's
// is cut); the assistant's → Assistant and a line per tool request; a tool that failed, or a shell
// command that exited non-zero (which Copilot CLI records as a success), → a Tool error.
func copilotTurns(typ string, data gjson.Result) (turns []Turn, cut bool) {
	switch typ {
	case copilotUserMessage:
		source := data.Get("source").Str
		if source != "" && source != "user" || data.Get("isAutopilotContinuation").Bool() {
			return nil, true
		}
		text := promptFree(strings.TrimSpace(prefix(data.Get("content").Str, 16*maxUserText)))
		if text == "" {
			return nil, true
		}
		return []Turn{{Role: User, Text: text}}, false
	case copilotAssistant:
		turns = assistantTurn(nil, []string{prefix(data.Get("content").Str, 2*maxAssistantText)})
		data.Get("toolRequests").ForEach(func(_, call gjson.Result) bool {
			turns = append(turns, callTurn(call.Get("name").Str, call.Get("arguments").Raw))
			return true
		})
		return turns, false
	case copilotHumanResponse:
		if answers := copilotAnswers(data); answers != "" { // answers.go
			return []Turn{{Role: User, Text: answers}}, false
		}
	case copilotToolComplete:
		if text, failed := copilotToolError(data); failed {
			return []Turn{{Role: Tool, Text: text, IsError: true}}, false
		}
	}
	return nil, false
}

// copilotToolError is what a failed tool reported, and whether it failed.
func copilotToolError(data gjson.Result) (string, bool) {
	if !data.Get("success").Bool() {
		if msg := data.Get("error.message").Str; strings.TrimSpace(msg) != "" {
			return prefix(msg, 2*maxToolError), true
		}
		return "tool call failed", true
	}
	code := data.Get("shellExecution.exitCode")
	if code.Type != gjson.Number || code.Int() == 0 {
		return "", false
	}
	out := data.Get("result.content").Str
	if i := strings.LastIndex(out, copilotShellNote); i >= 0 && (i == 0 || out[i-1] == '\n') {
		out = out[:i] // Copilot CLI's note of the exit code, said below
	}
	if strings.TrimSpace(out) != "" {
		return prefix(out, 2*maxToolError), true
	}
	return "exited with code " + strconv.FormatInt(code.Int(), 10), true
}

// learnCopilotWorkspace gives a session whose events named no cwd the one in its workspace.yaml.
func learnCopilotWorkspace(p *parse) {
	if p.project == "" && p.file.Project == "" && filepath.Base(p.file.Path) == copilotEvents {
		p.learn("", copilotWorkspaceCwd(filepath.Join(filepath.Dir(p.file.Path), copilotWorkspace)))
	}
}

// copilotWorkspaceCwd reads the cwd of a Copilot CLI workspace.yaml: flat "key: value" lines, the
// value plain or quoted. "" when the file names none.
func copilotWorkspaceCwd(path string) string {
	b, err := safefile.ReadFile(path, 1<<20)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		value, ok := strings.CutPrefix(sc.Text(), "cwd:")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch {
		case strings.HasPrefix(value, `"`):
			if u, err := strconv.Unquote(value); err == nil {
				value = u
			}
		case strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'") && len(value) >= 2:
			value = strings.ReplaceAll(value[1:len(value)-1], "''", "'")
		}
		if filepath.IsAbs(value) || isWindowsPath(value) {
			return value
		}
		return ""
	}
	return ""
}
