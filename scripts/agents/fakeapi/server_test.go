package main

import (
	"reflect"
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
