package transcript

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// qwenRecord is one Qwen Code chat record of the given type, provenance and subtype ("" leaves a
// field out) with the given message parts.
func qwenRecord(typ, provenance, subtype string, parts ...map[string]any) string {
	r := map[string]any{"uuid": "u", "sessionId": "q1", "timestamp": "2026-05-15T10:00:00Z", "type": typ,
		"cwd": "/home/ana/shop", "message": map[string]any{"role": "user", "parts": parts}}
	if provenance != "" {
		r["provenance"] = provenance
	}
	if subtype != "" {
		r["subtype"] = subtype
	}
	b, _ := json.Marshal(r)
	return string(b) + "\n"
}

func qwenText(s string) map[string]any { return map[string]any{"text": s} }

func TestQwenRecords(t *testing.T) {
	tests := []struct {
		name      string
		lines     string
		user, all []string
		cut       int
	}{
		{"typed", qwenRecord("user", "real_user", "", qwenText("fixtures live in testdata/golden")),
			[]string{"fixtures live in testdata/golden"}, nil, 0},
		{"no provenance (older Qwen Code) is typed", qwenRecord("user", "", "", qwenText("q")), []string{"q"}, nil, 0},
		{"typed while busy", qwenRecord("user", "real_user", "mid_turn_user_message", qwenText("also this")), []string{"also this"}, nil, 0},
		{"a notification is cut", qwenRecord("user", "system", "notification", qwenText("<task-notification>done</task-notification>")), nil, nil, 1},
		{"a cron prompt is cut", qwenRecord("user", "system", "cron", qwenText("check the build")), nil, nil, 1},
		{"a goal's runtime message is cut", qwenRecord("user", "goal_runtime", "goal_runtime", qwenText("keep going")), nil, nil, 1},
		{"referenced files are cut", qwenRecord("user", "real_user", "", qwenText("see @a.go"), qwenText("\n--- Content from referenced files ---"), qwenText("package a")),
			[]string{"see @a.go"}, nil, 0},
		{"an MCP resource is cut", qwenRecord("user", "real_user", "", qwenText("see @db:schema\n--- Content from MCP resource db [schema] ---\nCREATE TABLE")),
			[]string{"see @db:schema"}, nil, 0},
		{"reminders and hook context are cut", qwenRecord("user", "real_user", "", qwenText("<system-reminder>\ndate\n</system-reminder>\nq"),
			qwenText("<qwen:user-prompt-submit-context>\nhook said\n</qwen:user-prompt-submit-context>")), []string{"q"}, nil, 0},
		{"only a reminder is cut", qwenRecord("user", "real_user", "", qwenText("<system-reminder>x</system-reminder>")), nil, nil, 1},
		{"a sidechain record is not read", `{"type":"user","isSidechain":true,"sessionId":"q1","cwd":"/home/ana/shop","message":{"parts":[{"text":"sub-agent prompt"}]}}` + "\n", nil, nil, 0},
		{"thoughts are left out", qwenRecord("assistant", "assistant_output", "", map[string]any{"text": "hmm", "thought": true}, qwenText("answer")),
			nil, []string{"answer"}, 0},
		{"a tool call is a line", qwenRecord("assistant", "assistant_output", "", map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": "make lint"}}}),
			nil, []string{"run_shell_command: make lint"}, 0},
		{"a telemetry record is nothing", qwenRecord("system", "system", "ui_telemetry"), nil, nil, 0},
		{"a successful tool result is left out", qwenRecord("tool_result", "tool_result", "", map[string]any{"functionResponse": map[string]any{"name": "read_file", "response": map[string]any{"output": "x"}}}), nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "qwen", filepath.Join(t.TempDir(), "-home-ana-shop", "chats", "q1.jsonl"), []byte(tt.lines), "")
			r := mustRead(t, f, Cursor{})
			if got := roleTexts(r, User); !slices.Equal(got, tt.user) {
				t.Errorf("user turns %q, want %q", got, tt.user)
			}
			if tt.all != nil && !slices.Equal(turnTexts(r), tt.all) {
				t.Errorf("turns %q, want %q", turnTexts(r), tt.all)
			}
			cut := 0
			for _, s := range r.Sessions {
				cut += s.Cut
				if s.ID != "q1" || s.Project != "/home/ana/shop" {
					t.Errorf("session %q in %q, want q1 in /home/ana/shop", s.ID, s.Project)
				}
			}
			if len(r.Sessions) > 0 && cut != tt.cut {
				t.Errorf("cut %d, want %d", cut, tt.cut)
			}
		})
	}
}

// A failed tool is a tool error, whether Qwen Code says so by its status or by a shell's exit code.
func TestQwenToolErrors(t *testing.T) {
	failed := func(result map[string]any) string {
		r := map[string]any{"type": "tool_result", "sessionId": "q1", "cwd": "/p", "toolCallResult": result,
			"message": map[string]any{"parts": []any{map[string]any{"functionResponse": map[string]any{"name": "run_shell_command", "response": map[string]any{"error": "the error given to the model"}}}}}}
		b, _ := json.Marshal(r)
		return string(b) + "\n"
	}
	tests := []struct {
		name, line, want string
	}{
		{"the shell's output", failed(map[string]any{"status": "error", "resultDisplay": map[string]any{"exitCode": 2, "output": "make: *** No rule to make target 'lint'."}}), "make: *** No rule to make target 'lint'."},
		{"the error shown", failed(map[string]any{"status": "error", "resultDisplay": "File not found: a.go"}), "File not found: a.go"},
		{"the error given to the model", failed(map[string]any{"status": "error", "error": map[string]any{}}), "the error given to the model"},
		{"a silent shell command", failed(map[string]any{"status": "error", "resultDisplay": map[string]any{"exitCode": 2, "output": "", "text": "Command: make lint\nOutput: (empty)\nExit Code: 2"}}), "exited with code 2"},
		{"a non-zero exit reported as success", failed(map[string]any{"status": "success", "resultDisplay": map[string]any{"exitCode": 1, "output": "FAIL"}}), "FAIL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "qwen", filepath.Join(t.TempDir(), "-p", "chats", "q1.jsonl"), []byte(qwenRecord("user", "real_user", "", qwenText("go"))+tt.line), "")
			r := mustRead(t, f, Cursor{})
			var errs []string
			for _, s := range r.Sessions {
				for _, turn := range s.Turns {
					if turn.IsError {
						errs = append(errs, turn.Text)
					}
				}
			}
			if !slices.Equal(errs, []string{tt.want}) {
				t.Errorf("tool errors %q, want %q", errs, tt.want)
			}
		})
	}
}

func TestQwenDiscover(t *testing.T) {
	r, skipped := readRecording(t, "qwen", filepath.Join("testdata", "qwen"))
	if len(r) != 1 || r[0].ID != "5b1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f" {
		t.Errorf("sessions %+v, want the one chat", r)
	}
	if len(skipped) != 1 || filepath.Base(filepath.Dir(filepath.Dir(skipped[0].Path))) != "subagents" {
		t.Errorf("skipped %+v, want the sub-agent transcript", skipped)
	}
}

// A sub-agent's transcript named on its own (a source pointing at it) is a sub-thread.
func TestQwenSubagentPeek(t *testing.T) {
	f := copyFile(t, "qwen", filepath.Join("testdata", "qwen", "-home-ana-shop", "subagents", "5b1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f", "agent-general-purpose-call_3.jsonl"),
		t.TempDir(), "agent.jsonl", "")
	if _, _, err := Peek(qwen{}, f); !errors.Is(err, ErrSubThread) {
		t.Errorf("Peek: %v, want ErrSubThread", err)
	}
	if r := mustRead(t, f, Cursor{}); len(r.Sessions) != 0 {
		t.Errorf("read %d sessions from a sub-agent transcript", len(r.Sessions))
	}
}

// A session resumed later is read from the cursor on, with the id and project the cursor carries.
func TestQwenIncremental(t *testing.T) {
	f := writeFile(t, "qwen", filepath.Join(t.TempDir(), "-p", "chats", "q1.jsonl"), []byte(qwenRecord("user", "real_user", "", qwenText("first"))), "")
	r := mustRead(t, f, Cursor{})
	f = appendFile(t, f, `{"type":"user","provenance":"real_user","timestamp":"2026-05-16T08:00:00Z","message":{"parts":[{"text":"resumed"}]}}`+"\n")
	r2 := mustRead(t, f, r.Cursor)
	if got := turnTexts(r2); !slices.Equal(got, []string{"resumed"}) {
		t.Fatalf("turns %q", got)
	}
	if s := r2.Sessions[0]; s.ID != "q1" || s.Project != "/home/ana/shop" {
		t.Errorf("session %q in %q: the id and project must come from the cursor", s.ID, s.Project)
	}
}
