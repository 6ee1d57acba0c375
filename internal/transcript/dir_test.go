package transcript

import (
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
	if got := argsDir(`"{\"cmd\":\"npm test\",\"workdir\":\"/home/ana/shop/frontend\"}"`); got != "/home/ana/shop/frontend" {
		t.Errorf("argsDir of a JSON string = %q", got)
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
