package main

import (
	"reflect"
	"testing"
)

// TestCommandsSession drives the commands session for each shell tool: the calls in that tool's
// own working-directory shape, then a closing text, and nothing left under way after it.
func TestCommandsSession(t *testing.T) {
	tests := []struct {
		name  string
		tools []string
		body  string
		want  []map[string]any
	}{
		{"Claude Code", []string{"Read", "Bash"}, "", []map[string]any{
			{"command": "cd frontend", "description": "Go to the frontend"},
			{"command": "pnpm test", "description": "Run the frontend tests"},
			{"command": "npm test", "description": "Run the frontend tests"}}},
		{"Codex CLI", []string{"exec_command", "apply_patch"}, `<cwd>/tmp/h/src/shop</cwd>`, []map[string]any{
			{"cmd": "pnpm test", "workdir": "/tmp/h/src/shop/frontend", "yield_time_ms": 60000},
			{"cmd": "npm test", "workdir": "/tmp/h/src/shop/frontend", "yield_time_ms": 60000}}},
		{"Gemini CLI", []string{"run_shell_command"}, `"dir_path": {"type":"string"} I'm currently working in the directory: /tmp/h/src/shop`, []map[string]any{
			{"command": "pnpm test", "dir_path": "frontend", "description": "Run the frontend tests"},
			{"command": "npm test", "dir_path": "frontend", "description": "Run the frontend tests"}}},
		{"Qwen Code", []string{"run_shell_command", "agent"}, `"directory": {} I'm currently working in the directory: /tmp/h/src/shop`, []map[string]any{
			{"command": "pnpm test", "directory": "/tmp/h/src/shop/frontend", "description": "Run the frontend tests"},
			{"command": "npm test", "directory": "/tmp/h/src/shop/frontend", "description": "Run the frontend tests"}}},
		{"Cline CLI", []string{"run_commands"}, "", []map[string]any{
			{"commands": []string{"cd frontend && pnpm test"}},
			{"commands": []string{"cd frontend && npm test"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := decide(turn{text: "Please " + CommandsPhrase + ".", tools: tt.tools, body: tt.body})
			var got []map[string]any
			for a.tool != "" && len(got) < 10 {
				got = append(got, a.args)
				a = decide(turn{toolResult: true, tools: tt.tools, body: tt.body})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("calls %v, want %v", got, tt.want)
			}
			if a.text == "" {
				t.Errorf("no closing text")
			}
			if next := decide(turn{toolResult: true, tools: tt.tools}); next.tool != "" {
				t.Errorf("a call after the session ended: %+v", next)
			}
		})
	}
}
