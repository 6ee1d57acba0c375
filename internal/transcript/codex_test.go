package transcript

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

const rolloutName = "rollout-2026-05-15T09-00-00-0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b.jsonl"

func TestCodexTwins(t *testing.T) {
	tests := []struct {
		name  string
		lines string
		want  []string
	}{
		{"event then item", codexEvent("user_message", "use pnpm") + codexMessage("user", "use pnpm"), []string{"use pnpm"}},
		{"item then event", codexMessage("assistant", "done") + codexEvent("agent_message", "done"), []string{"done"}},
		{"event only (older rollouts, subagent heads)", codexEvent("user_message", "hello"), []string{"hello"}},
		{"a repeated answer is kept", codexEvent("user_message", "yes") + codexMessage("user", "yes") +
			codexEvent("agent_message", "ok") + codexMessage("assistant", "ok") +
			codexEvent("user_message", "yes") + codexMessage("user", "yes"), []string{"yes", "ok", "yes"}},
		{"two items are two turns", codexMessage("user", "again") + codexMessage("user", "again"), []string{"again", "again"}},
		{"injected context left out", codexMessage("user", "<environment_context>\n<cwd>/x</cwd>\n</environment_context>") +
			codexMessage("user", "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>use pnpm</INSTRUCTIONS>") +
			codexMessage("user", "<user_instructions>be brief</user_instructions>"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(codexMeta("id", "/x")+tt.lines), "")
			if got := turnTexts(mustRead(t, f, Cursor{})); !slices.Equal(got, tt.want) {
				t.Errorf("turns %q, want %q", got, tt.want)
			}
		})
	}
}

// The context Codex injects as user records (AGENTS.md, the environment, user instructions) is
// no turn, but each record is counted as cut: once when Codex records it twice, as a
// response_item and as an event_msg.
func TestCodexInjectedCut(t *testing.T) {
	env := "<environment_context>\n  <cwd>/x</cwd>\n</environment_context>"
	agents := "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\nuse pnpm\n</INSTRUCTIONS>"
	mixed := jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
		"payload": map[string]any{"type": "message", "role": "user", "content": []any{
			map[string]any{"type": "input_text", "text": env}, map[string]any{"type": "input_text", "text": "fix it"}}}})
	tests := []struct {
		name  string
		lines string
		user  []string
		cut   int
	}{
		{"AGENTS.md and the environment", codexMessage("user", agents) + codexMessage("user", env) + codexMessage("user", "fix it"),
			[]string{"fix it"}, 2},
		{"user instructions", codexMessage("user", "<user_instructions>be brief</user_instructions>") + codexEvent("user_message", "hi"),
			[]string{"hi"}, 1},
		{"a record and its event twin count once", codexMessage("user", env) + codexEvent("user_message", env) +
			codexEvent("user_message", "fix it") + codexMessage("user", "fix it"), []string{"fix it"}, 1},
		{"the same context given again counts again", codexMessage("user", env) + codexMessage("user", "fix it") + codexMessage("user", env),
			[]string{"fix it"}, 2},
		{"typed words beside injected context: kept, nothing cut", mixed, []string{"fix it"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(codexMeta("id", "/x")+tt.lines), "")
			r := mustRead(t, f, Cursor{})
			if user := roleTexts(r, User); !slices.Equal(user, tt.user) || cutCount(r) != tt.cut {
				t.Errorf("user turns %q, cut %d; want %q, %d", user, cutCount(r), tt.user, tt.cut)
			}
		})
	}
}

// A subagent thread is left out, also when read from the middle, where its head is not read.
func TestCodexSubagent(t *testing.T) {
	meta := `{"timestamp":"2026-01-03T04:05:10.000Z","type":"session_meta","payload":{"id":"sub","cwd":"/x","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p"}}}}}` + "\n"
	first := meta + codexEvent("user_message", "Inspect fixtures.")
	f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(first), "")
	r := mustRead(t, f, Cursor{})
	f = appendFile(t, f, codexEvent("agent_message", "The fixtures are synthetic."))
	r2 := mustRead(t, f, r.Cursor)
	if len(r.Sessions)+len(r2.Sessions) != 0 || r2.Cursor.Offset != f.Size {
		t.Errorf("subagent thread read as %+v then %+v; want nothing, cursor at the end", r.Sessions, r2.Sessions)
	}
	if _, _, err := Peek(codex{}, f); !errors.Is(err, ErrSubThread) {
		t.Errorf("Peek: %v, want ErrSubThread", err)
	}
}

func TestCodexFailure(t *testing.T) {
	tests := []struct {
		output string // the output field, as JSON
		failed bool
	}{
		{`"{\"output\":\"FAIL\",\"metadata\":{\"exit_code\":1}}"`, true},
		{`"{\"output\":\"ok\",\"metadata\":{\"exit_code\":0}}"`, false},
		{`"Exit code: 2\nWall time: 1s\nOutput:\nboom"`, true},
		{`"Exit code: 0\nOutput:\nfine"`, false},
		{`"plain output"`, false},
		{`"{\"output\":\"x\",\"metadata\":{\"exit_code\": 127}}"`, true},
		{`{"content":"fine","success":true}`, false},
		{`{"content":"denied by sandbox","success":false}`, true},
		{`[{"type":"output_text","text":"Done!"}]`, false},
	}
	for _, tt := range tests {
		_, failed := codexFailure(tt.output)
		if failed != tt.failed {
			t.Errorf("codexFailure(%s) = %v, want %v", tt.output, failed, tt.failed)
		}
	}
}

func TestCodexFallbackID(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/s/2026/05/15/" + rolloutName, "0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b"},
		{"/s/rollout-44444444-4444-4444-8444-444444444444.jsonl", "44444444-4444-4444-8444-444444444444"},
		{"/s/rollout-short.jsonl", "rollout-short"},
	}
	for _, tt := range tests {
		if got := codexFallbackID(tt.path); got != tt.want {
			t.Errorf("codexFallbackID(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
