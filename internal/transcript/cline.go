package transcript

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/tidwall/gjson"
)

// cline reads Cline's sessions. Each is one JSON document that Cline rewrites whole as the
// session grows (see wholeDocument), in one of two shapes:
//
//   - the Cline CLI 3.x: <data>/sessions/<id>/<id>.messages.json, an object {"version",
//     "sessionId", "agent", "messages": […], "system_prompt"}, with a sidecar <id>.json holding the
//     cwd and the start; a sub-agent's session is agent_*.messages.json beside it ("agent":
//     "subagent"), left out like Claude Code's sidechains;
//   - the VS Code extension (and the Cline CLI before 3.0, under ~/.cline/data/tasks):
//     <globalStorage>/saoudrizwan.claude-dev/tasks/<id>/api_conversation_history.json, the array
//     of messages sent to the model; the task id is the start in Unix milliseconds.
//
// Both hold Anthropic-style messages, {"role", "content": [blocks…], "ts"}. Every "user" message
// carries what Cline injected (environment details, file contents, tool results, its own nudges);
// the person's words are only what Cline wraps as typed (see clineTypedTags), so a message without
// them is cut.
type cline struct{}

// Names Cline gives its files.
const (
	clineMessagesSuffix = ".messages.json"
	clineSubagentPrefix = "agent_"
	clineTaskHistory    = "api_conversation_history.json"
	// clineSubagent is the "agent" (and origin "mode") of a sub-agent's messages document.
	clineSubagent = "subagent"
)

var errClineSubThread = fmt.Errorf("%w (a Cline sub-agent's session), left out like Claude Code's sidechains", ErrSubThread)

func (cline) Kind() string { return "cline" }

func (cline) Discover(src Source) ([]File, []Skipped, error) {
	return discover("cline", src, clineFile)
}

// clineFile classifies a file under a Cline source: sessions/<id>/<id>.messages.json (the CLI) or
// tasks/<id>/api_conversation_history.json (the VS Code extension, older CLIs).
func clineFile(rel, _ string) (bool, string) {
	dirs := strings.Split(rel, "/")
	base := dirs[len(dirs)-1]
	parent := ""
	if len(dirs) >= 2 {
		parent = dirs[len(dirs)-2]
	}
	switch {
	case base == clineTaskHistory:
		return true, ""
	case !strings.HasSuffix(base, clineMessagesSuffix):
		return false, ""
	case strings.HasPrefix(base, clineSubagentPrefix):
		return false, "Cline sub-agent session (agent_*.messages.json, its prompt is the main agent's)"
	}
	return strings.TrimSuffix(base, clineMessagesSuffix) == parent, ""
}

func (cline) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "cline"
	return readDoc(f, from, parseClineDoc)
}

func (cline) peek(f File) (string, string, error) {
	f.Kind = "cline"
	return peekDoc(f, parseClineDoc)
}

// parseClineDoc reads one Cline document, of either shape.
func parseClineDoc(p *parse, doc string) {
	if !gjson.Valid(doc) {
		p.warn(0, "malformed JSON, file skipped")
		return
	}
	r := gjson.Parse(doc)
	msgs := r
	switch {
	case r.IsArray(): // api_conversation_history.json: the task's folder is its id
		p.fallback = filepath.Base(filepath.Dir(p.file.Path))
	case r.Get("messages").IsArray():
		if r.Get("agent").Str == clineSubagent || r.Get("origin.mode").Str == clineSubagent {
			p.subThread = errClineSubThread
			return
		}
		p.fallback = strings.TrimSuffix(filepath.Base(p.file.Path), clineMessagesSuffix)
		p.learn(r.Get("sessionId").Str, "")
		msgs = r.Get("messages")
	default:
		p.warn(0, "neither Cline's array of messages nor an object with one, file skipped")
		return
	}
	side := clineSidecar(p.file)
	p.open(p.id(), clineStart(p, side))
	sideCWD := side.Get("cwd").Str
	cwd := sideCWD
	asked := clineQuestions{headless: side.Get("interactive").Type == gjson.False} // answers.go
	msgs.ForEach(func(_, m gjson.Result) bool {
		ts := parseTime(m.Get("ts"))
		switch m.Get("role").Str {
		case "user":
			if dir := clineWorkingDirectory(m); dir != "" && sideCWD == "" {
				cwd = dir // the last one named: a resumed task says where it runs now
			}
			clineUser(p, m.Get("content"), asked.answers(m.Get("content")), ts)
		case "assistant":
			asked.note(m.Get("content"))
			for _, t := range clineAssistantTurns(m.Get("content")) {
				t.Time = ts
				p.add(t)
			}
		}
		return true
	})
	p.learn("", cwd)
}

// clineSidecar is the CLI's <id>.json beside a messages document (cwd, started_at), or an empty
// result when there is none.
func clineSidecar(f File) gjson.Result {
	if !strings.HasSuffix(f.Path, clineMessagesSuffix) {
		return gjson.Result{}
	}
	b, err := safefile.ReadFile(strings.TrimSuffix(f.open(), clineMessagesSuffix)+".json", 1<<20)
	if err != nil || !gjson.ValidBytes(b) {
		return gjson.Result{}
	}
	return gjson.ParseBytes(b)
}

// clineStart is when a session began, from its own records: the CLI's started_at, else the task
// id (Unix milliseconds, "1777073160794", or the CLI's "1795728175369_ztl84"); zero when neither
// says (the first message's time then stands).
func clineStart(p *parse, side gjson.Result) time.Time {
	if t := parseTime(side.Get("started_at")); !t.IsZero() {
		return t
	}
	digits, _, _ := strings.Cut(p.id(), "_")
	ms, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || len(digits) != 13 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// clineCWD is how Cline's environment details name the workspace (Roo Code, a fork, says "Workspace").
var clineCWD = lazyre.New(`(?m)^# Current (?:Working|Workspace) Directory \((.+)\)(?: Files)?[ \t\r]*$`)

// clineWorkingDirectory is the workspace a user message's environment details name, or "".
func clineWorkingDirectory(m gjson.Result) string {
	dir := ""
	m.Get("content").ForEach(func(_, b gjson.Result) bool {
		if s := b.Get("text").Str; strings.Contains(s, "<environment_details>") {
			if sub := clineCWD.FindStringSubmatch(s); sub != nil {
				dir = strings.TrimSpace(sub[1])
			}
		}
		return true
	})
	if m.Get("content").Type == gjson.String {
		if sub := clineCWD.FindStringSubmatch(m.Get("content").Str); sub != nil {
			dir = strings.TrimSpace(sub[1])
		}
	}
	return dir
}

// clineTypedTags wrap what the person typed, as Cline puts it in a user message: the task, a
// message in a running or resumed task (CLI 3.x <user_input mode="act">, the extension's
// <user_message>), feedback on a tool call or a completion, an answer to the agent's question.
var clineTypedTags = []string{"user_input", "task", "user_message", "feedback", "answer"}

// clineInjectedTags are blocks Cline puts inside the person's words: the file an @-mention
// expands into, a slash command's instructions, hooks' context.
var clineInjectedTags = []string{"environment_details", "file_content", "explicit_instructions", "hook_context", "hook-context"}

// clineUser adds what one user message holds: the person's typed words (and answers to the
// agent's questions, clineQuestions), and the tool results that failed. A message with nothing typed is cut.
func clineUser(p *parse, content gjson.Result, answers string, ts time.Time) {
	var typed []string
	if answers != "" {
		typed = append(typed, answers)
	}
	var failed []Turn
	each := func(text string) {
		if answer, ok := clineFollowupAnswer(text); ok { // answers.go
			typed = append(typed, answer)
		} else {
			typed = append(typed, clineTypedText(text)...)
		}
		if t, ok := clineResultError(text); ok {
			failed = append(failed, t)
		}
	}
	if content.Type == gjson.String {
		each(content.Str)
	}
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			each(b.Get("text").Str)
		case "tool_result":
			if t, ok := clineToolResultError(b); ok {
				failed = append(failed, t)
			}
		}
		return true
	})
	text := strings.TrimSpace(strings.Join(typed, "\n\n"))
	if text == "" {
		p.drop()
	} else {
		p.add(Turn{Role: User, Text: text, Time: ts})
	}
	for _, t := range failed {
		t.Time = ts
		p.add(t)
	}
}

// clineResultMark ends the header Cline puts before a tool's result: "[execute_command for 'make
// lint'] Result:".
const clineResultMark = "] Result:"

// clineTypedText returns the person's words in one text block: the content of each typed tag,
// with what Cline injected into it cut. In a tool's result only the part after its header counts
// (the header quotes the agent's call, which may hold anything).
func clineTypedText(text string) []string {
	if strings.HasPrefix(text, "[") {
		if _, rest, ok := strings.Cut(prefix(text, 64<<10), clineResultMark); ok {
			text = rest
		}
	}
	var out []string
	for _, tag := range clineTypedTags {
		for _, inner := range tagContents(prefix(text, 16*maxUserText), tag) {
			if s := promptFree(injectedFree(strings.TrimSpace(inner), clineInjectedTags)); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// tagContents returns the text inside every <tag …>…</tag> of s (an unclosed one runs to the end).
func tagContents(s, tag string) []string {
	var out []string
	end := "</" + tag + ">"
	for {
		i := indexTag(s, tag)
		if i < 0 {
			return out
		}
		gt := strings.IndexByte(s[i:], '>')
		if gt < 0 {
			return out
		}
		s = s[i+gt+1:]
		j := strings.Index(s, end)
		if j < 0 {
			return append(out, s)
		}
		out = append(out, s[:j])
		s = s[j+len(end):]
	}
}

// Texts with which Cline reports that a tool failed.
var clineFailures = []string{
	"Command failed with exit code",
	"Command exited with code",
	"The tool execution failed with the following error:",
	"Error executing ",
}

// clineResultError reads a tool's result as the extension writes it, "[name for 'arg'] Result:\n…",
// and reports it as a Tool error turn when it says the tool failed.
func clineResultError(text string) (Turn, bool) {
	head, body := "", text
	if strings.HasPrefix(text, "[") {
		if h, rest, ok := strings.Cut(prefix(text, 64<<10), clineResultMark); ok {
			head, body = strings.TrimPrefix(h, "["), rest
		}
	}
	body = strings.TrimSpace(prefix(body, 4*maxToolError))
	if !clineFailed(body) {
		return Turn{}, false
	}
	body = strings.ReplaceAll(strings.ReplaceAll(body, "<error>", ""), "</error>", "")
	if name, arg, ok := strings.Cut(head, " for '"); ok {
		head = toolLine(name, strings.TrimSuffix(arg, "'"))
	}
	if head != "" {
		body = head + ": " + body
	}
	return Turn{Role: Tool, Text: prefix(body, 2*maxToolError), IsError: true}, true
}

func clineFailed(body string) bool {
	for _, f := range clineFailures {
		if strings.HasPrefix(body, f) {
			return true
		}
	}
	return false
}

// clineToolResultError reads a tool_result block (native tool calls): the CLI's results are a list
// of {"query", "result", "error", "success"}, one per command or file; others are text.
func clineToolResultError(b gjson.Result) (Turn, bool) {
	name := b.Get("name").Str
	content := b.Get("content")
	if b.Get("is_error").Bool() || b.Get("isError").Bool() {
		return Turn{Role: Tool, Text: prefix(toolLine(name, "")+": "+partsText(content.Raw, 2*maxToolError), 2*maxToolError), IsError: true}, true
	}
	var failed []string
	content.ForEach(func(_, item gjson.Result) bool {
		if item.Get("success").Exists() && !item.Get("success").Bool() {
			out := item.Get("result").Str
			if strings.TrimSpace(out) == "" {
				out = item.Get("error").Str
			}
			failed = append(failed, toolLine(name, item.Get("query").Str)+": "+strings.TrimSpace(out))
		}
		return true
	})
	if text := partsText(content.Raw, 4*maxToolError); len(failed) == 0 && clineFailed(strings.TrimSpace(text)) {
		failed = append(failed, toolLine(name, "")+": "+text)
	}
	if len(failed) == 0 {
		return Turn{}, false
	}
	return Turn{Role: Tool, Text: prefix(strings.Join(failed, "\n"), 2*maxToolError), IsError: true}, true
}

// clineSpeech are the tools through which Cline's agent speaks to the person, and the parameter
// that holds what it says: their calls are its answers, not actions.
var clineSpeech = map[string]string{
	"attempt_completion":    "result",
	"ask_followup_question": "question",
	"plan_mode_respond":     "response",
	"ask_question":          "question",
}

// clineTools are the tools the extension's agent calls in XML in its text (before native tool
// calls), each with the parameter that best says what the call did.
var clineTools = map[string]string{
	"execute_command": "command", "read_file": "path", "write_to_file": "path",
	"replace_in_file": "path", "search_files": "regex", "list_files": "path",
	"list_code_definition_names": "path", "browser_action": "url", "use_mcp_tool": "tool_name",
	"access_mcp_resource": "uri", "web_fetch": "url", "web_search": "query", "new_task": "",
	"load_mcp_documentation": "", "new_rule": "path", "condense": "", "summarize_task": "",
	"report_bug": "title", "apply_patch": "",
}

// clineAssistantTurns maps an assistant message: its prose (thinking left out, an XML tool call
// turned into its line), a tool line per native call, and what a speech tool says as prose.
func clineAssistantTurns(content gjson.Result) []Turn {
	var turns []Turn
	say := func(text string) {
		prose, tools := clineXMLTools(stripBlocks(prefix(text, 2*maxAssistantText), "thinking"))
		turns = assistantTurn(turns, []string{prose})
		turns = append(turns, tools...)
	}
	if content.Type == gjson.String {
		say(content.Str)
		return turns
	}
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			say(b.Get("text").Str)
		case "tool_use":
			name, input := b.Get("name").Str, b.Get("input")
			if param, ok := clineSpeech[name]; ok {
				turns = assistantTurn(turns, []string{input.Get(param).Str})
				break
			}
			turns = append(turns, Turn{Role: Tool, Text: toolLine(name, clineToolArg(input)), Dir: toolDir(input.Raw)})
		}
		return true
	})
	return turns
}

// clineToolArg is what a native tool call acted on: the CLI's run_commands takes a list of
// commands.
func clineToolArg(input gjson.Result) string {
	if cmds := input.Get("commands"); cmds.IsArray() {
		var all []string
		cmds.ForEach(func(_, c gjson.Result) bool {
			all = append(all, c.String())
			return len(all) < 16
		})
		return strings.Join(all, "; ")
	}
	return toolArg(input.Raw)
}

// clineXMLTools takes the tool calls the agent wrote in XML out of its text ("<execute_command>
// <command>make lint</command></execute_command>"): each becomes a tool line, a speech tool's
// words stay as prose.
func clineXMLTools(text string) (string, []Turn) {
	if !strings.Contains(text, "</") {
		return text, nil
	}
	var tools []Turn
	var prose strings.Builder
	for {
		name, i, j := nextClineXMLTool(text)
		if i < 0 {
			prose.WriteString(text)
			return prose.String(), tools
		}
		prose.WriteString(text[:i])
		block := text[i:j]
		if param, ok := clineSpeech[name]; ok {
			prose.WriteString(strings.TrimSpace(tagText(block, param)))
		} else {
			arg := ""
			if param := clineTools[name]; param != "" {
				arg = tagText(block, param)
			}
			tools = append(tools, Turn{Role: Tool, Text: toolLine(name, arg)})
		}
		text = text[j:]
	}
}

// nextClineXMLTool finds the first complete <tool>…</tool> block of a known tool in text: its
// name, start and end; i is -1 when there is none.
func nextClineXMLTool(text string) (name string, i, j int) {
	i = -1
	for from := 0; ; {
		k := strings.IndexByte(text[from:], '<')
		if k < 0 {
			return "", -1, -1
		}
		k += from
		end := strings.IndexByte(text[k:], '>')
		if end < 0 {
			return "", -1, -1
		}
		tag := text[k+1 : k+end]
		_, known := clineTools[tag]
		_, speech := clineSpeech[tag]
		if known || speech {
			closeTag := "</" + tag + ">"
			if c := strings.Index(text[k:], closeTag); c >= 0 {
				return tag, k, k + c + len(closeTag)
			}
		}
		from = k + 1
	}
}
