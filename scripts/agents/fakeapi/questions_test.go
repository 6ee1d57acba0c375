package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Each CLI's question tool is called in its own shape, with the question and both options; a
// request that offers none gets the script's plain answer.
func TestQuestionCall(t *testing.T) {
	tests := []struct {
		tools []string
		tool  string
	}{
		{[]string{"Bash", "AskUserQuestion"}, "AskUserQuestion"},
		{[]string{"exec_command", "request_user_input"}, "request_user_input"},
		{[]string{"run_shell_command", "ask_user"}, "ask_user"},
		{[]string{"bash", "ask_user"}, "ask_user"},
		{[]string{"ask_user_question"}, "ask_user_question"},
		{[]string{"bash", "question"}, "question"},
		{[]string{"run_commands", "ask_question"}, "ask_question"},
		{[]string{"ask_followup_question"}, "ask_followup_question"},
	}
	for _, tt := range tests {
		a := decide(turn{text: "Please add a dashboard page; ask me which chart library it should use.", tools: tt.tools})
		args, _ := json.Marshal(a.args)
		if a.tool != tt.tool || !strings.Contains(string(args), ChartQuestion) || !strings.Contains(string(args), "Chart.js") || !strings.Contains(string(args), "Recharts") {
			t.Errorf("tools %v: %s %s, want a call of %s asking %q", tt.tools, a.tool, args, tt.tool, ChartQuestion)
		}
	}
	if a := decide(turn{text: "ask me which chart library", tools: []string{"bash"}}); a.tool != "" {
		t.Errorf("no question tool offered: called %s", a.tool)
	}
}
