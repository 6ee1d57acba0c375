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
		{"a run on files the failed one did not name is another task",
			[]string{"tool: Bash: mix precommit", "error: warning: Backoffice.Notifications.create_email/1 is undefined or private. Did you mean:", "tool: Bash: mix format lib/backoffice/products/tld.ex priv/repo/migrations/1_create_tlds.exs"},
			nil},
		{"the status or the logs the agent looked at next are no other way of running it",
			[]string{"tool: Bash: openclaw restart", unknownRestart, "tool: Bash: openclaw status", "tool: Bash: docker compose logs --tail 50 gateway"},
			nil},
		{"a daemon's status after its start failed",
			[]string{"tool: Bash: gt daemon start", "error: Error: daemon already running (pid 4242)", "tool: Bash: gt daemon status"},
			nil},
		{"a PowerShell script's -Help after it failed",
			[]string{`tool: Bash: powershell.exe -NoProfile -Command .specify\scripts\new.ps1 -Json "x"`, "error: The term is not recognized", `tool: Bash: powershell.exe -NoProfile -Command .specify\scripts\new.ps1 -Help`},
			nil},
		{"another command line PowerShell ran is no other way of running the first",
			[]string{`tool: Bash: powershell.exe -NoProfile -Command .specify\scripts\new.ps1 "x" -Json`, "error: Usage: new.ps1 [-Json] <description>", `tool: Bash: powershell.exe -NoProfile -Command Get-Command pwsh`},
			nil},
		{"a query that failed, then another query",
			[]string{"tool: Bash: gt deacon logs", "error: Error: unknown command \"logs\" for \"gt deacon\"", "tool: Bash: gt deacon health-state"},
			nil},
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
		{"an option this machine's program does not have, in a line of several commands",
			[]string{"tool: Bash: rsync -a --no-dereference --exclude=skills ~/.claude/ /Users/ana/conf/.claude/ && rm -rf ~/.claude && ln -s /Users/ana/conf/.claude ~/.claude",
				"error: Exit code 1\nrsync: unrecognized option `--no-dereference'\nusage: rsync [-0468BCDEFHIKLOPRSTWVabcdghiklnopqrtuvxyz] [-e program]",
				"assistant: macOS's rsync has no such option.", "tool: Bash: ls -la ~/.claude/",
				"tool: Bash: rsync -a --exclude='skills' ~/.claude/ /Users/ana/conf/.claude/ && rm -rf ~/.claude && ln -s /Users/ana/conf/.claude ~/.claude"},
			[]string{"This machine's `rsync` has no `--no-dereference` option (unrecognized option); leave it out"}},
		{"BSD's way of refusing an option",
			[]string{"tool: Bash: readlink -f build/out", "error: readlink: illegal option -- f\nusage: readlink [-n] [file ...]", "tool: Bash: readlink build/out"},
			[]string{"This machine's `readlink` has no `-f` option (illegal option); leave it out"}},
		{"argparse's",
			[]string{"tool: Bash: vllm serve model --enable-reasoning --port 8000", "error: usage: vllm [-h] [-v] {chat,complete,serve}\nvllm: error: unrecognized arguments: --enable-reasoning",
				"assistant: The installed vLLM version no longer has that flag.", "tool: Bash: vllm serve model --reasoning-parser deepseek_r1 --port 8000"},
			[]string{"This machine's `vllm` has no `--enable-reasoning` option (unrecognized argument); leave it out"}},
		{"a script the shell ran as one line refuses options that were another command's",
			[]string{"tool: Bash: python -m uvicorn app.main:app --port 8000 &\nsleep 3\ncurl -s http://localhost:8000/health | head -20\npkill -f uvicorn",
				"error: Exit code 1 head: unknown option -- f Try 'head --help' for more information. sleep: unknown option -- s",
				"tool: Bash: timeout 5 python -m uvicorn app.main:app --port 8000 2>&1 | head -20"},
			nil},
		{"a retry that still gives the option says nothing",
			[]string{"tool: Bash: readlink -f build/out", "error: readlink: illegal option -- f", "tool: Bash: readlink -f -n build/out"},
			nil},
		{"another program in its place says nothing of the option",
			[]string{"tool: Bash: readlink -f build/out", "error: readlink: illegal option -- f", "tool: Bash: realpath build/out"},
			nil},
		{"an unquoted route in zsh",
			[]string{"tool: Bash: git add web/src/app/page.tsx web/src/app/v/[id]/page.tsx", "error: Exit code 1\n(eval):1: no matches found: web/src/app/v/[id]/page.tsx",
				"tool: Bash: git add 'web/src/app/page.tsx' 'web/src/app/v/[id]/page.tsx' && git commit -m \"fix: keep the footer on one line\""},
			[]string{"In this shell (zsh) a path with `[`, `]`, `*` or `?` in it (a route's `[id]`) must be quoted: unquoted, zsh says \"no matches found\" and runs nothing"}},
		{"a glob that matched nothing, given up",
			[]string{"tool: Bash: rm build/*.tmp", "error: zsh: no matches found: build/*.tmp", "tool: Bash: ls build"},
			nil},
		{"a line of several commands, one of which refused an option",
			[]string{"tool: run_shell_command: docker exec -u root api chown -R 1000:1000 /data && docker logs api 2>&1 | grep -E \"ERROR\" --tail 50",
				"error: grep: unrecognized option '--tail' Usage: grep [OPTION]... PATTERNS [FILE]...", "assistant: Wait, `grep` doesn't support `--tail`.",
				"tool: run_shell_command: docker logs api --tail 200 2>&1 | grep -iE \"ERROR\" -C 5"},
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
