package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShellDir(t *testing.T) {
	tests := []struct {
		name, input, cwd, want string
	}{
		{"Codex CLI exec_command", `{"cmd":"npm test","workdir":"/home/ana/shop/frontend","yield_time_ms":10000}`, "", "/home/ana/shop/frontend"},
		{"Codex CLI shell, an argv", `{"command":["bash","-lc","npm test"],"workdir":"/home/ana/shop/frontend","timeout_ms":120000}`, "", "/home/ana/shop/frontend"},
		{"Codex CLI local_shell action", `{"type":"exec","command":["npm","test"],"working_directory":"/home/ana/shop/web"}`, "", "/home/ana/shop/web"},
		{"Gemini CLI run_shell_command", `{"command":"npm test","description":"Run the tests","dir_path":"frontend"}`, "", "frontend"},
		{"Gemini CLI before dir_path, Qwen Code", `{"command":"npm test","directory":"/home/ana/shop/frontend"}`, "", "/home/ana/shop/frontend"},
		{"OpenCode bash", `{"command":"npm test","workdir":"/home/ana/shop/frontend","description":"Runs tests"}`, "", "/home/ana/shop/frontend"},
		{"Claude Code Bash: the shell's directory", `{"command":"npm test","description":"Run the tests"}`, "/home/ana/shop/frontend", "/home/ana/shop/frontend"},
		{"a call's own directory wins over the shell's", `{"command":"npm test","cwd":"api"}`, "/home/ana/shop", "api"},
		{"a call with no command has no working directory", `{"dir_path":"src"}`, "/home/ana/shop", ""},
		{"a read of a file", `{"file_path":"/home/ana/shop/a.go"}`, "/home/ana/shop", ""},
		{"no directory named", `{"command":"npm test"}`, "", ""},
		{"not an object", `"npm test"`, "/home/ana/shop", ""},
		{"a directory past any path's length", `{"command":"ls","workdir":"/` + strings.Repeat("a", 2000) + `"}`, "", ""},
		{"control characters", `{"command":"ls","workdir":"/home/ana/sh\u0007op"}`, "", "/home/ana/shop"},
	}
	for _, tt := range tests {
		if got := shellDir(tt.input, tt.cwd); got != tt.want {
			t.Errorf("%s: shellDir(%s, %q) = %q, want %q", tt.name, tt.input, tt.cwd, got, tt.want)
		}
	}
	if got := callTurn("exec_command", `"{\"cmd\":\"npm test\",\"workdir\":\"/home/ana/shop/frontend\"}"`).Dir; got != "/home/ana/shop/frontend" {
		t.Errorf("the directory of arguments in a JSON string = %q", got)
	}
}

func FuzzShellDir(f *testing.F) {
	f.Add(`{"cmd":"npm test","workdir":"/a/b"}`, "")
	f.Add(`{"command":"npm test"}`, "/a")
	f.Add(`{"command":["bash","-lc","x"],"dir_path":"w\"x"}`, "")
	f.Fuzz(func(t *testing.T, input, cwd string) {
		got := shellDir(input, cwd)
		if len(got) >= maxDir || !utf8.ValidString(got) {
			t.Fatalf("shellDir(%q, %q) = %q", input, cwd, got)
		}
	})
}

// TestCallDirsOfAdapters reads where each adapter's shell calls ran: Codex CLI's workdir, resolved
// against the turn's cwd, or that cwd; Gemini CLI's dir_path, relative to the workspace its
// session names; Claude Code's record cwd.
func TestCallDirsOfAdapters(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) File {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(path)
		return File{Path: path, Size: info.Size(), ModTime: info.ModTime()}
	}
	codex := write("rollout-2026-11-18T09-00-00-019a7c10-1111-7222-8333-444455556667.jsonl", strings.Join([]string{
		`{"timestamp":"2026-11-18T09:00:00Z","type":"session_meta","payload":{"id":"019a7c10-1111-7222-8333-444455556667","cwd":"/home/ana/shop"}}`,
		`{"timestamp":"2026-11-18T09:00:01Z","type":"turn_context","payload":{"cwd":"/home/ana/shop/web"}}`,
		`{"timestamp":"2026-11-18T09:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"run the tests"}]}}`,
		`{"timestamp":"2026-11-18T09:00:03Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"npm test\"}","call_id":"c1"}}`,
		`{"timestamp":"2026-11-18T09:00:04Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"npm test\",\"workdir\":\"e2e\"}","call_id":"c2"}}`,
		`{"timestamp":"2026-11-18T09:00:05Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"go test ./...\"],\"workdir\":\"/home/ana/shop/api\"}","call_id":"c3"}}`,
		`{"timestamp":"2026-11-18T09:00:06Z","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[]}","call_id":"c4"}}`,
	}, "\n")+"\n")
	codex.Kind = "codex"
	gemini := write("gemini/session-2026-11-18T09-00-abcd1234.json", `{"sessionId":"abcd1234","directories":["/home/ana/shop/web"],"messages":[`+
		`{"id":"1","type":"user","content":"run the tests","timestamp":"2026-11-18T09:00:00Z"},`+
		`{"id":"2","type":"gemini","content":"","timestamp":"2026-11-18T09:00:01Z","toolCalls":[`+
		`{"id":"t1","name":"run_shell_command","args":{"command":"npm test","dir_path":"frontend"},"status":"success"},`+
		`{"id":"t2","name":"list_directory","args":{"dir_path":"src"},"status":"success"}]}]}`)
	gemini.Kind = "gemini"
	claude := write("claude/0b8e2d61-3c3f-4c55-9a51-2b3f1a2f0c11.jsonl", strings.Join([]string{
		`{"type":"user","uuid":"u1","sessionId":"0b8e2d61-3c3f-4c55-9a51-2b3f1a2f0c11","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:00Z","message":{"role":"user","content":"run the frontend tests"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"0b8e2d61-3c3f-4c55-9a51-2b3f1a2f0c11","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"x1","name":"Bash","input":{"command":"cd frontend"}}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"0b8e2d61-3c3f-4c55-9a51-2b3f1a2f0c11","cwd":"/home/ana/shop/frontend","timestamp":"2026-11-18T09:00:02Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"x2","name":"Bash","input":{"command":"npm test"}},{"type":"tool_use","id":"x3","name":"Read","input":{"file_path":"/home/ana/shop/frontend/package.json"}}]}}`,
	}, "\n")+"\n")
	claude.Kind = "claude"
	tests := []struct {
		file File
		want []string // each tool turn as "text @ dir"
	}{
		{codex, []string{"exec_command: npm test @ /home/ana/shop/web", "exec_command: npm test @ /home/ana/shop/web/e2e",
			"shell: go test ./... @ /home/ana/shop/api", "update_plan: {\"plan\":[]} @ "}},
		{gemini, []string{"run_shell_command: npm test @ /home/ana/shop/web/frontend", `list_directory: {"dir_path":"src"} @ `}},
		{claude, []string{"Bash: cd frontend @ /home/ana/shop", "Bash: npm test @ /home/ana/shop/frontend",
			"Read: /home/ana/shop/frontend/package.json @ "}},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range mustRead(t, tt.file, Cursor{}).Sessions {
			for _, turn := range s.Turns {
				if turn.Role == Tool && !turn.IsError {
					got = append(got, turn.Text+" @ "+turn.Dir)
				}
			}
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: tool turns\n%s\nwant\n%s", tt.file.Kind, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}
