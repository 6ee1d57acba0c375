package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// turn is what the script looks at in a request, whatever the API: the last input item.
type turn struct {
	toolResult bool     // the last item answers a tool call
	text       string   // the last item's text, when it is the person's (or a sub-agent's prompt)
	tools      []string // the names of the tools the request offers
	wantsJSON  bool     // a side call that asks for a JSON answer (Gemini's router, next speaker)
	lastCall   string   // the tool the script called last, in any request
	body       string   // the whole request
}

// action is the script's answer: a text, or one tool call.
type action struct {
	text string
	tool string
	args map[string]any
}

// SubagentPrompt starts the prompt the script gives a sub-agent, so its own requests are told
// from the main session's.
const SubagentPrompt = "Sub-agent task: count the files in the project and say how many there are."

// decide is the whole script.
func decide(t turn) action {
	if a, ok := commandStep(t); ok { // the commands session (commands.go)
		return a
	}
	if t.toolResult {
		// Claude Code defers MCP tools: once ToolSearch has loaded dreamd's recall, call it.
		if t.lastCall == "ToolSearch" {
			if name := recallTool(t.tools); name != "" {
				return action{tool: name, args: map[string]any{"query": "lint"}}
			}
		}
		// Qwen Code defers MCP tools behind a bridge: once tool_search has shown dreamd's recall,
		// call it through tool_call.
		if t.lastCall == "tool_search" && slices.Contains(t.tools, "tool_call") {
			if deferred := deferredRecall.FindString(t.body); deferred != "" {
				return action{tool: "tool_call", args: map[string]any{"name": deferred, "arguments": map[string]any{"query": "lint"}}}
			}
		}
		return action{text: "Done: the tool has answered."}
	}
	if t.wantsJSON {
		return action{text: `{"reasoning":"fakeapi","next_speaker":"user","model_choice":"flash","complexity_reasoning":"fakeapi","complexity_score":1}`}
	}
	lower := strings.ToLower(t.text)
	switch {
	case asksQuestion(lower): // questions.go
		if a, ok := questionCall(t.tools); ok {
			return a
		}
	case strings.Contains(lower, "sub-agent task:"):
		// Gemini CLI's sub-agents end by calling complete_task.
		for _, name := range t.tools {
			if name == "complete_task" {
				return action{tool: name, args: map[string]any{"result": "There are 2 files in the project."}}
			}
		}
		return action{text: "There are 2 files in the project."}
	case strings.Contains(lower, "run the linter"):
		if a, ok := shellCall(t.tools, "make lint"); ok {
			return a
		}
	case strings.Contains(lower, "ask a sub-agent"):
		if a, ok := subagentCall(t.tools); ok {
			return a
		}
	case strings.Contains(lower, "call the dreamd recall tool"):
		if name := recallTool(t.tools); name != "" {
			return action{tool: name, args: map[string]any{"query": "lint"}}
		}
		if deferred := deferredRecall.FindString(t.body); deferred != "" && slices.Contains(t.tools, "ToolSearch") {
			return action{tool: "ToolSearch", args: map[string]any{"query": "select:" + deferred}}
		}
		if deferred := deferredRecall.FindString(t.body); deferred != "" && slices.Contains(t.tools, "tool_search") {
			return action{tool: "tool_search", args: map[string]any{"query": "select:" + deferred}}
		}
	}
	return action{text: "Noted."}
}

// deferredRecall is dreamd's recall tool as Claude Code and Qwen Code list it among their deferred
// tools.
var deferredRecall = regexp.MustCompile(`mcp__dreamd__recall`)

// recallTool is the name the request gives dreamd's MCP recall tool, or "".
func recallTool(tools []string) string {
	for _, name := range tools {
		if strings.Contains(name, "dreamd") && strings.HasSuffix(name, "recall") {
			return name
		}
	}
	return ""
}

// shellCall is a call of the shell tool the request offers, in that tool's own argument shape.
func shellCall(tools []string, command string) (action, bool) {
	for _, name := range tools {
		switch name {
		case "Bash": // Claude Code
			return action{tool: name, args: map[string]any{"command": command, "description": "Run the linter"}}, true
		case "bash": // OpenCode, Kilo, Crush
			return action{tool: name, args: map[string]any{"command": command, "description": "Run the linter"}}, true
		case "run_shell_command": // Gemini CLI
			return action{tool: name, args: map[string]any{"command": command, "description": "Run the linter"}}, true
		case "shell": // Codex CLI, the array form
			return action{tool: name, args: map[string]any{"command": []string{"bash", "-lc", command}}}, true
		case "shell_command":
			return action{tool: name, args: map[string]any{"command": command}}, true
		case "exec_command":
			return action{tool: name, args: map[string]any{"cmd": command}}, true
		case "run_commands": // Cline CLI, a list of commands
			return action{tool: name, args: map[string]any{"commands": []string{command}}}, true
		}
	}
	return action{}, false
}

// subagentCall is a call of the sub-agent tool the request offers.
func subagentCall(tools []string) (action, bool) {
	if slices.Contains(tools, "task") && slices.Contains(tools, "read_agent") { // Copilot CLI's task wants its agent's type and name
		return action{tool: "task", args: map[string]any{"description": "Count the files", "prompt": SubagentPrompt, "agent_type": "general-purpose", "name": "counter"}}, true
	}
	if slices.Contains(tools, "agent") && slices.Contains(tools, "run_shell_command") { // Qwen Code's agent wants a description and a type
		return action{tool: "agent", args: map[string]any{"description": "Count the files", "prompt": SubagentPrompt, "subagent_type": "general-purpose"}}, true
	}
	if slices.Contains(tools, "spawn_agent") && slices.Contains(tools, "run_commands") { // Cline CLI's spawn_agent wants a system prompt and a task
		return action{tool: "spawn_agent", args: map[string]any{"systemPrompt": "You count files.", "task": SubagentPrompt}}, true
	}
	for _, name := range tools {
		switch name {
		case "Agent", "Task": // Claude Code
			return action{tool: name, args: map[string]any{"description": "Count the files", "prompt": SubagentPrompt}}, true
		case "spawn_agent", "multi_agent_v1__spawn_agent": // Codex CLI (multi-agent, a namespace)
			return action{tool: name, args: map[string]any{"message": SubagentPrompt}}, true
		case "task": // OpenCode, Kilo
			return action{tool: name, args: map[string]any{"description": "Count the files", "prompt": SubagentPrompt, "subagent_type": "general"}}, true
		case "agent": // Crush
			return action{tool: name, args: map[string]any{"prompt": SubagentPrompt}}, true
		case "invoke_agent": // Gemini CLI
			return action{tool: name, args: map[string]any{"agent_name": "generalist", "prompt": SubagentPrompt}}, true
		}
	}
	return action{}, false
}

type server struct {
	dir      string
	mu       sync.Mutex
	n        int
	lastCall string // the tool the script called last
}

// decide runs the script for a request and remembers the tool it calls.
func (s *server) decide(t turn, body []byte) action {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.lastCall, t.body = s.lastCall, string(body)
	a := decide(t)
	if a.tool != "" {
		s.lastCall = a.tool
	}
	return a
}

func newServer(dir string) http.Handler {
	s := &server{dir: dir}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.anthropic)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.countTokens)
	mux.HandleFunc("POST /v1/responses", s.responses)
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("GET /models", s.models)
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /chat/completions", s.chat)
	mux.HandleFunc("POST /{version}/models/{call}", s.gemini)
	mux.HandleFunc("/", s.other)
	return s.logged(mux)
}

// logged writes every request body to the record directory before the handler reads it.
func (s *server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.n++
		name := fmt.Sprintf("%04d-%s.json", s.n, apiOf(r.URL.Path, body))
		s.mu.Unlock()
		head := r.Method + " " + r.URL.RequestURI() + "\n"
		if err := os.WriteFile(filepath.Join(s.dir, name), append([]byte(head), body...), 0o644); err != nil {
			log.Print(err)
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		next.ServeHTTP(w, r)
	})
}

func apiOf(path string, body []byte) string {
	switch {
	case strings.HasPrefix(path, "/v1/messages"):
		return "anthropic"
	case strings.HasSuffix(path, "/chat/completions") && isDreamd(body):
		return "dreamd" // dreamd's own consolidation call: the digest it sends
	case strings.HasSuffix(path, "/chat/completions"):
		return "chat"
	case strings.HasPrefix(path, "/v1/responses"):
		return "responses"
	case strings.Contains(path, "/models/"):
		return "gemini"
	}
	return "other"
}

func (s *server) other(w http.ResponseWriter, r *http.Request) {
	log.Printf("unscripted %s %s", r.Method, r.URL.Path)
	http.NotFound(w, r)
}

func (s *server) models(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"object":"list","data":[{"id":"`+ChatModel+`","object":"model","created":1767225600,"owned_by":"fakeapi"}],"models":[]}`)
}

// ChatModel is the one model GET /v1/models lists, for the clients that pick a model from it.
const ChatModel = "fake-chat"

func (s *server) countTokens(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"input_tokens":100}`)
}

// sse starts a server-sent event stream.
func sse(w http.ResponseWriter) func(event string, data any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	return func(event string, data any) {
		b, _ := json.Marshal(data)
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// done ends a Chat Completions stream.
func done(w http.ResponseWriter) {
	io.WriteString(w, "data: [DONE]\n\n")
	if flusher, ok := w.(http.Flusher); ok {
		flusher.Flush()
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// textOf joins the text of a JSON content value: a string, or a list of parts with "text".
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
		b.WriteString("\n")
	}
	return b.String()
}

// consolidation answers dreamd's own call (an OpenAI chat completion with a strict schema) with a
// consolidation that changes nothing: the script only wants the digest dreamd sent, recorded.
func (s *server) consolidation(w http.ResponseWriter, r *http.Request) {
	content := `{"summary":"fakeapi: no changes.","operations":[]}`
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
	})
}
