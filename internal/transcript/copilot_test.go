package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// copilotEvent is one Copilot CLI event line; agent, when not "", marks a sub-agent's.
func copilotEvent(typ, agent string, data map[string]any) string {
	r := map[string]any{"type": typ, "data": data, "id": "e", "timestamp": "2026-05-15T09:00:00.000Z"}
	if agent != "" {
		r["agentId"] = agent
	}
	b, _ := json.Marshal(r)
	return string(b) + "\n"
}

var copilotStartLine = copilotEvent("session.start", "", map[string]any{"sessionId": "c1", "context": map[string]any{"cwd": "/home/ana/shop"}})

func TestCopilotEvents(t *testing.T) {
	tests := []struct {
		name      string
		lines     string
		user, all []string
		cut       int
	}{
		{"typed", copilotEvent("user.message", "", map[string]any{"content": "q", "transformedContent": "<current_datetime>x</current_datetime>\n\nq"}),
			[]string{"q"}, nil, 0},
		{"typed as the user", copilotEvent("user.message", "", map[string]any{"content": "q", "source": "user"}), []string{"q"}, nil, 0},
		{"a skill's prompt is cut", copilotEvent("user.message", "", map[string]any{"content": "skill body", "source": "skill-pdf"}), nil, nil, 1},
		{"an autopilot continuation is cut", copilotEvent("user.message", "", map[string]any{"content": "go on", "isAutopilotContinuation": true}), nil, nil, 1},
		{"the system prompt is never read", copilotEvent("system.message", "", map[string]any{"role": "system", "content": "<!-- dreamd:begin shop -->\n- a memory\n<!-- dreamd:end shop -->"}), nil, nil, 0},
		{"a sub-agent's events are left out", copilotEvent("user.message", "s1", map[string]any{"content": "sub-agent task", "source": "agent-c1"}) +
			copilotEvent("assistant.message", "s1", map[string]any{"content": "done"}) +
			copilotEvent("tool.execution_complete", "s1", map[string]any{"success": false, "error": map[string]any{"message": "x"}}), nil, []string{}, 0},
		{"a sub-agent's answer marked only by its parent tool call", copilotEvent("assistant.message", "", map[string]any{"content": "sub-agent text", "parentToolCallId": "c3"}), nil, []string{}, 0},
		{"an answer and its tool requests", copilotEvent("assistant.message", "", map[string]any{"content": "Checking.",
			"toolRequests": []any{map[string]any{"name": "bash", "arguments": map[string]any{"command": "make lint"}}}}),
			nil, []string{"Checking.", "bash: make lint"}, 0},
		{"a notification and a compaction summary are nothing", copilotEvent("system.notification", "", map[string]any{"content": "x"}) +
			copilotEvent("session.compaction_complete", "", map[string]any{"summaryContent": "summary"}), nil, []string{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "copilot", filepath.Join(t.TempDir(), "c1", "events.jsonl"), []byte(copilotStartLine+tt.lines), "")
			r := mustRead(t, f, Cursor{})
			if got := roleTexts(r, User); !slices.Equal(got, tt.user) {
				t.Errorf("user turns %q, want %q", got, tt.user)
			}
			if all := turnTexts(r); tt.all != nil && !slices.Equal(all, tt.all) && !(len(all) == 0 && len(tt.all) == 0) {
				t.Errorf("turns %q, want %q", all, tt.all)
			}
			cut := 0
			for _, s := range r.Sessions {
				cut += s.Cut
				if s.ID != "c1" || s.Project != "/home/ana/shop" {
					t.Errorf("session %q in %q, want c1 in /home/ana/shop", s.ID, s.Project)
				}
			}
			if len(r.Sessions) > 0 && cut != tt.cut {
				t.Errorf("cut %d, want %d", cut, tt.cut)
			}
		})
	}
}

func TestCopilotToolErrors(t *testing.T) {
	tests := []struct {
		name string
		data map[string]any
		want []string
	}{
		{"a failure", map[string]any{"success": false, "error": map[string]any{"message": "Path does not exist"}}, []string{"Path does not exist"}},
		{"a shell exiting non-zero, recorded as a success", map[string]any{"success": true, "shellExecution": map[string]any{"exitCode": 2},
			"result": map[string]any{"content": "make: *** No rule to make target 'lint'.  Stop."}}, []string{"make: *** No rule to make target 'lint'.  Stop."}},
		{"a shell exiting 0", map[string]any{"success": true, "shellExecution": map[string]any{"exitCode": 0}, "result": map[string]any{"content": "ok"}}, nil},
		{"a success", map[string]any{"success": true, "result": map[string]any{"content": "ok"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := copilotStartLine + copilotEvent("user.message", "", map[string]any{"content": "go"}) + copilotEvent("tool.execution_complete", "", tt.data)
			r := mustRead(t, writeFile(t, "copilot", filepath.Join(t.TempDir(), "c1", "events.jsonl"), []byte(lines), ""), Cursor{})
			var errs []string
			for _, s := range r.Sessions {
				for _, turn := range s.Turns {
					if turn.IsError {
						errs = append(errs, turn.Text)
					}
				}
			}
			if !slices.Equal(errs, tt.want) {
				t.Errorf("tool errors %q, want %q", errs, tt.want)
			}
		})
	}
}

// A session whose events name no cwd (its head lost) is placed by its workspace.yaml.
func TestCopilotWorkspace(t *testing.T) {
	tests := []struct {
		yaml, want string
	}{
		{"id: c1\ncwd: /home/ana/shop\ngit_root: /home/ana/shop\n", "/home/ana/shop"},
		{"cwd: \"/home/ana/my shop\"\n", "/home/ana/my shop"},
		{"cwd: '/home/ana/ana''s shop'\n", "/home/ana/ana's shop"},
		{"cwd: relative/path\n", ""},
		{"name: no cwd\n", ""},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "c1")
		f := writeFile(t, "copilot", filepath.Join(dir, "events.jsonl"), []byte(copilotEvent("user.message", "", map[string]any{"content": "q"})), "")
		if err := os.WriteFile(filepath.Join(dir, "workspace.yaml"), []byte(tt.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, project, err := Peek(copilot{}, f)
		if err != nil || project != tt.want {
			t.Errorf("%q: Peek project %q (%v), want %q", tt.yaml, project, err, tt.want)
		}
		r := mustRead(t, f, Cursor{})
		if len(r.Sessions) != 1 || r.Sessions[0].Project != tt.want || r.Sessions[0].ID != "c1" {
			t.Errorf("%q: sessions %+v, want c1 in %q", tt.yaml, r.Sessions, tt.want)
		}
	}
}

func TestCopilotDiscover(t *testing.T) {
	sessions, skipped := readRecording(t, "copilot", filepath.Join("testdata", "copilot"))
	if len(sessions) != 1 || len(skipped) != 0 {
		t.Fatalf("sessions %+v, skipped %+v: want the one session", sessions, skipped)
	}
	for _, turn := range sessions[0].Turns {
		if strings.Contains(turn.Text, "dreamd:begin") || strings.Contains(turn.Text, "make lint before committing") {
			t.Errorf("the system prompt (dreamd's own block) was read: %q", turn.Text)
		}
	}
}

// An older Copilot CLI's flat <session id>.jsonl is a session too, named by its file.
func TestCopilotFlatSession(t *testing.T) {
	dir := t.TempDir()
	lines := copilotEvent("session.start", "", map[string]any{"version": 1, "producer": "copilot-agent", "copilotVersion": "0.0.372",
		"context": map[string]any{"cwd": "/home/ana/shop"}}) + copilotEvent("user.message", "", map[string]any{"content": "q"})
	writeFile(t, "copilot", filepath.Join(dir, "3f0d1a5e-1111-2222-3333-444444444444.jsonl"), []byte(lines), "")
	writeFile(t, "copilot", filepath.Join(dir, "a1", "notes.jsonl"), []byte(lines), "")
	sessions, skipped := readRecording(t, "copilot", dir)
	if len(sessions) != 1 || sessions[0].ID != "3f0d1a5e-1111-2222-3333-444444444444" || sessions[0].Project != "/home/ana/shop" || len(skipped) != 0 {
		t.Errorf("sessions %+v, skipped %+v: want the flat session, named by its file", sessions, skipped)
	}
}

// A resumed session appends to its events.jsonl: read from the cursor on.
func TestCopilotIncremental(t *testing.T) {
	f := writeFile(t, "copilot", filepath.Join(t.TempDir(), "c1", "events.jsonl"), []byte(copilotStartLine+copilotEvent("user.message", "", map[string]any{"content": "first"})), "")
	r := mustRead(t, f, Cursor{})
	f = appendFile(t, f, copilotEvent("session.resume", "", map[string]any{"context": map[string]any{"cwd": "/elsewhere"}})+
		copilotEvent("user.message", "", map[string]any{"content": "resumed"}))
	r2 := mustRead(t, f, r.Cursor)
	if got := turnTexts(r2); !slices.Equal(got, []string{"resumed"}) {
		t.Fatalf("turns %q", got)
	}
	if s := r2.Sessions[0]; s.ID != "c1" || s.Project != "/home/ana/shop" {
		t.Errorf("session %q in %q: the id and project must come from the cursor", s.ID, s.Project)
	}
}
