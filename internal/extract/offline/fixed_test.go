package offline

import (
	"strings"
	"testing"
)

// TestFixedEvidence keeps a command that failed and the same command written another way that
// worked right after it, and nothing else the agent tried.
const backslashRule = "In this shell a Windows path must not end in `\\` before its closing quote; drop it or use `/c/…` paths"

func TestFixedEvidence(t *testing.T) {
	const unknownRestart = "error: error: unknown command 'restart' (Did you mean reset?)"
	tests := []struct {
		name  string
		turns []string
		want  []string
	}{
		{"a Windows path Git Bash needs with slashes",
			[]string{`tool: Bash: node d:\work\report.js`, "error: Error: Cannot find module 'd:workreport.js'", "tool: Bash: node /d/work/report.js"},
			[]string{"`node d:\\work\\report.js` fails here; `node /d/work/report.js` works"}},
		{"an unmatched quote the shell refused",
			[]string{`tool: Bash: cmd.exe /c start "" "D:\app\out\"`, "error: /usr/bin/bash: eval: line 1: unexpected EOF while looking for matching `\"'", `tool: Bash: cmd.exe /c start "D:\app\out"`},
			[]string{backslashRule}},
		{"a subcommand the program does not have",
			[]string{"tool: Bash: openclaw restart", unknownRestart, "assistant: Let me look at its commands.", "tool: Bash: openclaw gateway stop"},
			[]string{"`openclaw restart` fails here; `openclaw gateway stop` works"}},
		{"another script is the task's next step",
			[]string{"tool: Bash: python test_features.py", "error: Traceback (most recent call last):", "tool: Bash: python main.py"},
			nil},
		{"another device is too",
			[]string{"tool: Bash: adb tcpip 5555", "error: error: no devices/emulators found", "tool: Bash: adb connect 192.168.1.20:5555"},
			nil},
		{"an edit between them is what fixed it",
			[]string{`tool: Bash: node d:\work\report.js`, "error: Error: Cannot find module", `tool: Edit: d:\work\report.js`, "tool: Bash: node /d/work/report.js"},
			nil},
		{"the person speaking between them is a new request",
			[]string{"tool: Bash: openclaw restart", unknownRestart, "user: just stop it", "tool: Bash: openclaw gateway stop"},
			nil},
		{"a call the person refused never ran",
			[]string{"tool: Bash: openclaw restart", "error: The user doesn't want to proceed with this tool use. The tool use was rejected.", "tool: Bash: openclaw gateway stop"},
			nil},
		{"an error that may be another call's",
			[]string{"tool: Bash: openclaw restart", "tool: Bash: openclaw status", unknownRestart, "tool: Bash: openclaw gateway stop"},
			nil},
		{"an option that makes it another run",
			[]string{"tool: Bash: npm install docx", "error: npm error code 1", "tool: Bash: npm install --global docx"},
			nil},
		{"a trailing backslash before its quote breaks any command in Git Bash",
			[]string{`tool: Bash: cmd /c "dir /a D:\downloads\"`, "error: /usr/bin/bash: eval: line 1: unexpected EOF while looking for matching `\"'", `tool: Bash: cmd /c "dir /x D:\"`},
			[]string{backslashRule}},
		{"looking around is not running anything",
			[]string{`tool: Bash: ls d:\work`, "error: ls: cannot access 'd:work': No such file or directory", "tool: Bash: ls /d/work"},
			nil},
		{"PowerShell looking around, whatever its case",
			[]string{`tool: Bash: Get-ChildItem d:\work`, "error: Cannot find path", "tool: Bash: Get-ChildItem /d/work"},
			nil},
		{"asking a program for its help is not running it",
			[]string{"tool: Bash: skill-seekers scrape --help", "error: usage: skill-seekers [-h]", "tool: Bash: skill-seekers github --help"},
			nil},
		{"a commit message is the day's",
			[]string{`tool: Bash: git commit -m "fix the login form and its tests"`, "error: husky - pre-commit hook exited with code 1, usage: husky", `tool: Bash: git commit --no-verify -m "fix the login form and its tests"`},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, nil, toolSession("s1", tt.turns...))
			var got []string
			for _, op := range res.Response.Operations {
				got = append(got, strings.TrimSuffix(op.Description, "."))
				if !strings.Contains(op.Body, "session s1 on 2026-11-18") || !strings.Contains(op.Body, "worked right after it") {
					t.Errorf("%s does not say what established it: body %q", op.Name, op.Body)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("memories:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
