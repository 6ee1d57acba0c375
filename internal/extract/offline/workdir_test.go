package offline

import (
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/transcript"
)

// TestProjectCommandShapes reads the shapes real agents wrap a project's command in (their
// system prompts ask for a non-interactive run, a time limit, the output's tail) and the near
// misses that stay out: a test of one file or by name, a watch mode, a run outside the project.
func TestProjectCommandShapes(t *testing.T) {
	const project = "/home/ana/shop"
	tests := []struct {
		command, at string
		dir, cmd    string // "" cmd: not a project command
		kind        commandKind
	}{
		// as run
		{"npm test", "", "", "npm test", runTests},
		{"cd frontend && npm test", "", "frontend/", "npm test", runTests},
		// wrappers that change nothing of what runs
		{"CI=true npm test", "", "", "CI=true npm test", runTests},
		{"CI=1 FORCE_COLOR=0 npm test", "", "", "CI=1 FORCE_COLOR=0 npm test", runTests},
		{"timeout 120 npm test", "", "", "npm test", runTests},
		{"timeout 5m go test ./...", "", "", "go test ./...", runTests},
		{"set -o pipefail; npm test 2>&1 | tail -50", "", "", "npm test", runTests},
		{"set -euo pipefail && cd web && pnpm test", "", "web/", "pnpm test", runTests},
		{"npm test && echo OK", "", "", "npm test", runTests},
		{`cd frontend && CI=true timeout 300 npm test 2>&1 | tail -n 40`, "", "frontend/", "CI=true npm test", runTests},
		// options that say how, not what
		{"npm test -- --run", "", "", "npm test -- --run", runTests},
		{"npm test -- --watchAll=false", "", "", "npm test -- --watchAll=false", runTests},
		{"go test ./... -count=1", "", "", "go test ./... -count=1", runTests},
		{"go test -race -count=1 ./...", "", "", "go test -race -count=1 ./...", runTests},
		{"python -m pytest -q", "", "", "python -m pytest -q", runTests},
		{"python3 -m pytest -q --tb=short", "", "", "python3 -m pytest -q --tb=short", runTests},
		{"uv run pytest -q", "", "", "uv run pytest -q", runTests},
		{"npx vitest run", "", "", "npx vitest run", runTests},
		{"npx vitest run --reporter=dot", "", "", "npx vitest run --reporter=dot", runTests},
		{"cargo test --workspace", "", "", "cargo test --workspace", runTests},
		{"bun test", "", "", "bun test", runTests},
		{"pnpm --filter web test", "", "", "pnpm --filter web test", runTests},
		{"npm test -w frontend", "", "", "npm test -w frontend", runTests},
		// a directory option is where it ran
		{"npm --prefix frontend test", "", "frontend/", "npm test", runTests},
		{"npm test --prefix=frontend", "", "frontend/", "npm test", runTests},
		{"pnpm -C web test", "", "web/", "pnpm test", runTests},
		{"yarn --cwd web test", "", "web/", "yarn test", runTests},
		{"make -C backend test", "", "backend/", "make test", runTests},
		// a fix run is still the lint command
		{"npm run lint -- --fix", "", "", "npm run lint", runLint},
		{"ruff check --fix .", "", "", "ruff check .", runLint},
		{"cargo clippy --all-targets -- -D warnings", "", "", "cargo clippy --all-targets -- -D warnings", runLint},
		// where the transcript says the call ran
		{"npm test", "/home/ana/shop/frontend", "frontend/", "npm test", runTests},
		{"npm test", "frontend", "frontend/", "npm test", runTests},
		{"npm test", "/home/ana/shop", "", "npm test", runTests},
		{"cd ui && npm test", "/home/ana/shop/frontend", "frontend/ui/", "npm test", runTests},
		{"cd .. && npm test", "/home/ana/shop/frontend", "", "npm test", runTests},
		{"cd /home/ana/shop/api && go test ./...", "/home/ana/shop/frontend", "api/", "go test ./...", runTests},
		{"npm --prefix ../api test", "/home/ana/shop/frontend", "api/", "npm test", runTests},
		// near misses
		{"npm test -- src/foo.test.ts", "", "", "", ""},
		{"npx vitest run src/cart.test.ts", "", "", "", ""},
		{"npm test -- --watch", "", "", "", ""},
		{"npx jest --watchAll", "", "", "", ""},
		{"npx jest -u", "", "", "", ""},
		{"go test ./... -run TestLoad", "", "", "", ""},
		{"pytest -k checkout", "", "", "", ""},
		{"cargo test --no-run", "", "", "", ""},
		{"make -n test", "", "", "", ""},
		{"NODE_ENV=test npm test", "", "", "", ""},
		{`npm test; echo "exit: $?"`, "", "", "", ""},
		{"npm test || true", "", "", "", ""},
		{"npm test", "/tmp/scratch", "", "", ""},
		{"npm test", "../other", "", "", ""},
		{"cd .. && npm test", "", "", "", ""},
		{"cd ../../other && npm test", "/home/ana/shop/frontend", "", "", ""},
		{"make -C /tmp/x test", "", "", "", ""},
		{"npm --prefix ~/other test", "", "", "", ""},
	}
	for _, tt := range tests {
		dir, cmd, kind, ok := projectCommand(tt.command, tt.at, project)
		if ok != (tt.cmd != "") || dir != tt.dir || cmd != tt.cmd || kind != tt.kind {
			t.Errorf("projectCommand(%q, at %q) = %q, %q, %q, %v; want %q, %q, %q", tt.command, tt.at, dir, cmd, kind, ok, tt.dir, tt.cmd, tt.kind)
		}
	}
}

// TestCommandEvidenceWorkdir reads where a call ran from what the transcript recorded of it (a
// Codex workdir, a Gemini dir_path, Claude Code's shell directory), a `cd` in the command taken
// from there.
func TestCommandEvidenceWorkdir(t *testing.T) {
	tests := []struct {
		name string
		dirs []string // each tool turn's Dir, in order
		cmds []string
		want []string
	}{
		{"Codex's absolute workdir", []string{"/home/ana/shop/frontend"}, []string{"exec_command: npm test"},
			[]string{"To run the tests, run `npm test` in `frontend/`"}},
		{"Gemini's dir_path, made absolute by the reader", []string{"/home/ana/shop/frontend"}, []string{"run_shell_command: npm test"},
			[]string{"To run the tests, run `npm test` in `frontend/`"}},
		{"a relative directory no reader could make absolute", []string{"frontend"}, []string{"run_shell_command: npm test"},
			[]string{"To run the tests, run `npm test` in `frontend/`"}},
		{"a cd from the shell's directory", []string{"/home/ana/shop/frontend"}, []string{"Bash: cd e2e && npx playwright test"},
			[]string{"To run the tests, run `npx playwright test` in `frontend/e2e/`"}},
		{"a workdir outside the project", []string{"/tmp/scratch"}, []string{"exec_command: npm test"},
			nil},
		{"the program that replaced a missing one, in its directory", []string{"/home/ana/shop/frontend", "/home/ana/shop/frontend"},
			[]string{"exec_command: pnpm test", "error: bash: line 1: pnpm: command not found", "exec_command: npm test"},
			[]string{"To run the tests, run `npm test` in `frontend/`", "Use `npm`, not `pnpm`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := extract.Session{ID: "s1", Source: "codex", Project: "/home/ana/shop", Date: day(18)}
			s.Turns = append(s.Turns, extract.Turn{Role: transcript.User, Text: "run the frontend tests"})
			calls := 0
			for _, c := range tt.cmds {
				turn := extract.Turn{Role: transcript.Tool, Text: c}
				if text, ok := strings.CutPrefix(c, "error: "); ok {
					turn.Text, turn.IsError = text, true
				} else {
					turn.Dir = tt.dirs[calls]
					calls++
				}
				s.Turns = append(s.Turns, turn)
			}
			var got []string
			for _, op := range run(t, nil, s).Response.Operations {
				got = append(got, strings.TrimSuffix(op.Description, "."))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("memories:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestLintFixRun remembers a lint run that also fixed as the lint command, its basis saying
// what was run.
func TestLintFixRun(t *testing.T) {
	ops := run(t, nil, toolSession("s1", "tool: Bash: npm run lint -- --fix")).Response.Operations
	if len(ops) != 1 || ops[0].Description != "To lint, run `npm run lint`." || !strings.Contains(ops[0].Body, "ran `npm run lint` with `--fix`") {
		t.Fatalf("operations = %+v", briefs(ops))
	}
}

// TestShellToolNames reads the shell calls of every CLI's shell tool by its name.
func TestShellToolNames(t *testing.T) {
	for _, name := range []string{"Bash", "bash", "shell", "shell_command", "exec_command", "run_shell_command", "run_commands", "execute_command", "run_terminal_cmd", "powershell"} {
		ops := run(t, nil, toolSession("s1", "tool: "+name+": cd frontend && npm test")).Response.Operations
		if len(ops) != 1 || ops[0].Description != "To run the tests, run `npm test` in `frontend/`." {
			t.Errorf("%s: operations = %+v", name, briefs(ops))
		}
	}
	if ops := run(t, nil, toolSession("s1", "tool: Read: cd frontend && npm test")).Response.Operations; len(ops) != 0 {
		t.Errorf("a Read call is read as a shell call: %+v", briefs(ops))
	}
}

// TestProjectCommandWindows reads a session recorded on Windows: Claude Code's cwd is the
// project's own C:\ path, or a folder of it.
func TestProjectCommandWindows(t *testing.T) {
	const project = `C:\Users\ana\dev\shop`
	tests := []struct{ command, at, dir, cmd string }{
		{"firebase deploy --only functions", `C:\Users\ana\dev\shop`, "", "firebase deploy --only functions"},
		{"npm test", `c:\Users\ana\dev\shop\frontend`, "frontend/", "npm test"},
		{"npm test", `C:/Users/ana/dev/shop/frontend`, "frontend/", "npm test"},
		{`cd frontend\web && npm test`, `C:\Users\ana\dev\shop`, "frontend/web/", "npm test"},
		{"npm test", `C:\Users\ana\dev\other`, "", ""},
		{"npm test", `D:\shop`, "", ""},
	}
	for _, tt := range tests {
		dir, cmd, _, ok := projectCommand(tt.command, tt.at, project)
		if ok != (tt.cmd != "") || dir != tt.dir || cmd != tt.cmd {
			t.Errorf("projectCommand(%q, at %q) = %q, %q, %v; want %q, %q", tt.command, tt.at, dir, cmd, ok, tt.dir, tt.cmd)
		}
	}
}
