package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		turn turn
		want action
	}{
		{"a lesson runs the linter with Claude Code's Bash",
			turn{text: "Always run make lint. Please run the linter now.", tools: []string{"Read", "Bash"}},
			action{tool: "Bash", args: map[string]any{"command": "make lint", "description": "Run the linter"}}},
		{"Codex's exec_command",
			turn{text: "please run the linter", tools: []string{"exec_command"}},
			action{tool: "exec_command", args: map[string]any{"cmd": "make lint"}}},
		{"no shell tool: a side call gets text",
			turn{text: "Generate a title for: please run the linter"},
			action{text: "Noted."}},
		{"a tool result closes the turn",
			turn{toolResult: true, tools: []string{"Bash"}},
			action{text: "Done: the tool has answered."}},
		{"OpenCode's bash",
			turn{text: "please run the linter", tools: []string{"read", "bash", "task"}},
			action{tool: "bash", args: map[string]any{"command": "make lint", "description": "Run the linter"}}},
		{"OpenCode's sub-agent tool",
			turn{text: "Please ask a sub-agent to count", tools: []string{"bash", "task"}},
			action{tool: "task", args: map[string]any{"description": "Count the files", "prompt": SubagentPrompt, "subagent_type": "general"}}},
		{"Crush's sub-agent tool",
			turn{text: "Please ask a sub-agent to count", tools: []string{"bash", "agent"}},
			action{tool: "agent", args: map[string]any{"prompt": SubagentPrompt}}},
		{"Cline's run_commands",
			turn{text: "please run the linter", tools: []string{"read_files", "run_commands", "spawn_agent"}},
			action{tool: "run_commands", args: map[string]any{"commands": []string{"make lint"}}}},
		{"Cline's sub-agent tool, not Codex's of the same name",
			turn{text: "Please ask a sub-agent to count", tools: []string{"run_commands", "spawn_agent"}},
			action{tool: "spawn_agent", args: map[string]any{"systemPrompt": "You count files.", "task": SubagentPrompt}}},
		{"Gemini's sub-agent tool",
			turn{text: "Please ask a sub-agent to count", tools: []string{"invoke_agent"}},
			action{tool: "invoke_agent", args: map[string]any{"agent_name": "generalist", "prompt": SubagentPrompt}}},
		{"a Gemini sub-agent completes its task",
			turn{text: SubagentPrompt, tools: []string{"complete_task"}},
			action{tool: "complete_task", args: map[string]any{"result": "There are 2 files in the project."}}},
		{"recall offered directly",
			turn{text: "call the dreamd recall tool", tools: []string{"mcp__dreamd__recall"}},
			action{tool: "mcp__dreamd__recall", args: map[string]any{"query": "lint"}}},
		{"recall deferred behind Claude Code's ToolSearch",
			turn{text: "call the dreamd recall tool", tools: []string{"ToolSearch"}, body: `… mcp__dreamd__recall …`},
			action{tool: "ToolSearch", args: map[string]any{"query": "select:mcp__dreamd__recall"}}},
		{"then recall, once ToolSearch has loaded it",
			turn{toolResult: true, lastCall: "ToolSearch", tools: []string{"ToolSearch", "mcp__dreamd__recall"}},
			action{tool: "mcp__dreamd__recall", args: map[string]any{"query": "lint"}}},
		{"Gemini's side calls that want JSON",
			turn{wantsJSON: true},
			action{text: `{"reasoning":"fakeapi","next_speaker":"user","model_choice":"flash","complexity_reasoning":"fakeapi","complexity_score":1}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decide(tt.turn); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decide = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// answer is what a Chat Completions client makes of a response, streamed or not.
type answer struct {
	content, tool, args, finish string
	done                        bool // a stream ended with data: [DONE]
}

type chatChoice struct {
	Message, Delta struct {
		Content   *string `json:"content"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct{ Name, Arguments string }
		} `json:"tool_calls"`
	}
	FinishReason *string `json:"finish_reason"`
}

func (a *answer) add(t *testing.T, b []byte, streamed bool) {
	var chunk struct {
		Object  string       `json:"object"`
		Choices []chatChoice `json:"choices"`
	}
	if err := json.Unmarshal(b, &chunk); err != nil || len(chunk.Choices) != 1 {
		t.Fatalf("not one choice of a chat completion (%v): %s", err, b)
	}
	if want := map[bool]string{true: "chat.completion.chunk", false: "chat.completion"}[streamed]; chunk.Object != want {
		t.Errorf("object %q, want %q", chunk.Object, want)
	}
	c := chunk.Choices[0]
	m := c.Message
	if streamed {
		m = c.Delta
	}
	if m.Content != nil {
		a.content += *m.Content
	}
	for _, call := range m.ToolCalls {
		if !strings.HasPrefix(call.ID, "call_") {
			t.Errorf("tool call id %q", call.ID)
		}
		a.tool, a.args = call.Function.Name, call.Function.Arguments
	}
	if c.FinishReason != nil {
		a.finish = *c.FinishReason
	}
}

func readAnswer(t *testing.T, resp *http.Response) answer {
	var a answer
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		a.add(t, b, false)
		return a
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || a.done {
			t.Fatalf("unexpected line %q (after [DONE]: %v)", line, a.done)
		}
		if data == "[DONE]" {
			a.done = true
			continue
		}
		a.add(t, []byte(data), true)
	}
	return a
}

func TestChatCompletions(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(newServer(dir))
	defer srv.Close()
	const tools = `"tools":[{"type":"function","function":{"name":"read"}},{"type":"function","function":{"name":"bash"}}]`
	const lint = `{"command":"make lint","description":"Run the linter"}`
	tests := []struct {
		name, path, body string
		want             answer
		file             string // the request's record ends so
	}{
		{"streamed text", "/v1/chat/completions",
			`{"model":"m","stream":true,"messages":[{"role":"system","content":"You are OpenCode."},{"role":"user","content":"our fixtures live in testdata/golden"}]}`,
			answer{content: "Noted.", finish: "stop", done: true}, "-chat.json"},
		{"streamed tool call, without /v1", "/chat/completions",
			`{"model":"m","stream":true,` + tools + `,"messages":[{"role":"user","content":[{"type":"text","text":"Please run the linter."}]}]}`,
			answer{tool: "bash", args: lint, finish: "tool_calls", done: true}, "-chat.json"},
		{"a tool result, not streamed", "/v1/chat/completions",
			`{"model":"m",` + tools + `,"messages":[{"role":"user","content":"run the linter"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"make: *** No rule"}]}`,
			answer{content: "Done: the tool has answered.", finish: "stop"}, "-chat.json"},
		{"a tool call, not streamed", "/v1/chat/completions",
			`{"model":"m",` + tools + `,"messages":[{"role":"user","content":"run the linter"}]}`,
			answer{tool: "bash", args: lint, finish: "tool_calls"}, "-chat.json"},
		{"dreamd's own consolidation call", "/v1/chat/completions",
			`{"model":"m","messages":[{"role":"system","content":"You maintain the long-term memory of a coding agent. …"},{"role":"user","content":"<digest>"}]}`,
			answer{content: `{"summary":"fakeapi: no changes.","operations":[]}`, finish: "stop"}, "-dreamd.json"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(srv.URL+tt.path, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if got := readAnswer(t, resp); got != tt.want {
				t.Errorf("answer %+v, want %+v", got, tt.want)
			}
			recorded, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%04d%s", i+1, tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			if want := "POST " + tt.path + "\n" + tt.body; string(recorded) != want {
				t.Errorf("recorded %q, want %q", recorded, want)
			}
		})
	}
}

func TestModels(t *testing.T) {
	srv := httptest.NewServer(newServer(t.TempDir()))
	defer srv.Close()
	for _, path := range []string{"/v1/models", "/models"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Data []struct{ ID string } `json:"data"`
		}
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		if err != nil || len(list.Data) != 1 || list.Data[0].ID != ChatModel {
			t.Errorf("GET %s = %+v (%v), want the one model %s", path, list, err, ChatModel)
		}
	}
}
