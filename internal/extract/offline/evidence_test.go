package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/transcript"
)

// toolSession is a session of turns given as "role: text"; "error: …" is a tool result that
// reported an error.
func toolSession(id string, lines ...string) extract.Session {
	s := extract.Session{ID: id, Source: "claude", Project: "/home/ana/shop", Date: day(18)}
	for _, l := range lines {
		role, text, _ := strings.Cut(l, ": ")
		t := extract.Turn{Role: "tool", Text: text}
		switch role {
		case "user", "assistant":
			t.Role = transcript.Role(role)
		case "error":
			t.IsError = true
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

func TestCommandEvidence(t *testing.T) {
	tests := []struct {
		name  string
		turns []string
		want  []string // descriptions, in name order
	}{
		{"a test command that worked, in its directory",
			[]string{"user: run the frontend tests", "tool: Bash: cd frontend && npm test 2>&1 | tail -20", "assistant: All 40 tests pass."},
			[]string{"To run the tests, run `npm test` in `frontend/`"}},
		{"sudo with no terminal to ask the password in",
			[]string{"tool: Bash: sudo npm i -g pnpm", "error: sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper\nsudo: a password is required"},
			[]string{"`sudo` cannot ask for a password in the agent's shell on this machine: the person runs what needs it in their own terminal"}},
		{"a program's own password prompt is no sudo's",
			[]string{"tool: Bash: psql -U app", "error: psql: error: a password is required"},
			nil},
		{"a command that failed is not remembered",
			[]string{"tool: Bash: npm test", "error: FAIL src/app.test.ts\nexpected 2, got 3"},
			nil},
		{"the program that replaced one the shell did not have",
			[]string{"tool: Bash: python -m pytest -q", "error: /bin/sh: 1: python: command not found", "tool: Bash: python3 -m pytest -q"},
			[]string{"To run the tests, run `python3 -m pytest -q`", "Use `python3`, not `python`"}},
		{"another name of a missing program, asked to do something of its own",
			[]string{"tool: Bash: python - <<'PY'\nprint(1)\nPY", "error: Exit code 127\n/bin/bash: line 1: python: command not found", "tool: Bash: python3 - <<'PY'\nprint(bool(1))\nPY"},
			[]string{"Use `python3`, not `python`"}},
		{"the Store's alias for Python in Git Bash, and the variables a call sets",
			[]string{`tool: Bash: PYTHONPATH="E:/x/hooks" python3 -c "from core import rules"`, "error: Exit code 49", `tool: Bash: cd "E:/x" && PYTHONPATH="E:/x/hooks" python -c "from core import load; print('OK')"`},
			[]string{"Use `python`, not `python3`"}},
		{"the interpreter's full path in place of the alias",
			[]string{`tool: Bash: python -c "print('hello world')"`, "error: Exit code 49", `tool: Bash: "C:/Users/ana/AppData/Local/Programs/Python/Python312/python.exe" -c "print('hello')" 2>&1`},
			[]string{"Use `C:/Users/ana/AppData/Local/Programs/Python/Python312/python.exe`, not `python`"}},
		{"a script python could not open says nothing of python",
			[]string{"tool: Bash: python3 tools/gen.py", "error: python3: can't open file 'tools/gen.py': [Errno 2] No such file or directory", "tool: Bash: python scripts/gen.py"},
			nil},
		{"python not found says little alone: the Store's aliases answer in turns",
			[]string{"tool: Bash: python -c \"print(1)\"", "error: /usr/bin/bash: line 1: python: command not found", "tool: Bash: cat README.md"},
			nil},
		{"a program that ran before it was not found is there",
			[]string{"tool: Bash: gh pr list", "assistant: Two are open.", "tool: Bash: gh pr view 3", "error: bash: gh: command not found"},
			nil},
		{"another program for a missing one's own task is no other name of it, only a program not installed",
			[]string{"tool: Bash: node -e \"console.log(1)\"", "error: /bin/sh: node: command not found", "tool: Bash: python3 -c \"print(1)\""},
			[]string{"`node` is not installed in this project's shell"}},
		{"a linter not installed, and the one that linted in its place",
			[]string{"tool: Bash: golangci-lint run ./...", "error: zsh:1: command not found: golangci-lint", "tool: Bash: go vet ./..."},
			[]string{"`golangci-lint` is not installed in this project's shell; to lint, run `go vet ./...`"}},
		{"a program installed after it was not found was there for the rest",
			[]string{"tool: Bash: shellcheck -x install.sh", "error: bash: shellcheck: command not found", "tool: Bash: apt-get install -y shellcheck", "tool: Bash: shellcheck -x install.sh"},
			nil},
		{"a workspace package built with cargo, and a Docker image",
			[]string{"tool: Bash: cargo build -p orchestrator", "tool: Bash: cd ocodex-labs && docker build -t ocodex:local ocodex/"},
			[]string{"To build, run `cargo build -p orchestrator`", "To build, run `docker build -t ocodex:local ocodex/` in `ocodex-labs/`"}},
		{"Maven's clean package without the tests, and Leiningen's tests",
			[]string{"tool: Bash: mvn clean package -DskipTests", "tool: Bash: lein test"},
			[]string{"To build, run `mvn clean package -DskipTests`", "To run the tests, run `lein test`"}},
		// a script's own parse is no project command, even checked after each edit: the judges of
		// sealed sets A and D did not want `bash -n scripts/x.sh` loaded
		{"a script's syntax checked after each edit",
			[]string{"tool: Bash: bash -n instalador.sh && echo OK", "tool: Edit: instalador.sh", "tool: Bash: bash -n instalador.sh"},
			nil},
		{"Flutter's, Swift's and Python's own test, analyze and build commands",
			[]string{"tool: Bash: flutter analyze", "tool: Bash: flutter test", "tool: Bash: flutter build apk --release"},
			[]string{"To build, run `flutter build apk --release`", "To lint, run `flutter analyze`", "To run the tests, run `flutter test`"}},
		{"unittest's discovery, cargo's check and a formatter's check",
			[]string{"tool: Bash: python3 -m unittest discover", "tool: Bash: cargo check --workspace", "tool: Bash: cargo fmt --all --check"},
			[]string{"To lint, run `cargo fmt --all --check`", "To run the tests, run `python3 -m unittest discover`", "To type-check, run `cargo check --workspace`"}},
		{"one test file is the day's",
			[]string{"tool: Bash: python3 -m unittest tests.test_api", "tool: Bash: flutter test test/widget_test.dart"},
			nil},
		{"sudo that worked later, once set up without a password",
			[]string{"tool: Bash: sudo apt-get install -y jq", "error: sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper",
				"user: I added NOPASSWD for you", "tool: Bash: sudo apt-get install -y jq"},
			nil},
		{"a program that needs a terminal",
			[]string{"tool: Bash: tmux attach -t hq-mayor", "error: Exit code 1\nopen terminal failed: not a terminal"},
			[]string{"`tmux attach` needs a terminal, which the agent's shell on this machine does not have: the person runs it in their own"}},
		{"a compose service restarted",
			[]string{"tool: Bash: docker-compose restart backend"},
			[]string{"To start or restart the services, run `docker-compose restart backend`"}},
		{"the Go caches a sandbox needs stay with the command",
			[]string{"tool: exec_command: GOCACHE=$(pwd)/.cache/go-build GOMODCACHE=$(pwd)/.cache/go-mod go test ./..."},
			[]string{"To run the tests, run `GOCACHE=$(pwd)/.cache/go-build GOMODCACHE=$(pwd)/.cache/go-mod go test ./...`"}},
		{"exit 49 of another program is its own",
			[]string{"tool: Bash: check --all", "error: Exit code 49", "tool: Bash: check2 --all"},
			nil},
		{"a retry with another program after a real failure is no replacement",
			[]string{"tool: Bash: npm run build", "error: Error: Cannot find module 'vite'", "tool: Bash: pnpm run build"},
			[]string{"To build, run `pnpm run build`"}},
		{"an error after calls run at once fails them all",
			[]string{"tool: Bash: npm test", "tool: Bash: npm run lint", "error: 3 problems"},
			nil},
		{"a command of the day is not how the project is tested",
			[]string{"tool: Bash: go test ./internal/store -run TestLoad -v", "tool: Bash: cat README.md"},
			nil},
		{"a directory outside the project is not the project's",
			[]string{"tool: Bash: cd /tmp/scratch && make test", "tool: Bash: cd ../other && make test"},
			nil},
		{"a directory under the home the project is in",
			[]string{"tool: Bash: cd ~/shop/api && go test ./..."},
			[]string{"To run the tests, run `go test ./...` in `api/`"}},
		{"one under the home outside the project is not the project's",
			[]string{"tool: Bash: cd ~/scratch && make test"},
			nil},
		{"an absolute directory inside the project is made relative",
			[]string{"tool: run_shell_command: cd /home/ana/shop/api && go test ./..."},
			[]string{"To run the tests, run `go test ./...` in `api/`"}},
		{"the PATH a command needs on this machine is part of it",
			[]string{"tool: Bash: export PATH=\"$HOME/.local/nodejs/bin:$PATH\" && npm run build 2>&1"},
			[]string{"To build, run `export PATH=\"$HOME/.local/nodejs/bin:$PATH\" && npm run build`"}},
		{"a PATH that makes the program found replaces no program",
			[]string{"tool: Bash: npm run build", "error: npm: command not found", "tool: Bash: export PATH=\"$HOME/.local/nodejs/bin:$PATH\" && npm run build"},
			[]string{"To build, run `export PATH=\"$HOME/.local/nodejs/bin:$PATH\" && npm run build`"}},
		{"so is the virtual environment",
			[]string{"tool: Bash: cd backend && source .venv/bin/activate && pytest -q"},
			[]string{"To run the tests, run `source .venv/bin/activate && pytest -q` in `backend/`"}},
		{"a deploy command that worked",
			[]string{"user: deploy the functions", "tool: Bash: firebase deploy --only functions 2>&1"},
			[]string{"To deploy, run `firebase deploy --only functions`"}},
		{"a solution's build in its configuration",
			[]string{"tool: exec_command: dotnet build MicroCalc.sln --configuration Release --no-restore"},
			[]string{"To build, run `dotnet build MicroCalc.sln --configuration Release --no-restore`"}},
		{"one project of a solution, built to check the change of the day, is not the solution's build",
			[]string{"tool: exec_command: dotnet build src/MicroCalc.Core/MicroCalc.Core.csproj --configuration Release --no-restore"},
			nil},
		{"the project file at the root is the project's",
			[]string{"tool: exec_command: dotnet test Shop.csproj"},
			[]string{"To run the tests, run `dotnet test Shop.csproj`"}},
		{"an Android app's build",
			[]string{"tool: Bash: cd android && ./gradlew assembleDebug 2>&1 | tail -20", "assistant: BUILD SUCCESSFUL in 41s."},
			[]string{"To build, run `./gradlew assembleDebug` in `android/`"}},
		{"the tests of a directory",
			[]string{"tool: Bash: pytest scripts/tests/ -q"},
			[]string{"To run the tests, run `pytest scripts/tests/ -q`"}},
		{"a service's containers rebuilt",
			[]string{"tool: run_shell_command: docker compose up -d --build open-claw"},
			[]string{"To start or restart the services, run `docker compose up -d --build open-claw`"}},
		{"pm2's processes restarted",
			[]string{"tool: shell_command: pm2 restart feishu"},
			[]string{"To start or restart the services, run `pm2 restart feishu`"}},
		{"a run whose pipe hid its failure, run again at once behind an install",
			[]string{"tool: Bash: python -m pytest tests/ -v 2>&1 | head -150", "tool: Bash: pip install pytest -q && python -m pytest tests/ -v 2>&1 | head -200", "error: externally-managed-environment",
				"tool: Bash: source .venv/bin/activate && PYTHONPATH=. python -m pytest tests/ -v 2>&1 | tail -30", "assistant: All 12 tests passed."},
			[]string{"To run the tests, run `source .venv/bin/activate && PYTHONPATH=. python -m pytest tests/ -v`"}},
		{"a piped run the agent went on from, editing nothing",
			[]string{"tool: Bash: npm test 2>&1 | tail -20", "tool: Bash: git status"},
			[]string{"To run the tests, run `npm test`"}},
		{"a piped run the agent edited a file after, saying nothing of it",
			[]string{"tool: Bash: npm test 2>&1 | tail -20", "tool: Edit: /home/ana/shop/src/app.test.ts", "tool: Bash: git status"},
			nil},
		{"a piped type-check the agent said was clean",
			[]string{"tool: Bash: npx tsc --noEmit 2>&1 | head -30", "assistant: No type errors. Now the page:", "tool: Bash: git status"},
			[]string{"To type-check, run `npx tsc --noEmit`"}},
		{"a piped run the agent's summary says passed, after other calls",
			[]string{"user: add the handler and check the tests", "tool: shell: go test ./... -count=1 2>&1 | tail -20", "tool: shell: git diff --stat", "assistant: The API builds and its tests pass.", "user: thanks"},
			[]string{"To run the tests, run `go test ./... -count=1`"}},
		{"a script variant the session added to package.json is the task's",
			[]string{"tool: Edit: /home/ana/shop/package.json", "tool: Bash: npm run build:prod"},
			nil},
		{"a script variant Codex patched into package.json through its shell",
			[]string{"tool: shell: apply_patch <<'PATCH' *** Begin Patch *** Update File: package.json @@ \"scripts\": { +\"build:css\": \"tailwindcss -i in.css\"", "tool: shell: npm run build:css"},
			nil},
		{"a script variant the project had",
			[]string{"tool: Bash: cat package.json", "tool: Edit: /home/ana/shop/src/app.ts", "tool: Bash: npm run build:prod"},
			[]string{"To build, run `npm run build:prod`"}},
		{"the words after the next check are that check's",
			[]string{"tool: Bash: npx tsc --noEmit 2>&1 | head -30", "tool: Edit: /home/ana/shop/src/db.ts", "tool: Bash: npm test 2>&1 | tail -20", "assistant: All 12 tests pass."},
			[]string{"To run the tests, run `npm test`"}},
		{"an edit after a piped run says its output needed one",
			[]string{"tool: Bash: npx tsc --noEmit 2>&1 | head -30", "tool: Edit: /home/ana/shop/src/db.ts", "assistant: Fixed; no type errors now."},
			nil},
		{"a piped run the agent said failed",
			[]string{"tool: Bash: npm run build 2>&1 | tail -20", "assistant: The build passes the type-check but 2 pages failed to prerender."},
			nil},
		{"a piped run whose status pipefail keeps",
			[]string{"tool: Bash: set -o pipefail; npm test 2>&1 | tail -20", "tool: Bash: git status"},
			[]string{"To run the tests, run `npm test`"}},
		{"a piped run the agent said passed, in Chinese",
			[]string{"tool: Bash: cd web && pnpm build 2>&1 | tail -5", "assistant: 构建成功。"},
			[]string{"To build, run `pnpm build` in `web/`"}},
		{"a python inside a virtual environment later says nothing of the shell's",
			[]string{"tool: Bash: python -m pytest", "error: /bin/bash: line 1: python: command not found", "tool: Bash: python3 -m pytest",
				"tool: Bash: source .venv/bin/activate && python scripts/seed.py"},
			[]string{"To run the tests, run `python3 -m pytest`", "Use `python3`, not `python`"}},
		{"a program installed after its replacement ran is there after all",
			[]string{"tool: Bash: rg -n TODO src", "error: /bin/bash: line 1: rg: command not found", "tool: Bash: grep -rn TODO src", "tool: Bash: sudo apt-get install -y ripgrep", "tool: Bash: rg -n FIXME src"},
			nil},
		{"the project's own start script, after a wait",
			[]string{"tool: Bash: sleep 2 && bash scripts/start-test.sh"},
			[]string{"To start or restart the services, run `bash scripts/start-test.sh`"}},
		{"a start script run with an argument of the day is not how it starts",
			[]string{"tool: Bash: ./scripts/start-test.sh status"},
			nil},
		{"the database migrations applied",
			[]string{"tool: Bash: cd apps/api && alembic upgrade head"},
			[]string{"To apply the database migrations, run `alembic upgrade head` in `apps/api/`"}},
		{"Django's migrations",
			[]string{"tool: shell_command: python manage.py migrate"},
			[]string{"To apply the database migrations, run `python manage.py migrate`"}},
		{"Prisma's client regenerated",
			[]string{"tool: exec_command: npx prisma generate"},
			[]string{"To regenerate the Prisma client, run `npx prisma generate`"}},
		{"a migration made, not applied, is the day's",
			[]string{"tool: Bash: python manage.py makemigrations core"},
			nil},
		{"a test file of the day is not how the project is tested",
			[]string{"tool: Bash: pytest tests/test_media.py -q"},
			nil},
		{"containers stopped are not restarted",
			[]string{"tool: Bash: docker compose down"},
			nil},
		{"a command that failed every time it ran again is not how it runs",
			[]string{"tool: Bash: docker compose up -d", "assistant: Let me look.", "tool: Bash: docker compose up -d", "error: Exit code 3221225477 bash.exe: *** fatal error - add_item failed"},
			nil},
		{"one that failed and then worked again still is",
			[]string{"tool: Bash: npm test", "assistant: Fixing it.", "tool: Bash: npm test", "error: 1 failed", "tool: Edit: src/a.ts", "tool: Bash: npm test"},
			[]string{"To run the tests, run `npm test`"}},
		{"a command the shell refused that worked again with sudo",
			[]string{"tool: Bash: npm install -g @google/gemini-cli", "error: npm error code EACCES\nnpm error syscall mkdir", "tool: Bash: sudo npm install -g @google/gemini-cli"},
			[]string{"`npm install -g` needs `sudo` here"}},
		{"a later error is not the retry's",
			[]string{"tool: Bash: npm install -g vercel", "error: npm error code EACCES", "tool: Bash: sudo npm install -g vercel", "assistant: Installed.", "tool: Bash: fly deploy", "error: Error: no app configured"},
			[]string{"`npm install -g` needs `sudo` here"}},
		{"a retry with sudo after another failure says nothing of permissions",
			[]string{"tool: Bash: npm install -g left-pad", "error: npm error code E404", "tool: Bash: sudo npm install -g left-pad"},
			nil},
		{"a text that only looks like a call is read from tool turns only",
			[]string{"user: Bash: npm test", "assistant: Bash: make lint"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, nil, toolSession("s1", tt.turns...))
			var got []string
			for _, op := range res.Response.Operations {
				got = append(got, strings.TrimSuffix(op.Description, "."))
				if !strings.Contains(op.Body, "session s1 on 2026-11-18") || !strings.Contains(op.Reason, "established by") {
					t.Errorf("%s does not say which session established it: reason %q, body %q", op.Name, op.Reason, op.Body)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("memories:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestCommandEvidenceRepeated keeps one memory for a command that worked in several sessions,
// with each as evidence.
func TestCommandEvidenceRepeated(t *testing.T) {
	a := toolSession("s1", "tool: Bash: make lint")
	b := toolSession("s2", "tool: Bash: make lint")
	b.Date = day(19)
	ops := run(t, nil, a, b).Response.Operations
	if len(ops) != 1 || strings.Join(ops[0].Evidence, ",") != "s1,s2" {
		t.Errorf("operations = %+v, want one memory with evidence s1,s2", briefs(ops))
	}
}

func TestAnswerEvidence(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"a decision",
			`Answers to the agent's questions: "Which chart library should the dashboard use?"="Recharts"`,
			[]string{"Recharts, the person's answer to the agent's question: which chart library should the dashboard use"}},
		{"a yes that only lets the agent go on",
			`Answers to the agent's questions: "Should I proceed with the migration?"="Yes"`, nil},
		{"a question about the step at hand",
			`Answers to the agent's questions: "Which test should I fix first?"="the login test"`, nil},
		{"a language, without the agent's recommended mark",
			`Answers to the agent's questions: "Bạn muốn dùng ngôn ngữ nào để viết MCP server?"="TypeScript/Node.js (Recommended)"`,
			[]string{"TypeScript/Node.js, the person's answer to the agent's question: bạn muốn dùng ngôn ngữ nào để viết MCP server"}},
		{"a command's option",
			`Answers to the agent's questions: "新 worktree 里 pre-commit 钩子跑不了，怎么提交？"="使用 --no-verify 跳过 (推荐)"`,
			[]string{"使用 --no-verify 跳过, the person's answer to the agent's question: 新 worktree 里 pre-commit 钩子跑不了，怎么提交"}},
		{"frameworks in Chinese",
			`Answers to the agent's questions: "桌面版用什么技术重新开发？"="Electron + React"`,
			[]string{"Electron + React, the person's answer to the agent's question: 桌面版用什么技术重新开发"}},
		// what the day's work needs, in any language: the answers name nothing the project keeps
		{"a question typed back", `Answers to the agent's questions: "先做哪一個 header？"="我們要不要先拿簡單的例子, 比方 net_mx_event_port.h 來試著把機制建立起來?"`, nil},
		{"where the trip starts", `Answers to the agent's questions: "出發地是哪裡？"="台北 (TPE)"`, nil},
		{"an action to take now", `Answers to the agent's questions: "要移除哪個 worktree？"="全部移除"`, nil},
		{"a yes with what to do", `Answers to the agent's questions: "Bạn muốn tôi tự động cài Homebrew cho bạn không?"="Có, cài giúp tôi"`, nil},
		{"not known yet", `Answers to the agent's questions: "Bạn muốn agent tạo những loại báo cáo nào?"="Chưa biết"`, nil},
		{"a tool to install this once", `Answers to the agent's questions: "How should I install Node.js?"="Homebrew (Recommended)"`, nil},
		{"text the agent wrote before the label is no answer",
			`Which database? I recommend Postgres.`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, nil, userSession("s1", day(18), tt.text))
			var got []string
			for _, op := range res.Response.Operations {
				got = append(got, strings.TrimSuffix(op.Description, "."))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("memories:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestInstalledSince forgets that a program is not installed once a later session ran it and it
// worked: the memory this run would write goes, and a stored one is deleted; one an earlier
// session ran is not written.
func TestInstalledSince(t *testing.T) {
	missing := toolSession("s1", "tool: Bash: uv sync", "error: bash: uv: command not found")
	ran := toolSession("s2", "tool: Bash: uv sync", "assistant: Installed 12 packages.")
	ran.Date = day(19)
	other := toolSession("s2", "tool: Bash: ls")
	other.Date = day(19)
	if ops := run(t, nil, missing, other).Response.Operations; len(ops) != 1 || ops[0].Description != "`uv` is not installed in this project's shell." {
		t.Fatalf("operations = %+v, want the program not installed", briefs(ops))
	}
	if ops := run(t, nil, missing, ran).Response.Operations; len(ops) != 0 {
		t.Errorf("operations = %+v, want none: uv ran in the next session", briefs(ops))
	}
	// ran before in another shell: Codex on Windows ran rg through pwsh, then missed it in bash
	inPwsh := toolSession("s0", "tool: shell: rg -n TODO backend/src")
	inPwsh.Date = day(17)
	rgMissing := toolSession("s1", "tool: Bash: rg -n -S OPENAI", "error: bash: line 1: rg: command not found")
	if ops := run(t, nil, inPwsh, rgMissing).Response.Operations; len(ops) != 0 {
		t.Errorf("operations = %+v, want none: rg ran in an earlier session", briefs(ops))
	}
	stored := extract.Memory{Name: "uv-not-installed", Type: "feedback", Description: "`uv` is not installed in this project's shell."}
	res := run(t, []extract.Memory{stored}, ran)
	ops := res.Response.Operations
	if len(ops) != 1 || ops[0].Action != extract.Delete || ops[0].Name != stored.Name || strings.Join(ops[0].Evidence, ",") != "s2" {
		t.Fatalf("operations = %+v, want uv-not-installed deleted on s2's evidence", briefs(ops))
	}
	if !strings.Contains(res.Response.Summary, "proposed to delete 1 memory of a program not installed that has run since") {
		t.Errorf("summary %q does not say what it deletes", res.Response.Summary)
	}
	pinned := stored
	pinned.Pinned = true
	if ops := run(t, []extract.Memory{pinned}, ran).Response.Operations; len(ops) != 0 {
		t.Errorf("operations = %+v, want a pinned memory left alone", briefs(ops))
	}
}

// TestCommandEvidenceAlreadySaid adds no memory for a command a memory already names: the
// person's own rule says it better.
func TestCommandEvidenceAlreadySaid(t *testing.T) {
	s := toolSession("s1", "user: Always run `make check` before you tell me it's done.", "tool: Bash: make check")
	ops := run(t, nil, s).Response.Operations
	if len(ops) != 1 || !strings.Contains(ops[0].Description, "Always run") {
		t.Errorf("operations = %+v, want only the person's rule", briefs(ops))
	}
	stored := extract.Memory{Name: "make-check", Type: "feedback", Description: "Run make check before committing"}
	if ops := run(t, []extract.Memory{stored}, toolSession("s2", "tool: Bash: make check")).Response.Operations; len(ops) != 0 {
		t.Errorf("operations = %+v, want none: the store already names make check", briefs(ops))
	}
}

func TestRepeatedProhibition(t *testing.T) {
	tests := []struct {
		name     string
		sessions []extract.Session
		want     string // the memory's description, "" for none
		evidence string
	}{
		{"said once is a request of the day",
			[]extract.Session{userSession("s1", day(16), "add a revenue chart. Don't use Chart.js.")}, "", ""},
		{"said again in another session is a constraint",
			[]extract.Session{
				userSession("s1", day(16), "add a revenue chart. Don't use Chart.js."),
				userSession("s2", day(18), "now the signups chart; don't use Chart.js"),
			}, "Don't use Chart.js.", "s1,s2"},
		{"said again in the same session",
			[]extract.Session{userSession("s1", day(16), "add a revenue chart. Don't use Chart.js.", "why is it still there? Don't use Chart.js!")},
			"Don't use Chart.js.", "s1"},
		{"a mood said twice is none",
			[]extract.Session{userSession("s1", day(16), "Don't worry about it.", "Don't worry about it.")}, "", ""},
		{"said first in another shape, by the name it forbids",
			[]extract.Session{userSession("s1", day(16), "Please fix the frontend UI so that it does not use Chart.js or any external libraries.",
				"Rewrite drawChart(). Do NOT use Chart.js. Only use vanilla HTML5 Canvas.")},
			"Do NOT use Chart.js.", "s1"},
		{"the name in a question first is not a saying",
			[]extract.Session{userSession("s1", day(16), "Why does it not use Chart.js?", "Don't use Chart.js.")}, "", ""},
		{"the name twice in one message is one saying",
			[]extract.Session{userSession("s1", day(16), "Build it without Chart.js. Don't use Chart.js.")}, "", ""},
		{"a plain word is not a name",
			[]extract.Session{userSession("s1", day(16), "The page should not use tables.", "Don't use tables for the layout.")}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops := run(t, nil, tt.sessions...).Response.Operations
			if tt.want == "" {
				if len(ops) != 0 {
					t.Errorf("operations = %+v, want none", briefs(ops))
				}
				return
			}
			if len(ops) != 1 || ops[0].Description != tt.want || strings.Join(ops[0].Evidence, ",") != tt.evidence ||
				!strings.Contains(ops[0].Body, "and again in their") {
				t.Errorf("operations = %+v, want %q with evidence %s", briefs(ops), tt.want, tt.evidence)
			}
		})
	}
}

// TestAiderHelpPrompt reads nothing of the prompt Aider's /help builds, which Aider 0.5x logged a
// line at a time, each line an input of its own, up to its reply.
func TestAiderHelpPrompt(t *testing.T) {
	s := userSession("a1", day(18))
	s.Source = "aider"
	for _, text := range []string{"/help how do I set the repo map files?", "# Question: how do I set the repo map files?",
		"# Relevant docs:", "<doc>", "By default, aider runs the built in linter any time a file is edited.", "</doc>"} {
		s.Turns = append(s.Turns, extract.Turn{Role: "user", Text: text})
	}
	s.Turns = append(s.Turns, extract.Turn{Role: "assistant", Text: "Use --map-tokens."},
		extract.Turn{Role: "user", Text: "From now on, always run the linter before committing."})
	ops := run(t, nil, s).Response.Operations
	if len(ops) != 1 || !strings.Contains(ops[0].Description, "Always run the linter") {
		t.Errorf("operations = %+v, want only the rule said after the reply", briefs(ops))
	}
}

// TestPersonRuns keeps a project command the person ran themselves in Aider in two sessions, and
// nothing they ran once, ran outside the project, or that is not a whole project command.
func TestPersonRuns(t *testing.T) {
	aider := func(id string, d int, texts ...string) extract.Session {
		s := userSession(id, day(d), texts...)
		s.Source = "aider"
		return s
	}
	tests := []struct {
		name     string
		sessions []extract.Session
		want     string
		evidence string
	}{
		{"a start command in two sessions", []extract.Session{
			aider("a1", 16, "/run cd backend && uv run main.py", "fix the import"),
			aider("a2", 17, "/run cd backend && uv run main.py"),
		}, "To start the app, run `uv run main.py` in `backend/`.", "a1,a2"},
		{"a test command with !", []extract.Session{
			aider("a1", 16, "!npm test"), aider("a2", 17, "!npm test"),
		}, "To run the tests, run `npm test`.", "a1,a2"},
		{"once is a try of the day", []extract.Session{aider("a1", 16, "/run cd backend && uv run main.py", "/run cd backend && uv run main.py")}, "", ""},
		{"not a project command", []extract.Session{aider("a1", 16, "/run git status"), aider("a2", 17, "/run git status")}, "", ""},
		{"outside the project", []extract.Session{
			aider("a1", 16, "/run cd /srv/other && npm run dev"), aider("a2", 17, "/run cd /srv/other && npm run dev"),
		}, "", ""},
		{"one file's tests", []extract.Session{aider("a1", 16, "/test pytest tests/test_api.py"), aider("a2", 17, "/test pytest tests/test_api.py")}, "", ""},
		{"not in Aider", []extract.Session{
			userSession("c1", day(16), "/run npm run dev"), userSession("c2", day(17), "/run npm run dev"),
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops := run(t, nil, tt.sessions...).Response.Operations
			if tt.want == "" {
				if len(ops) != 0 {
					t.Errorf("operations = %+v, want none", briefs(ops))
				}
				return
			}
			if len(ops) != 1 || ops[0].Description != tt.want || strings.Join(ops[0].Evidence, ",") != tt.evidence ||
				!strings.Contains(ops[0].Body, "whether it succeeded is not recorded") {
				t.Errorf("operations = %+v, want %q with evidence %s", briefs(ops), tt.want, tt.evidence)
			}
		})
	}
}

// TestErrorNamesItsCall fails only the call an error names: two calls in a row whose first
// worked (its result left out) are not one batch.
func TestErrorNamesItsCall(t *testing.T) {
	s := extract.Session{ID: "s1", Source: "claude", Project: "/home/ana/shop", Date: day(18), Turns: []extract.Turn{
		{Role: transcript.Tool, Text: "Bash: npm test", Call: "c1"},
		{Role: transcript.Tool, Text: "Bash: npm run lint", Call: "c2"},
		{Role: transcript.Tool, Text: "3 problems", IsError: true, Call: "c2"},
	}}
	var got []string
	for _, op := range run(t, nil, s).Response.Operations {
		got = append(got, op.Description)
	}
	if want := []string{"To run the tests, run `npm test`."}; !slices.Equal(got, want) {
		t.Errorf("memories %q, want %q", got, want)
	}
}

func TestHomeOf(t *testing.T) {
	for project, want := range map[string]string{
		"/home/ana/src/shop":         "/home/ana",
		"/Users/kane/aff":            "/Users/kane",
		"/root/chatia":               "/root",
		slashed(`C:\Users\ana\shop`): "/c:/Users/ana",
		"/srv/app":                   "",
		"/home":                      "",
	} {
		if got := homeOf(project); got != want {
			t.Errorf("homeOf(%q) = %q, want %q", project, got, want)
		}
	}
}
