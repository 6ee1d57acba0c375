package transcript

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The answers of the agents' structured-question tools, in the shapes each CLI records (synthetic
// text; the shapes as Codex CLI 0.171, Gemini CLI 0.61, Qwen Code 0.24 and Cline CLI 3.0 write
// them): the question beside the answer the person chose or typed; nothing for a question
// refused, dismissed, declined or answered by the CLI itself; never an option not chosen.

const chartQ = "Which chart library should the dashboard use?"

// chartOptions are the options the agent offers in each test: only the chosen one may show.
var chartOptions = []map[string]any{{"label": "Recharts", "description": "Draw the charts with Recharts."}, {"label": "Chart.js", "description": "Draw the charts with Chart.js."}}

func codexCall(callID, name string, args any) string {
	return jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
		"payload": map[string]any{"type": "function_call", "name": name, "arguments": jsonLine(args), "call_id": callID}})
}

func codexOutput(callID, output string) string {
	return jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
		"payload": map[string]any{"type": "function_call_output", "call_id": callID, "output": output}})
}

func TestCodexAnswers(t *testing.T) {
	ask := map[string]any{"questions": []any{
		map[string]any{"id": "chart_library", "header": "Charts", "question": chartQ, "options": chartOptions},
		map[string]any{"id": "deploy_target", "header": "Deploy", "question": "Where is it deployed?", "options": chartOptions[:1]},
	}}
	tests := []struct {
		name, lines string
		user        []string
	}{
		{"an option chosen", codexCall("c1", "request_user_input", ask) + codexOutput("c1", `{"answers":{"chart_library":{"answers":["Recharts"]}}}`),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Recharts"`}},
		{"an option and a note, two questions", codexCall("c1", "request_user_input", ask) +
			codexOutput("c1", `{"answers":{"deploy_target":{"answers":["user_note: Fly.io, not Heroku"]},"chart_library":{"answers":["Chart.js","user_note: it is already bundled"]}}}`),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Chart.js, it is already bundled", "Where is it deployed?"="Fly.io, not Heroku"`}},
		{"a question skipped gives no pair", codexCall("c1", "request_user_input", ask) + codexOutput("c1", `{"answers":{"deploy_target":{"answers":[]}}}`), nil},
		{"the CLI refused (Default mode)", codexCall("c1", "request_user_input", ask) + codexOutput("c1", "request_user_input is unavailable in Default mode"), nil},
		{"the CLI refused (exec)", codexCall("c1", "request_user_input", ask) + codexOutput("c1", "request_user_input is not supported in exec mode for thread `t`"), nil},
		{"another tool's JSON output is not an answer", codexCall("c2", "exec_command", map[string]any{"cmd": "cat answers.json"}) +
			codexOutput("c2", `{"answers":{"chart_library":{"answers":["Recharts"]}}}`), nil},
		{"an output with no call read", codexOutput("c3", `{"answers":{"chart_library":{"answers":["Recharts"]}}}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(codexMeta("id", "/x")+codexMessage("user", "add a dashboard")+tt.lines), "")
			r := mustRead(t, f, Cursor{})
			want := append([]string{"add a dashboard"}, tt.user...)
			if user := roleTexts(r, User); !slices.Equal(user, want) {
				t.Errorf("user turns %q, want %q", user, want)
			}
		})
	}
}

func geminiAsk(id, status, output string) string {
	return jsonLine(map[string]any{"id": id, "timestamp": recordTime.Format(time.RFC3339Nano), "type": "gemini", "content": "",
		"toolCalls": []any{map[string]any{"id": "ask_user_1", "name": "ask_user", "status": status,
			"args": map[string]any{"questions": []any{
				map[string]any{"question": chartQ, "header": "Charts", "type": "choice", "options": chartOptions},
				map[string]any{"question": "Keep the old page?", "header": "Old page", "type": "yesno"},
			}},
			"result": []any{map[string]any{"functionResponse": map[string]any{"id": "ask_user_1", "name": "ask_user", "response": map[string]any{"output": output}}}}}}})
}

func TestGeminiAnswers(t *testing.T) {
	tests := []struct {
		name, lines string
		user        []string
	}{
		{"an option chosen", geminiAsk("m2", "success", `{"answers":{"0":"Recharts"}}`),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Recharts"`}},
		{"both answered, one typed", geminiAsk("m2", "success", `{"answers":{"1":"No","0":"D3, we know it"}}`),
			[]string{`Answers to the agent's questions: "Keep the old page?"="No", "Which chart library should the dashboard use?"="D3, we know it"`}},
		{"dismissed", geminiAsk("m2", "success", "User dismissed ask_user dialog without answering."), nil},
		{"submitted empty", geminiAsk("m2", "success", `{"answers":{}}`), nil},
		{"cancelled", geminiAsk("m2", "cancelled", `{"answers":{"0":"Recharts"}}`), nil},
		{"an index with no question", geminiAsk("m2", "success", `{"answers":{"7":"Recharts"}}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := geminiMeta("g1", "/home/ana/shop") + geminiMsg("m1", "user", "add a dashboard") + tt.lines
			f := writeFile(t, "gemini", filepath.Join(t.TempDir(), "h", "chats", "session-x.jsonl"), []byte(lines), "")
			r := mustRead(t, f, Cursor{})
			want := append([]string{"add a dashboard"}, tt.user...)
			if user := roleTexts(r, User); !slices.Equal(user, want) {
				t.Errorf("user turns %q, want %q", user, want)
			}
		})
	}
}

func qwenAnswered(display any) string {
	r := map[string]any{"uuid": "t1", "sessionId": "q1", "timestamp": "2026-05-15T10:00:00Z", "type": "tool_result", "cwd": "/home/ana/shop",
		"message":        map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{"name": "ask_user_question", "response": map[string]any{"output": "User has provided the following answers:\n\n**Charts**: Recharts"}}}}},
		"toolCallResult": map[string]any{"callId": "call_1", "status": "success", "resultDisplay": display}}
	return jsonLine(r)
}

func TestQwenAnswers(t *testing.T) {
	tests := []struct {
		name, lines string
		user        []string
	}{
		{"an option chosen", qwenAnswered(map[string]any{"type": "ask_user_question_answers", "text": "User has provided the following answers:\n\n**Charts**: Recharts",
			"answers": []any{map[string]any{"question": chartQ, "answer": "Recharts"}}}),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Recharts"`}},
		{"declined", qwenAnswered("User declined to answer the questions."), nil},
		{"headless", qwenAnswered("Cannot ask user questions in non-interactive mode without ACP support."), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := qwenRecord("user", "real_user", "", qwenText("add a dashboard")) + tt.lines
			f := writeFile(t, "qwen", filepath.Join(t.TempDir(), "-home-ana-shop", "chats", "q1.jsonl"), []byte(lines), "")
			r := mustRead(t, f, Cursor{})
			want := append([]string{"add a dashboard"}, tt.user...)
			if user := roleTexts(r, User); !slices.Equal(user, want) {
				t.Errorf("user turns %q, want %q", user, want)
			}
		})
	}
}

func TestClineAnswers(t *testing.T) {
	ask := `{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"ask_question","input":{"question":"` + chartQ + `","options":["Recharts","Chart.js"]}}],"ts":1795728179000}`
	result := func(content string) string {
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","name":"ask_question","content":"` + content + `"}],"ts":1795728180000}`
	}
	tests := []struct {
		name, sidecar, msgs string
		user                []string
	}{
		{"the person picked one in the terminal UI", `"interactive":true`, ask + "," + result("Chart.js"),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Chart.js"`}},
		{"a CLI without the flag", `"cwd":"/home/ana/shop"`, ask + "," + result("Recharts"),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Recharts"`}},
		// Headless, Cline answers its own question with the first option: nobody chose it.
		{"a headless run answered by the CLI", `"interactive":false`, ask + "," + result("Recharts"), nil},
		// Begun headless, resumed in the terminal UI: the flag stays false, but only the
		// person gives an answer other than the first option.
		{"a headless session resumed in the terminal UI", `"interactive":false`, ask + "," + result("Chart.js"),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Chart.js"`}},
		{"another tool's result", `"interactive":true`, ask + `,{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_9","name":"read_files","content":"Recharts"}]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "sessions", "1795728175369_ab12c")
			doc := `{"version":1,"agent":"lead","sessionId":"1795728175369_ab12c","messages":[{"role":"user","content":[{"type":"text","text":"<user_input mode=\"act\">add a dashboard</user_input>"}],"ts":1795728178146},` + tt.msgs + `]}`
			f := writeFile(t, "cline", filepath.Join(dir, "1795728175369_ab12c.messages.json"), []byte(doc), "")
			writeText(t, filepath.Join(dir, "1795728175369_ab12c.json"), `{"session_id":"1795728175369_ab12c",`+tt.sidecar+`}`)
			r := mustRead(t, f, Cursor{})
			want := append([]string{"add a dashboard"}, tt.user...)
			if user := roleTexts(r, User); !slices.Equal(user, want) {
				t.Errorf("user turns %q, want %q", user, want)
			}
		})
	}
}

func copilotAnswered(response map[string]any) string {
	return copilotEvent("human_response.recorded", "", map[string]any{"requestId": "r1", "toolCallId": "call_1", "actor": "human_response", "response": response})
}

func TestCopilotAnswers(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"chart_library": map[string]any{"type": "string", "title": chartQ, "enum": []string{"Recharts", "Chart.js"}},
		"old_page":      map[string]any{"type": "boolean"}}}
	tests := []struct {
		name, lines string
		user        []string
	}{
		{"an option chosen", copilotAnswered(map[string]any{"responseKind": "ask_user", "content": map[string]any{"chart_library": "Chart.js"}, "message": chartQ, "requestedSchema": schema}),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Chart.js"`}},
		{"a field with no title asks the message", copilotAnswered(map[string]any{"responseKind": "ask_user", "content": map[string]any{"old_page": false}, "message": "Keep the old page?", "requestedSchema": schema}),
			[]string{`Answers to the agent's questions: "Keep the old page?"="false"`}},
		{"declined: no content", copilotAnswered(map[string]any{"responseKind": "ask_user", "message": chartQ, "requestedSchema": schema}), nil},
		{"another kind of response", copilotAnswered(map[string]any{"responseKind": "permission", "content": map[string]any{"chart_library": "Chart.js"}}), nil},
		// The tool's result repeats the answer: it is the CLI's, and stays out.
		{"the tool's result", copilotEvent("tool.execution_complete", "", map[string]any{"toolCallId": "call_1", "success": true, "result": map[string]any{"content": "User responded: Chart.js"}}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := copilotStartLine + copilotEvent("user.message", "", map[string]any{"content": "add a dashboard"}) + tt.lines
			f := writeFile(t, "copilot", filepath.Join(t.TempDir(), "session-state", "c1", "events.jsonl"), []byte(lines), "")
			r := mustRead(t, f, Cursor{})
			want := append([]string{"add a dashboard"}, tt.user...)
			if user := roleTexts(r, User); !slices.Equal(user, want) {
				t.Errorf("user turns %q, want %q", user, want)
			}
		})
	}
}

func TestOpencodeAnswers(t *testing.T) {
	part := func(status string, answers any) string {
		state := map[string]any{"status": status, "input": map[string]any{"questions": []any{
			map[string]any{"question": chartQ, "header": "Charts", "options": chartOptions},
			map[string]any{"question": "Which checks should CI run?", "header": "CI", "options": chartOptions, "multiple": true}}}}
		if answers != nil {
			state["metadata"] = map[string]any{"answers": answers, "truncated": false}
			state["output"] = "User has answered your questions: …"
		}
		return jsonLine(map[string]any{"type": "tool", "tool": "question", "callID": "call_1", "state": state})
	}
	tests := []struct {
		name, part string
		user       []string
	}{
		{"an option chosen", part("completed", [][]string{{"Chart.js"}}),
			[]string{`Answers to the agent's questions: "Which chart library should the dashboard use?"="Chart.js"`}},
		{"two, one a multi-select, one unanswered", part("completed", [][]string{{}, {"lint", "test"}}),
			[]string{`Answers to the agent's questions: "Which checks should CI run?"="lint, test"`}},
		{"dismissed", part("error", nil), nil},
		{"still asking", part("running", nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turns, _ := opencodeTurns(`{"role":"assistant"}`, []string{tt.part}, recordTime)
			var user []string
			for _, turn := range turns {
				if turn.Role == User {
					user = append(user, turn.Text)
				}
			}
			if !slices.Equal(user, tt.user) {
				t.Errorf("user turns %q, want %q", user, tt.user)
			}
		})
	}
}

// The Cline extension's ask_followup_question: the answer comes back as the person's next message,
// the question quoted in its header.
func TestClineFollowupAnswer(t *testing.T) {
	tests := []struct {
		text, want string
		ok         bool
	}{
		{"[ask_followup_question for '" + chartQ + "'] Result:\n<answer>\nChart.js\n</answer>",
			`Answers to the agent's questions: "Which chart library should the dashboard use?"="Chart.js"`, true},
		{"[ask_followup_question for 'Which one?'] Result:\n<answer>\nthe strict one.\nAlso fix the tests.\n</answer>", "", false},
		{"[ask_followup_question for 'Which one?'] Result:\n<answer>\n</answer>", "", false},
		{"[execute_command for 'make lint'] Result:\n<answer>\nstrict\n</answer>", "", false},
	}
	for _, tt := range tests {
		if got, ok := clineFollowupAnswer(tt.text); got != tt.want || ok != tt.ok {
			t.Errorf("clineFollowupAnswer(%q) = %q, %v; want %q, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}
