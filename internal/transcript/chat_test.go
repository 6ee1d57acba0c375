package transcript

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestChatDocuments(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
		warn      bool
	}{
		{"array", `[{"role":"system","content":"sys"},{"role":"user","content":"q"},{"role":"assistant","content":"a"}]`, []string{"q", "a"}, false},
		{"object with messages", `{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"text","text":"q"}]}]}`, []string{"q"}, false},
		{"tool calls and tool output", `[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"run","arguments":"{\"command\":\"make\"}"}}]},{"role":"tool","content":"huge output"}]`, []string{"run: make"}, false},
		{"not messages", `{"hello":"world"}`, nil, true},
		{"broken", `[{"role":"user","content":"q"`, nil, true},
		{"empty", ``, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "chat", filepath.Join(t.TempDir(), "c.json"), []byte(tt.doc), "/p")
			r := mustRead(t, f, Cursor{})
			if got := turnTexts(r); !slices.Equal(got, tt.want) {
				t.Errorf("turns %q, want %q", got, tt.want)
			}
			if (len(r.Warnings) > 0) != tt.warn {
				t.Errorf("warnings %q, want some: %v", r.Warnings, tt.warn)
			}
			if r.Cursor.Offset != f.Size {
				t.Errorf("cursor offset %d, want the whole document (%d)", r.Cursor.Offset, f.Size)
			}
			for _, s := range r.Sessions {
				if s.ID != "c" || s.Project != "/p" || s.Started.IsZero() {
					t.Errorf("session %q in %q at %v, want c in /p dated by mtime", s.ID, s.Project, s.Started)
				}
			}
		})
	}
}

func TestChatLines(t *testing.T) {
	lines := chatLine("system", "sys") + chatLine("user", "q") + "oops\n" + `{"messages":[{"role":"assistant","content":"a"}]}` + "\n"
	f := writeFile(t, "chat", filepath.Join(t.TempDir(), "c.jsonl"), []byte(lines), "/p")
	r := mustRead(t, f, Cursor{})
	if got := turnTexts(r); !slices.Equal(got, []string{"q", "a"}) {
		t.Errorf("turns %q", got)
	}
	if len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], "c.jsonl:3: ") {
		t.Errorf("warnings %q, want one naming line 3", r.Warnings)
	}
}

// An editor client's injected context before the person's words is cut; a message of nothing else
// is no turn, and counted as cut.
func TestChatInjected(t *testing.T) {
	agents := "# AGENTS.md instructions for /home/ana/shop\n\n<INSTRUCTIONS>\n" + strings.Repeat("Use pnpm.\n", 1700) + "</INSTRUCTIONS>\n"
	lines := chatLine("user", agents+"<environment_context>\n<cwd>/home/ana/shop</cwd>\n</environment_context>\nwhy is the cart test flaky?") +
		chatLine("user", "<task>\nadd a retry to the client\n</task>\n<environment_details>\n# VSCode Open Tabs\nsrc/client.ts\n</environment_details>") +
		chatLine("user", "<environment_details>\n# Current Time\n2026-11-26\n</environment_details>")
	f := writeFile(t, "chat", filepath.Join(t.TempDir(), "editor.jsonl"), []byte(lines), "/home/ana/shop")
	r := mustRead(t, f, Cursor{})
	want := []string{"why is the cart test flaky?", "add a retry to the client"}
	if got := roleTexts(r, User); !slices.Equal(got, want) || cutCount(r) != 1 {
		t.Errorf("user turns %q, cut %d; want %q, 1", got, cutCount(r), want)
	}
}

// TestChatReadsClineTask: a Cline task's history under a chat source is read as Cline writes it:
// the person's typed words only, dated by the task's records, in the source's project.
func TestChatReadsClineTask(t *testing.T) {
	root := t.TempDir()
	const rel = "tasks/1777073160794/api_conversation_history.json"
	f := copyFile(t, "chat", filepath.Join("testdata", "cline", filepath.FromSlash(rel)), root, rel, "/home/ana/other")
	r := mustRead(t, f, Cursor{})
	if len(r.Sessions) != 1 {
		t.Fatalf("%d sessions", len(r.Sessions))
	}
	s := r.Sessions[0]
	var users []string
	for _, turn := range s.Turns {
		if turn.Role == User {
			users = append(users, turn.Text)
		}
	}
	want := []string{
		"Our fixtures live in testdata/golden. Run the linter, 'main.go' (see below for file content) is the entry point.",
		"Use golangci-lint run instead.", `Answers to the agent's questions: "Which linter config should I use? Answer with <answer>"="strict"`,
		"The integration tests need docker compose up -d db first. /newtask is not what I want.",
	}
	if !slices.Equal(users, want) {
		t.Errorf("user turns %q, want %q", users, want)
	}
	if s.Kind != "chat" || s.ID != "1777073160794" || s.Project != "/home/ana/other" || s.Started.Format("2006-01-02") != "2026-04-24" {
		t.Errorf("session %s %s in %q started %v", s.Kind, s.ID, s.Project, s.Started)
	}
	if id, _, _ := Peek(chat{}, f); id != s.ID {
		t.Errorf("Peek id %q, Read id %q", id, s.ID)
	}
}
