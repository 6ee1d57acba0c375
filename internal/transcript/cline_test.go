package transcript

import (
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// TestClineTypedText: of the text blocks of a Cline user message, only what Cline wraps as typed
// is the person's; a tool result's header, Cline's nudges and what it injects into the words are
// not.
func TestClineTypedText(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"the CLI's message", `<user_input mode="act">Run the linter.</user_input>`, []string{"Run the linter."}},
		{"the CLI in plan mode", "<user_input mode=\"plan\">\nPlan it.\n</user_input>", []string{"Plan it."}},
		{"the task", "<task>\nFix the build.\n</task>", []string{"Fix the build."}},
		{"feedback on a completion", "The user has provided feedback on the results.\n<feedback>\nUse golangci-lint.\n</feedback>", []string{"Use golangci-lint."}},
		{"a denial with feedback", "The user denied this operation and provided the following feedback:\n<feedback>\nnot yet\n</feedback>", []string{"not yet"}},
		{"an answer", "[ask_followup_question for 'Which one?'] Result:\n<answer>\nstrict\n</answer>", []string{"strict"}},
		{"the question quotes a tag", "[ask_followup_question for 'Say <task>x</task> or <answer>y</answer>'] Result:\n<answer>\nz\n</answer>", []string{"z"}},
		{"a resumed task", "New instructions for task continuation:\n<user_message>\nGo on.\n</user_message>", []string{"Go on."}},
		{"a file mention expanded", "<task>\nLook at 'a.go' (see below for file content)\n<file_content path=\"a.go\">\npackage a\n</file_content>\n</task>", []string{"Look at 'a.go' (see below for file content)"}},
		{"a slash command's instructions", "<task>\n<explicit_instructions type=\"new_task\">\nCreate a new task.\n</explicit_instructions>\nkeep the context\n</task>", []string{"keep the context"}},
		{"environment details", "<environment_details>\n# Current Working Directory (/home/ana/shop) Files\n</environment_details>", nil},
		{"a tool's result", "[execute_command for 'make lint'] Result:\nCommand executed successfully.", nil},
		{"Cline's own nudge", "[ERROR] You did not use a tool in your previous response! Please retry with a tool use.", nil},
		{"a resumption note", "[TASK RESUMPTION] This task was interrupted 3 days ago.", nil},
		{"no new message", "(The user did not provide a new message. Consider asking them how they'd like you to proceed.)", nil},
		{"an empty task", "<task>\n</task>", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clineTypedText(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("clineTypedText = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestClineErrors: the results Cline's tools report failures with become Tool error turns, in both
// of its shapes; a success is no turn.
func TestClineErrors(t *testing.T) {
	tests := []struct {
		name, message string // a user message, as JSON
		want          string // the error turn, "" for none
	}{
		{"the extension's failed command",
			`{"role":"user","content":[{"type":"text","text":"[execute_command for 'make lint'] Result:\nCommand failed with exit code 2.\nOutput:\nmake: *** No rule to make target 'lint'."}]}`,
			"execute_command: make lint: Command failed with exit code 2.\nOutput:\nmake: *** No rule to make target 'lint'."},
		{"the result in a block of its own",
			`{"role":"user","content":[{"type":"text","text":"[execute_command for 'make'] Result:"},{"type":"text","text":"Command failed with exit code 1."}]}`,
			"Command failed with exit code 1."},
		{"a tool's error",
			`{"role":"user","content":[{"type":"text","text":"[read_file for 'x.go'] Result:\nThe tool execution failed with the following error:\n<error>\nno such file\n</error>"}]}`,
			"read_file: x.go: The tool execution failed with the following error:\n\nno such file"},
		{"the CLI's failed command",
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","name":"run_commands","content":[{"query":"make lint","result":"[Command exited with code 2]\n\n[stderr]\nmake: *** No rule","error":"Command exited with code 2","success":false}]}]}`,
			"run_commands: make lint: [Command exited with code 2]\n\n[stderr]\nmake: *** No rule"},
		{"a result marked an error",
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","name":"read_files","is_error":true,"content":"denied"}]}`,
			"read_files: denied"},
		{"the CLI's command that succeeded",
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","name":"run_commands","content":[{"query":"ls","result":"a.go","success":true}]}]}`, ""},
		{"the extension's command that succeeded",
			`{"role":"user","content":[{"type":"text","text":"[execute_command for 'ls'] Result:\nCommand executed successfully (exit code 0).\nOutput:\na.go"}]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := readClineDoc(t, "s/s.messages.json", `{"version":1,"sessionId":"s","messages":[`+tt.message+`]}`)
			var got []string
			for _, s := range r.Sessions {
				for _, turn := range s.Turns {
					if turn.IsError {
						got = append(got, turn.Text)
					}
				}
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("errors = %q, want %q", got, want)
			}
		})
	}
}

// readClineDoc writes doc as a Cline file at rel under a temporary directory and reads it.
func readClineDoc(t *testing.T, rel, doc string) Reading {
	t.Helper()
	f := writeFile(t, "cline", filepath.Join(t.TempDir(), filepath.FromSlash(rel)), []byte(doc), "")
	return mustRead(t, f, Cursor{})
}

// TestClineAssistant: the agent's prose without its thinking, a line per tool call (native or
// written in XML), and what it says through its speech tools as prose.
func TestClineAssistant(t *testing.T) {
	doc := `[{"role":"assistant","content":[{"type":"text","text":"<thinking>secret</thinking>\nI'll run it.\n<execute_command>\n<command>make lint</command>\n</execute_command>"},` +
		`{"type":"tool_use","name":"attempt_completion","input":{"result":"It is done."}},` +
		`{"type":"tool_use","name":"run_commands","input":{"commands":["go vet ./...","go test ./..."]}},` +
		`{"type":"text","text":"<ask_followup_question>\n<question>Which one?</question>\n</ask_followup_question>"}]}]`
	r := readClineDoc(t, "tasks/1777073160794/api_conversation_history.json", doc)
	var got []string
	for _, turn := range r.Sessions[0].Turns {
		got = append(got, string(turn.Role)+": "+turn.Text)
	}
	want := []string{"assistant: I'll run it.", "tool: execute_command: make lint", "assistant: It is done.",
		"tool: run_commands: go vet ./...; go test ./...", "assistant: Which one?"}
	if !slices.Equal(got, want) {
		t.Errorf("turns = %q, want %q", got, want)
	}
}

// TestClineSession: a task history's session is dated by its records, not by the file (a task id
// is its start), placed in the working directory its environment details name last (where a
// resumed task runs now), and counts what it cut.
func TestClineSession(t *testing.T) {
	root := t.TempDir()
	const rel = "tasks/1777073160794/api_conversation_history.json"
	f := copyFile(t, "cline", filepath.Join("testdata", "cline", filepath.FromSlash(rel)), root, rel, "")
	r := mustRead(t, f, Cursor{})
	if len(r.Sessions) != 1 {
		t.Fatalf("%d sessions", len(r.Sessions))
	}
	s := r.Sessions[0]
	if s.ID != "1777073160794" || s.Project != "/home/ana/shop" {
		t.Errorf("session %q in %q, want 1777073160794 in /home/ana/shop", s.ID, s.Project)
	}
	if want := time.UnixMilli(1777073160794).UTC(); !s.Started.Equal(want) {
		t.Errorf("started %v, want %v", s.Started, want)
	}
	if s.Cut != 3 { // the failed command's result, the failed tool's, Cline's "[ERROR]" nudge
		t.Errorf("cut %d records, want 3", s.Cut)
	}
	id, project, err := Peek(cline{}, f)
	if err != nil || id != s.ID || project != s.Project {
		t.Errorf("Peek = %q, %q, %v; want %q, %q", id, project, err, s.ID, s.Project)
	}
}

// TestClineCLISession: the CLI's sidecar names the cwd and the start; a sub-agent's document says
// it is one, and Peek reports it.
func TestClineCLISession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions", "1795728175369_ab12c")
	msgs := `{"version":1,"agent":"lead","sessionId":"1795728175369_ab12c","messages":[{"role":"user","content":[{"type":"text","text":"<user_input mode=\"act\">hi</user_input>"}],"ts":1795728178146}]}`
	f := writeFile(t, "cline", filepath.Join(dir, "1795728175369_ab12c.messages.json"), []byte(msgs), "")
	writeText(t, filepath.Join(dir, "1795728175369_ab12c.json"), `{"session_id":"1795728175369_ab12c","started_at":"2026-11-26T21:22:55.425Z","cwd":"/home/ana/shop"}`)
	r := mustRead(t, f, Cursor{})
	if len(r.Sessions) != 1 || r.Sessions[0].Project != "/home/ana/shop" || r.Sessions[0].Started.Format(time.RFC3339) != "2026-11-26T21:22:55Z" {
		t.Errorf("sessions %+v", r.Sessions)
	}
	sub := writeFile(t, "cline", filepath.Join(dir, "agent_1795728216011_hjdwbu.messages.json"),
		[]byte(`{"version":1,"agent":"subagent","sessionId":"x__agent_1","origin":{"mode":"subagent"},"messages":[{"role":"user","content":[{"type":"text","text":"Sub-agent task"}]}]}`), "")
	if r := mustRead(t, sub, Cursor{}); len(r.Sessions) != 0 {
		t.Errorf("a sub-agent's document read as %d sessions", len(r.Sessions))
	}
	if _, _, err := Peek(cline{}, sub); !errors.Is(err, ErrSubThread) {
		t.Errorf("Peek of a sub-agent's document: %v, want ErrSubThread", err)
	}
}

// TestClineDiscover: the CLI's sessions and the extension's tasks are listed; sub-agents are passed
// over with a reason; Cline's other files silently.
func TestClineDiscover(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"sessions/1_a/1_a.messages.json", "sessions/1_a/1_a.json", "sessions/1_a/agent_2_b.messages.json",
		"tasks/1777/api_conversation_history.json", "tasks/1777/ui_messages.json", "tasks/1777/task_metadata.json",
		"settings/providers.json", "sessions/1_a/other.messages.json",
	} {
		writeText(t, filepath.Join(root, filepath.FromSlash(rel)), "[]")
	}
	files, skipped, err := cline{}.Discover(Source{Kind: "cline", Path: root})
	if err != nil {
		t.Fatal(err)
	}
	var got, passed []string
	for _, f := range files {
		got = append(got, filepath.ToSlash(strings.TrimPrefix(f.Path, root+string(filepath.Separator))))
	}
	for _, s := range skipped {
		passed = append(passed, filepath.Base(s.Path))
	}
	if want := []string{"sessions/1_a/1_a.messages.json", "tasks/1777/api_conversation_history.json"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if want := []string{"agent_2_b.messages.json"}; !slices.Equal(passed, want) {
		t.Errorf("skipped %q, want %q", passed, want)
	}
}

// TestClineWorkingDirectory: the workspace the environment details name, Cline's way and its fork
// Roo Code's, a path with parentheses whole.
func TestClineWorkingDirectory(t *testing.T) {
	tests := []struct{ details, want string }{
		{"# Current Working Directory (/home/ana/shop) Files\nmain.go", "/home/ana/shop"},
		{"# Current Working Directory (c:/Apps/MRA - Copy/repo) Files", "c:/Apps/MRA - Copy/repo"},
		{"# Current Workspace Directory (/Users/ana/shop)\n", "/Users/ana/shop"},
		{"# Current Working Directory (/home/ana/shop (old)) Files", "/home/ana/shop (old)"},
		{"no directory here", ""},
	}
	for _, tt := range tests {
		m := gjson.Parse(`{"content":[{"type":"text","text":` + strconv.Quote("<environment_details>\n"+tt.details+"\n</environment_details>") + `}]}`)
		if got := clineWorkingDirectory(m); got != tt.want {
			t.Errorf("clineWorkingDirectory(%q) = %q, want %q", tt.details, got, tt.want)
		}
	}
}
