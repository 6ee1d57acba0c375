package offline

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// What the work established, read from the tool turns of a session: the commands that worked in
// the project (test, lint, build, type-check) and the command that replaced one the shell did
// not have. Only the command lines the agent ran and whether their results reported an error
// are read; no tool output ever becomes a memory.

// shellTool is the name a transcript gives a shell call (transcript's toolLine: "Bash: npm test").
// Cline CLI's run_commands takes a list (transcript's clineToolArg joins it with "; "), Codex
// CLI's shell_command one command line, Copilot CLI's powershell one on Windows.
var shellTool = lazyre.New(`(?i)^(?:bash|shell|shell_command|powershell|exec_command|local_shell|run_shell_command|run_command|run_commands|execute_command|run_terminal_cmd|terminal|container\.exec)$`)

// call is one shell command the agent ran and how it ended.
type call struct {
	command string // as run, one line
	dir     string // where it ran, as the transcript says (absolute, or relative to the project); "": the project's root
	failed  bool
	alone   bool   // the error result was this call's only: no other call awaited one
	output  string // the error result's text, "" when it worked
	turn    int    // index of the call's turn in the session
	id      string // the call's id, when the transcript gives one (extract.Turn.Call)
}

// shellCalls returns the session's shell calls in order. An error that names its call (Claude
// Code's tool_use_id) fails that call alone. Otherwise a call failed when an error result
// follows it before the agent or the person speaks again; when the agent ran several calls at
// once, an error marks them all failed, since which one it belongs to is not known, and the
// calls after the error are the next attempt's.
func shellCalls(turns []extract.Turn) []call {
	var out []call
	pending := 0 // how many of out's last calls still await their results
	for i, t := range turns {
		switch {
		case t.Role != transcript.Tool:
			pending = 0
			continue
		case t.IsError && t.Call != "":
			for j := range out {
				if out[j].id == t.Call && !out[j].failed {
					out[j].failed, out[j].alone, out[j].output = true, true, t.Text
				}
			}
			pending = 0
			continue
		case t.IsError:
			for j := len(out) - pending; j < len(out); j++ {
				if !out[j].failed {
					out[j].failed, out[j].alone, out[j].output = true, pending == 1, t.Text
				}
			}
			pending = 0 // the calls after an error are the agent's next attempt
			continue
		}
		name, arg, ok := strings.Cut(t.Text, ": ")
		if !ok || !shellTool.MatchString(strings.TrimSpace(name)) || strings.TrimSpace(arg) == "" {
			continue
		}
		out = append(out, call{command: strings.TrimSpace(arg), dir: t.Dir, turn: i, id: t.Call})
		pending++
	}
	return out
}

// commandKind is what a project command does, as the memory names it.
type commandKind string

const (
	runTests  commandKind = "run the tests"
	runLint   commandKind = "lint"
	runBuild  commandKind = "build"
	typeCheck commandKind = "type-check"
	deploy    commandKind = "deploy"
	restart   commandKind = "start or restart the services"
	migrate   commandKind = "apply the database migrations"
	generate  commandKind = "regenerate the Prisma client"
)

// projectCommands are the commands whose success says how the project is tested, linted, built,
// deployed or type-checked. Each pattern matches a whole command: one with a file, a test name or other
// arguments of the day is about the task, not the project.
var projectCommands = []struct {
	kind commandKind
	re   *lazyre.Regexp
}{
	{runTests, lazyre.New(`^(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test(?::\w+)?|npx\s+(?:vitest(?:\s+run)?|jest|playwright\s+test)|go\s+test(?:\s+-race)?\s+\./\.\.\.|cargo\s+(?:test|nextest\s+run)|lein\s+test|(?:uv\s+run\s+|poetry\s+run\s+)?(?:python3?\s+-m\s+)?pytest(?:\s+(?:-q|-x|-v|(?:[\w.-]+/)*tests?/?))*|make\s+(?:test|check|tests)|tox|mix\s+test|bundle\s+exec\s+rspec|rspec|dotnet\s+test(?:\s+(?:[\w./\\-]+\.(?:sln|slnx)|[\w.-]+\.(?:csproj|fsproj|vbproj)))?|mvn\s+(?:-q\s+)?test|\./gradlew\s+test|gradle\s+test|deno\s+test|php\s+artisan\s+test|vendor/bin/phpunit|(?:flutter|dart|swift)\s+test|python3?\s+-m\s+unittest(?:\s+discover)?|composer\s+test)$`)},
	{runLint, lazyre.New(`^(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?lint(?::\w+)?|npx\s+eslint\s+\.|make\s+lint|golangci-lint\s+run(?:\s+\./\.\.\.)?|go\s+vet\s+\./\.\.\.|(?:uv\s+run\s+)?ruff\s+check(?:\s+\.)?|cargo\s+clippy(?:\s+--[\w-]+)*(?:\s+--\s+-D\s+warnings)?|(?:uv\s+run\s+)?flake8|bundle\s+exec\s+rubocop|rubocop|(?:flutter|dart)\s+analyze|npx\s+next\s+lint|npx\s+(?:@biomejs/)?biome\s+check(?:\s+\.)?|cargo\s+fmt\s+(?:--all\s+)?--check)$`)},
	{runBuild, lazyre.New(`^(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?build(?::[\w-]+)?|go\s+build\s+\./\.\.\.|cargo\s+build(?:\s+(?:--release|--workspace|-p\s+[\w-]+))*|docker\s+build\s+(?:-t\s+[\w.:/-]+\s+)?[\w./-]+|lein\s+uberjar|make(?:\s+build|\s+all)?|dotnet\s+build(?:\s+(?:[\w./\\-]+\.(?:sln|slnx)|[\w.-]+\.(?:csproj|fsproj|vbproj)))?|mvn\s+(?:-q\s+)?(?:clean\s+)?(?:package|compile|install)(?:\s+-DskipTests)?|(?:\./|\.\\)?gradlew(?:\.bat)?\s+(?::?[\w-]+:)?(?:build|assemble\w*|bundle\w*)|gradle\s+build|flutter\s+build\s+(?:apk|appbundle|web|ios|ipa|macos|linux|windows)(?:\s+--release)?|swift\s+build|npx\s+(?:next|vite)\s+build|pnpm\s+(?:-r|--recursive)\s+build)$`)},
	{deploy, lazyre.New(`^(?:(?:npm|pnpm|yarn|bun)\s+run\s+deploy(?::\w+)?|firebase\s+deploy(?:\s+--only\s+[\w,:-]+)?|vercel(?:\s+deploy)?(?:\s+--prod)?|netlify\s+deploy(?:\s+--prod)?|fly(?:ctl)?\s+deploy|wrangler\s+(?:deploy|publish)|gcloud\s+app\s+deploy|make\s+deploy|(?:serverless|sls)\s+deploy|(?:npx\s+)?cdk\s+deploy|railway\s+up)$`)},
	// how the project's running services take a change: its containers rebuilt and started, its
	// pm2 processes or systemd units restarted, its own start script run
	{restart, lazyre.New(`^(?:docker(?:\s+compose|-compose)(?:\s+-f\s+\S+)*\s+up(?:\s+(?:-d|--detach|--build|--force-recreate|--no-deps|--remove-orphans))*(?:\s+[\w.-]+)*|(?:(?:ba)?sh\s+)?(?:\./)?(?:[\w.-]+/)*(?:re)?start(?:[-_][\w-]+)?\.sh|docker(?:\s+compose|-compose)(?:\s+-f\s+\S+)*\s+restart(?:\s+[\w.-]+)*|pm2\s+(?:restart|reload)\s+[\w.-]+(?:\s+[\w.-]+)*(?:\s+--update-env)?|(?:npm|pnpm|yarn|bun)\s+run\s+(?:pm2|restart|reload)(?::[\w-]+)?|(?:sudo\s+)?systemctl\s+(?:--user\s+)?(?:restart|reload)\s+[\w@.-]+)$`)},
	// how the project's database takes a schema change, and Prisma's client the schema
	{migrate, lazyre.New(`^(?:(?:uv\s+run\s+|poetry\s+run\s+)?(?:python3?\s+)?manage\.py\s+migrate|php\s+artisan\s+migrate|(?:uv\s+run\s+|poetry\s+run\s+)?alembic\s+upgrade\s+head|npx\s+prisma\s+(?:migrate\s+(?:dev|deploy)|db\s+push)|(?:bin/)?rails\s+db:migrate|bundle\s+exec\s+rails\s+db:migrate|npx\s+drizzle-kit\s+(?:migrate|push))$`)},
	{generate, lazyre.New(`^(?:npx\s+)?prisma\s+generate$`)},
	{typeCheck, lazyre.New(`^(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:typecheck|type-check|tsc)|npx\s+(?:vue-)?tsc(?:\s+(?:--noEmit|-b))*|tsc\s+--noEmit|cargo\s+check(?:\s+(?:--workspace|--all-targets))*|(?:uv\s+run\s+)?mypy(?:\s+\.)?|(?:uv\s+run\s+)?pyright)$`)},
}

var (
	// cdPrefix is "cd frontend && …": where the command ran.
	cdPrefix = lazyre.New(`^cd\s+("[^"]+"|'[^']+'|\S+)\s*(?:&&|;)\s*`)
	// outputTail is how the agent trims what it reads, not part of the command: "2>&1 | tail -20".
	outputTail = lazyre.New(`\s*(?:2>&1|>\s*/dev/null)?\s*(?:\|\s*(?:tail|head|grep|less|cat|tee)\b.*)?$`)
	// wrapperHead is what agents put before a command that changes nothing of what it runs: the
	// shell's options, a time limit, a wait.
	wrapperHead = lazyre.New(`^(?:set\s+(?:-[euxo]+\s*)+(?:pipefail\s*)?(?:;|&&)\s*|timeout\s+(?:-[ks]\s+\S+\s+)?\d+[smh]?\s+|sleep\s+\d+[smh]?\s*(?:;|&&)\s*)`)
	// batchEnv is a non-interactive environment before a command, or the module path it needs:
	// matched through, but kept in the memory, since a run can need it (Create React App's `npm
	// test` watches unless CI=true; `PYTHONPATH=. python -m pytest` imports the project's src).
	batchEnv = lazyre.New(`^(?:CI|FORCE_COLOR|NO_COLOR|TERM|PAGER|GIT_PAGER|COLUMNS|PYTHONPATH|NODE_OPTIONS|GOCACHE|GOMODCACHE|GOPATH|GOFLAGS)=\S*\s+`)
	// envSetup is what a command needs of the shell before it on this machine: a PATH that finds
	// its program, a virtual environment, a Node version. Matched through and kept in the memory,
	// as batchEnv is (`export PATH="$HOME/.local/nodejs/bin:$PATH" && npm run build`).
	envSetup = lazyre.New(`^(?:export\s+PATH=(?:"[^"]*"|'[^']*'|\S+)|(?:source|\.)\s+\S*activate|conda\s+activate\s+\S+|nvm\s+use\s+\S+)\s*(?:&&|;)\s*`)
	// echoTail is "&& echo OK": said once the command worked, so its status is the command's.
	echoTail = lazyre.New(`\s*&&\s*echo\b[^;&|]*$`)
	// dirOption is a package manager's or make's option of the directory it runs in:
	// `npm --prefix frontend test`, `pnpm -C web test`, `yarn --cwd web test`, `make -C backend test`.
	dirOption = lazyre.New(`^((?:npm|pnpm|yarn|bun|make)\b.*?)\s(?:--prefix|--dir|--cwd|-C)(?:\s+|=)("[^"]+"|'[^']+'|[^\s-]\S*)(.*)$`)
	// workspaceOption names a workspace package of a package manager, not a file or a test:
	// `pnpm --filter web test`, `npm test -w frontend`.
	workspaceOption = lazyre.New(`^(?:--filter|-F|--workspace|-w)$`)
	// changesRun is an option that makes a run something else than the project's check: a watch
	// mode, a dry run, a listing, updated snapshots, a debugger, help.
	changesRun = lazyre.New(`^(?:--?watch(?:All)?|-w|--ui|--inspect(?:-brk)?|--debug|--dry-run|--just-print|--no-run|--collect-only|--co|--list(?:Tests)?|-u|--update(?:Snapshot)?|--help|-h|--version)(?:=.*)?$`)
	// dotnetValue is a dotnet option given its value apart: the configuration, framework,
	// runtime or verbosity of a build.
	dotnetValue = lazyre.New(`^(?:-c|--configuration|-f|--framework|-r|--runtime|-v|--verbosity)$`)
	// fixOption is a lint run that also fixes: still the lint command.
	fixOption = lazyre.New(`^--fix(?:=.*)?$`)
)

// projectCommand splits a command the agent ran into where it ran (relative to the project, ""
// for its root) and the command itself, and reports what it does; ok is false for any other
// command, or one run outside the project. at is where the transcript says the call ran
// (absolute, or relative to the project; "" for the project's root); a `cd X &&` in the command
// is taken from there.
func projectCommand(command, at, project string) (dir, cmd string, kind commandKind, ok bool) {
	dir, inside := relativeDir(at, project)
	if !inside {
		return "", "", "", false
	}
	cmd = strings.TrimSpace(command)
	var env string
	for {
		if m := wrapperHead.FindString(cmd); m != "" {
			cmd = cmd[len(m):]
			continue
		}
		if m := batchEnv.FindString(cmd); m != "" {
			env += strings.TrimSpace(m) + " "
			cmd = cmd[len(m):]
			continue
		}
		if m := envSetup.FindString(cmd); m != "" {
			env += strings.TrimSpace(strings.TrimRight(strings.TrimSpace(m), "&;")) + " && "
			cmd = cmd[len(m):]
			continue
		}
		m := cdPrefix.FindStringSubmatch(cmd)
		if m == nil {
			break
		}
		if dir, inside = within(dir, strings.Trim(m[1], `"'`), project); !inside {
			return "", "", "", false
		}
		cmd = cmd[len(m[0]):]
	}
	cmd = strings.TrimSpace(outputTail.ReplaceAllString(cmd, ""))
	cmd = strings.TrimSpace(echoTail.ReplaceAllString(cmd, ""))
	cmd = spaces.ReplaceAllString(cmd, " ")
	if m := dirOption.FindStringSubmatch(cmd); m != nil {
		if dir, inside = within(dir, strings.Trim(m[2], `"'`), project); !inside {
			return "", "", "", false
		}
		cmd = m[1] + m[3]
	}
	bare, named, ok := withoutOptions(cmd)
	if !ok {
		return "", "", "", false
	}
	for _, c := range projectCommands {
		if c.re.MatchString(cmd) || c.re.MatchString(bare) {
			return dir, env + named, c.kind, true
		}
	}
	return "", "", "", false
}

// withoutOptions returns a command without its options, as its pattern is matched (`go test
// ./... -count=1` is `go test ./...`), and the command a memory names: as run, without a lint
// run's --fix (`npm run lint -- --fix` is `npm run lint`). ok is false when an option changes
// what the run is (a watch mode, a dry run). An option given its value apart (`-run TestLoad`)
// leaves the value, and the command matches no pattern: a test picked by name is the task's,
// not the project's.
func withoutOptions(cmd string) (bare, named string, ok bool) {
	fields := strings.Fields(cmd)
	if len(fields) == 0 {
		return "", "", false
	}
	var kept, names []string
	prog := fields[0]
	packages := slices.Contains([]string{"npm", "pnpm", "yarn", "bun"}, prog)
	afterDashes := false
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case i == 0 || !strings.HasPrefix(f, "-"):
			kept = append(kept, f)
		case f == "--":
			afterDashes = true
			if allFix(fields[i+1:]) {
				continue // `npm run lint -- --fix` is `npm run lint`
			}
		case fixOption.MatchString(f):
			continue
		case prog == "dotnet" && dotnetValue.MatchString(f) && i+1 < len(fields):
			names = append(names, f, fields[i+1]) // `--configuration Release` is the build's, not the day's
			i++
			continue
		case f == "-m" && strings.HasPrefix(prog, "python") && i+1 < len(fields):
			kept = append(kept, f, fields[i+1]) // `python -m pytest` runs pytest
			names = append(names, f, fields[i+1])
			i++
			continue
		case packages && !afterDashes && workspaceOption.MatchString(f) && i+1 < len(fields):
			names = append(names, f, fields[i+1]) // a workspace's name is no argument of the day
			i++
			continue
		case changesRun.MatchString(f) && !strings.HasSuffix(f, "=false"), f == "-n" && prog == "make":
			return "", "", false
		}
		names = append(names, f)
	}
	return strings.Join(kept, " "), strings.Join(names, " "), true
}

// allFix reports whether every field is a --fix.
func allFix(fields []string) bool {
	for _, f := range fields {
		if !fixOption.MatchString(f) {
			return false
		}
	}
	return true
}

// within is where `cd to` leads from dir (relative to the project): to's own place when it is
// absolute, else dir joined with it; false when it leads out of the project.
func within(dir, to, project string) (string, bool) {
	to = slashed(to)
	if rest, ok := strings.CutPrefix(to, "~/"); ok {
		if home := homeOf(slashed(project)); home != "" {
			to = path.Join(home, rest) // `cd ~/stratwatch` in /home/user
		}
	}
	if !path.IsAbs(to) && !strings.HasPrefix(to, "~") {
		to = path.Join(dir, to)
	}
	return relativeDir(to, project)
}

// homeOf is the home directory a project path lies in (/home/ana, /Users/ana, /c:/Users/ana, or
// /root), "" when it lies in none: where `~` points in the project's own shell.
func homeOf(project string) string {
	parts := strings.Split(strings.TrimPrefix(project, "/"), "/")
	switch {
	case len(parts) >= 1 && parts[0] == "root":
		return "/root"
	case len(parts) >= 2 && (parts[0] == "home" || parts[0] == "Users") && parts[1] != "":
		return "/" + parts[0] + "/" + parts[1]
	case len(parts) >= 3 && len(parts[0]) == 2 && parts[0][1] == ':' && strings.EqualFold(parts[1], "Users") && parts[2] != "":
		return "/" + strings.Join(parts[:3], "/")
	}
	return ""
}

// relativeDir makes dir relative to the project's root: "" for the root itself, false when it is
// outside the project or climbs out of it.
func relativeDir(dir, project string) (string, bool) {
	dir, project = slashed(dir), slashed(project)
	if path.IsAbs(dir) {
		if project == "" || dir != project && !strings.HasPrefix(dir, strings.TrimSuffix(project, "/")+"/") {
			return "", false
		}
		dir = strings.TrimPrefix(strings.TrimPrefix(dir, project), "/")
	}
	dir = path.Clean(dir)
	switch {
	case dir == "." || dir == "":
		return "", true
	case dir == ".." || strings.HasPrefix(dir, "../") || strings.HasPrefix(dir, "~") || strings.Contains(dir, "$"):
		return "", false
	}
	return dir + "/", true
}

// slashed writes a Windows path (C:\Users\ana\shop, \\server\share) with slashes, rooted, so
// that a session recorded on Windows compares as one recorded elsewhere: /c:/Users/ana/shop.
// Any other path is returned as it is.
func slashed(p string) string {
	switch {
	case len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && unicode.IsLetter(rune(p[0])):
		return "/" + strings.ToLower(p[:1]) + strings.ReplaceAll(p[1:], `\`, "/")
	case strings.HasPrefix(p, `\\`):
		return "/" + strings.ReplaceAll(strings.TrimLeft(p, `\`), `\`, "/")
	case strings.Contains(p, `\`) && !strings.Contains(p, "/"):
		return strings.ReplaceAll(p, `\`, "/") // frontend\src, relative
	}
	return p
}

// notFound is a shell saying it has no such program.
var notFound = lazyre.New(`(?i)command not found|: not found\b|is not recognized as (?:an internal or external command|the name of a cmdlet)|no such file or directory|executable file not found`)

// maxRetryCalls is how many calls after a failed one may still be the one that replaced it.
const maxRetryCalls = 3

// commandLessons returns what a session's shell calls establish: the first command of each kind
// (and directory) that worked, and each program that replaced one the shell did not have.
func commandLessons(s *extract.Session, calls []call) []*lesson {
	var out []*lesson
	seen := map[string]bool{}
	for i, c := range calls {
		if c.failed {
			n := replacement(calls, i, s)
			if n == nil {
				n = fixed(s.Turns, calls, i, s)
			}
			if n == nil {
				n = notInstalled(calls, i, s)
			}
			if n == nil {
				n = sudoNeedsTerminal(calls, i, s)
			}
			if n == nil {
				n = terminalNeeded(calls[i], s)
			}
			if n != nil && !seen[n.rule] {
				seen[n.rule] = true
				out = append(out, n)
			}
			continue
		}
		dir, cmd, kind, ok := projectCommand(c.command, c.dir, s.Project)
		if !ok || seen[string(kind)+"\x00"+dir] || failedLast(calls, i) || unverified(s.Turns, calls, i, s.Project) ||
			scriptOfTheDay(s.Turns, c, cmd) {
			continue
		}
		seen[string(kind)+"\x00"+dir] = true
		ran := cmd
		if kind == runLint && strings.Contains(c.command, "--fix") {
			ran += "` with `--fix" // what was run, though the memory names the lint command
		}
		out = append(out, workedLesson(dir, cmd, ran, kind, s))
	}
	if n := identityLesson(s, calls); n != nil {
		out = append(out, n)
	}
	return out
}

// failedLast reports whether the command of calls[i], which worked, failed the last time the
// session ran it again: `docker-compose up -d` that crashed Git Bash on every later try is not
// how the services start there.
func failedLast(calls []call, i int) bool {
	again := runOf(calls[i].command)
	last := calls[i]
	for _, c := range calls[i+1:] {
		if c.dir == calls[i].dir && runOf(c.command) == again {
			last = c
		}
	}
	return last.failed
}

// unverified reports whether calls[i] worked only as far as its pipe says: its output piped
// into `head`, `tail`, `grep` or `tee`, whose status the shell returns without pipefail, not the
// command's. A successful call's output is not kept, so what the agent did after it tells:
// until the person speaks, a file is edited or another check runs, its first words say something
// failed, or it edited a file without saying the run passed (`npx tsc --noEmit 2>&1 | head -30`,
// then an edit). "All 12 tests pass" after the next `npm test` is that run's.
func unverified(turns []extract.Turn, calls []call, i int, project string) bool {
	c := calls[i]
	if !pipedOutput.MatchString(c.command) || strings.Contains(c.command, "pipefail") {
		return false
	}
	next, edited := len(turns), false
	for j := c.turn + 1; j < len(turns); j++ {
		if turns[j].Role == transcript.User || turns[j].Role == transcript.Tool && editTool.MatchString(turns[j].Text) {
			next, edited = j, turns[j].Role == transcript.Tool
			break
		}
	}
	for _, later := range calls[i+1:] {
		if _, _, _, check := projectCommand(later.command, later.dir, project); later.turn < next && check {
			next, edited = later.turn, false
			break
		}
	}
	said := firstWords(turns, c.turn, next)
	passed := passedWords.MatchString(said)
	return failedWords.MatchString(passedWords.ReplaceAllString(said, "")) || edited && !passed
}

// firstWords is how the agent's first words after turns[from], before turns[to], begin: its
// reaction to the run, not the report on the whole task a long reply goes on to.
func firstWords(turns []extract.Turn, from, to int) string {
	for _, t := range turns[from+1 : to] {
		if t.Role == transcript.Assistant {
			return clip(t.Text, maxReaction)
		}
	}
	return ""
}

// maxReaction is how much of the agent's reply after a run is read as its reaction to it.
const maxReaction = 300

var (
	// pipedOutput is a command whose output a pipe filters: its status is the pipe's last program's.
	pipedOutput = lazyre.New(`\|\s*(?:head|tail|grep|tee)\b`)
	// passedWords is the agent saying a check passed, in the languages its replies are read in.
	passedWords = lazyre.New(`(?i)(?:^|[^\p{L}])(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|successful(?:ly)?|success|no (?:type |lint |build )?errors?|0 errors?|without errors?|compiles? cleanly|builds? cleanly|clean build|all green|build successful|exitos[oa]s?|pasan|correctamente|réussi|passent|sans erreurs?|erfolgreich|bestanden|com sucesso|passaram|thành công|geslaagd)(?:[^\p{L}]|$)|✓|✅|成功|通过|通過|没有错误|沒有錯誤|エラーなし|エラーはありません|통과|성공|에러 없|오류 없`)
	// failedWords is the agent saying it did not: read once what passedWords names is taken out.
	failedWords = lazyre.New(`(?i)(?:^|[^\p{L}])(?:fail(?:s|ed|ing|ures?)?|errors?|broken|falla|fallan|échou\w*|erreurs?|fehler\w*|falhou|falharam|erros?|lỗi|mislukt)(?:[^\p{L}]|$)|❌|失败|失敗|错误|錯誤|エラー|실패|오류|에러`)
)

// scriptOfTheDay reports whether cmd runs a variant of a package script (`npm run build:prod`,
// `pnpm test:e2e`) after the session edited a package.json (or set a script with `npm pkg set`): the agent may have added it for the
// task, and the project's own check is the script without the variant.
func scriptOfTheDay(turns []extract.Turn, c call, cmd string) bool {
	if !scriptVariant.MatchString(cmd) {
		return false
	}
	return slices.ContainsFunc(turns[:c.turn], func(t extract.Turn) bool {
		edits := editTool.MatchString(t.Text) || strings.Contains(t.Text, "apply_patch") // Codex's patches go through its shell too
		return t.Role == transcript.Tool && (edits && strings.Contains(t.Text, "package.json") || strings.Contains(t.Text, "npm pkg set scripts."))
	})
}

// scriptVariant is a package manager running a script named with a variant after a colon.
var scriptVariant = lazyre.New(`(?:^|\s)(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?\w+:[\w:-]+`)

// inDir says where a command ran for a memory: " in `frontend/`", "" for the project's root.
func inDir(dir string) string {
	if dir == "" {
		return ""
	}
	return " in `" + dir + "`"
}

// workedLesson is "To run the tests, run `npm test` in frontend/."
func workedLesson(dir, cmd, ran string, kind commandKind, s *extract.Session) *lesson {
	where := inDir(dir)
	rule := fmt.Sprintf("To %s, run `%s`%s", kind, cmd, where)
	basis := fmt.Sprintf("the agent ran `%s`%s in %s and it succeeded", ran, where, sessionOn(s))
	n := evidenceLesson(memory.Project, rule, basis, "ran `"+cmd+"`, which succeeded", s)
	n.command = cmd
	return n
}

// names reports whether a live memory already names command.
func (l *ledger) names(command string) bool {
	for _, e := range l.live() {
		if e.lesson != nil && e.lesson.command != "" {
			continue // another command memory is folded by add, as a repeat
		}
		if strings.Contains(strings.ToLower(e.current()+" "+bodyOf(e)), strings.ToLower(command)) {
			return true
		}
	}
	return false
}

func bodyOf(e *entry) string {
	if e.memory == nil {
		return ""
	}
	return e.memory.Body
}

// replacement returns the lesson of calls[i], a call that failed because the shell had no such
// program, when one of the next calls ran the same command with another program and worked:
// `python` not found, `python3` worked. When the error names the program as missing, the next
// call may run it as another of its names (`python3 -c "…"` for `python -c "…"`, the
// interpreter's full path for the Store's alias) with a command of its own: what was missing
// is the program, whatever it was asked to do.
func replacement(calls []call, i int, s *extract.Session) *lesson {
	failed := calls[i]
	if denied.MatchString(failed.output) {
		return elevated(calls, i, s)
	}
	oldProg, oldRest, why, ok := notFoundProgram(failed)
	if !ok || ranWorked(calls[i+1:], oldProg, false) {
		return nil // a later run of it worked: `rg` not found, then `grep`, then `rg` after an install
	}
	missing := programMissing(failed.output, oldProg)
	for _, c := range calls[i+1 : min(len(calls), i+1+maxRetryCalls)] {
		newProg, newRest := programOf(c.command)
		// `export PATH=… && npm run build` after `npm` was not found: the PATH made npm found, no
		// other program replaced it (the command is remembered with its PATH).
		if c.failed || newProg == oldProg || newProg == "" || strings.ContainsAny(newProg, "$=") || envSetup.MatchString(runOf(c.command)) {
			continue
		}
		sameRun := newRest == oldRest || strings.HasSuffix(c.command, failed.command)
		if !sameRun && !(missing && programFamily(newProg) == programFamily(oldProg)) {
			continue
		}
		rule := fmt.Sprintf("Use `%s`, not `%s`", newProg, oldProg)
		basis := fmt.Sprintf("`%s` is not available in this project's shell: `%s` failed (%s) and `%s` worked in its place, in %s",
			oldProg, clipCommand(failed.command), why, clipCommand(c.command), sessionOn(s))
		return evidenceLesson(memory.Feedback, rule, basis, "`"+oldProg+"` failed, `"+newProg+"` worked", s)
	}
	return nil
}

// notFoundProgram is the program a failed call ran and what says the shell could not find a
// program ("command not found"); ok is false when the output says no such thing, or the call's
// first word is a path or a variable, no program of the machine's.
func notFoundProgram(failed call) (prog, rest, why string, ok bool) {
	prog, rest = programOf(failed.command)
	why = missingWhy(failed.output, prog)
	return prog, rest, why, why != "" && prog != "" && !strings.ContainsAny(prog, "/\\$=")
}

// notInstalled is the lesson of a program the shell did not have, where no other program took its
// place: "`golangci-lint` is not installed here; to lint, run `go vet ./...`" when a project
// command of the same kind worked next, else only that it is not installed (`shellcheck`: the
// next session need not try it). A program that ran in the session, before or after, was there or
// installed meanwhile.
func notInstalled(calls []call, i int, s *extract.Session) *lesson {
	failed := calls[i]
	prog, _, why, ok := notFoundProgram(failed)
	if !ok || cmdBuiltin[strings.ToLower(prog)] || !programMissing(failed.output, prog) || storeAliased[programFamily(prog)] || ranWorked(calls, prog, true) {
		return nil
	}
	rule := fmt.Sprintf("`%s` is not installed in this project's shell", programName(prog))
	basis := fmt.Sprintf("`%s` failed (%s) in %s", clipCommand(failed.command), why, sessionOn(s))
	if _, _, kind, ok := projectCommand(failed.command, failed.dir, s.Project); ok {
		for _, c := range calls[i+1 : min(len(calls), i+1+maxRetryCalls)] {
			dir, cmd, k, ok := projectCommand(c.command, c.dir, s.Project)
			if ok && k == kind && !c.failed {
				rule += fmt.Sprintf("; to %s, run `%s`%s", kind, cmd, inDir(dir))
				basis += fmt.Sprintf(", and `%s` worked in its place", clipCommand(c.command))
				break
			}
		}
	}
	n := evidenceLesson(memory.Feedback, rule, basis, "`"+programName(prog)+"` was not found", s)
	n.missing = programName(prog)
	return n
}

// notInstalledMemory is a memory notInstalled wrote, naming the program it says is missing.
var notInstalledMemory = lazyre.New("^`([^`]+)` is not installed in this project's shell")

// workedPrograms are the programs calls ran that worked, by the name notInstalled gives them.
func workedPrograms(calls []call) map[string]bool {
	out := map[string]bool{}
	for _, c := range calls {
		if p, _ := programOf(runOf(c.command)); p != "" && !c.failed {
			out[programName(p)] = true
		}
	}
	return out
}

// installedSince retires what says a program is not installed once a later session ran it and it
// worked (`uv` not found while the person was installing it, `uv sync` the same evening): a
// memory of this run goes, an existing one is deleted, and the next session need not avoid it.
func (l *ledger) installedSince(worked map[string]bool, s *extract.Session) {
	for _, e := range l.live() {
		prog := ""
		switch {
		case e.lesson != nil && e.lesson.session != s:
			prog = e.lesson.missing
		case e.lesson == nil && e.memory != nil && !e.pinned():
			if m := notInstalledMemory.FindStringSubmatch(e.memory.Description); m != nil {
				prog = m[1]
			}
		}
		if prog != "" && worked[prog] {
			e.retired = true
			if e.memory != nil {
				e.installedIn = s.ID
			}
		}
	}
}

// sudoAsked is sudo saying it cannot ask for the password where the agent runs it: the agent has
// no terminal, so whatever needs sudo the person runs themselves.
var sudoAsked = lazyre.New(`sudo: (?:a terminal is required to read the password|a password is required|no tty present and no askpass program specified)`)

// sudoNeedsTerminal is the lesson of a sudo the agent's shell could not give a password to.
// A sudo that worked later in the session (the person set up passwordless sudo) says the lesson
// no longer holds.
func sudoNeedsTerminal(calls []call, i int, s *extract.Session) *lesson {
	failed := calls[i]
	m := sudoAsked.FindString(failed.output)
	if m == "" || !usesSudo(failed) || slices.ContainsFunc(calls[i+1:], func(c call) bool { return usesSudo(c) && !c.failed }) {
		return nil
	}
	rule := "`sudo` cannot ask for a password in the agent's shell on this machine: the person runs what needs it in their own terminal"
	basis := fmt.Sprintf("`%s` failed (%q) in %s", clipCommand(failed.command), m, sessionOn(s))
	return evidenceLesson(memory.Project, rule, basis, "`sudo` had no terminal", s)
}

// usesSudo reports whether a call runs its command through sudo.
func usesSudo(c call) bool { return strings.Contains(" "+runOf(c.command), " sudo ") }

// noTerminal is a program saying it needs a terminal the agent's shell does not give it: tmux
// attaching, docker's -it, a pager or editor.
var noTerminal = lazyre.New(`(?i)open terminal failed: not a terminal|the input device is not a TTY|stdin is not a terminal|Pseudo-terminal will not be allocated|must be run (?:from|in) a terminal|requires a (?:tty|terminal)`)

// terminalNeeded is the lesson of a call that failed for want of a terminal (`tmux attach -t
// hq-mayor`: "open terminal failed: not a terminal"): the person runs it in their own. sudo's is
// sudoNeedsTerminal's.
func terminalNeeded(failed call, s *extract.Session) *lesson {
	m := noTerminal.FindString(failed.output)
	prog, rest := programOf(runOf(failed.command))
	if m == "" || prog == "" || prog == "sudo" {
		return nil
	}
	name := programName(prog)
	if sub, _, _ := strings.Cut(rest, " "); sub != "" && !strings.HasPrefix(sub, "-") && isLetter(rune(sub[0])) {
		name += " " + sub // `tmux attach`, `docker exec`
	}
	rule := fmt.Sprintf("`%s` needs a terminal, which the agent's shell on this machine does not have: the person runs it in their own", name)
	basis := fmt.Sprintf("`%s` failed (%q) in %s", clipCommand(failed.command), m, sessionOn(s))
	return evidenceLesson(memory.Project, rule, basis, "`"+name+"` had no terminal", s)
}

// storeAliased are the programs whose "not found" says little alone: Windows' Store aliases for
// Python answer for python and python3 in turns, one session finding what the last did not. Their
// lesson is the name that worked in its place (replacement).
var storeAliased = map[string]bool{"python": true, "pip": true}

// cmdBuiltin are the commands of Windows' cmd.exe, not programs: Git Bash has none of them, and
// that says which shell it is, not what is installed.
var cmdBuiltin = wordSet("copy del erase dir move ren rename type cls chcp mklink rd rmdir md mkdir start set echo call pushd popd ver vol")

// ranWorked reports whether a call of calls ran prog and worked: then it is there after all. With
// throughSetup, a run after a PATH or a virtual environment set up counts too (`export PATH=… &&
// npm run build`: npm is installed, off the PATH); without, it does not (python inside a venv says
// nothing of the shell's).
func ranWorked(calls []call, prog string, throughSetup bool) bool {
	return slices.ContainsFunc(calls, func(c call) bool {
		run := runOf(c.command)
		for m := envSetup.FindString(run); throughSetup && m != ""; m = envSetup.FindString(run) {
			run = run[len(m):]
		}
		p, _ := programOf(run)
		return p == prog && !c.failed
	})
}

// windowsAlias is what a call of Windows' App Execution Alias for Python (the Store's stub
// python.exe in WindowsApps) returns in Git Bash: cmd's 9009, "not recognized", as the exit
// status 49 (9009 mod 256), with nothing or the alias's path written.
var windowsAlias = lazyre.New(`(?s)^Exit code 49\s*(?:$|.*\\WindowsApps\\)|Python was not found; run without arguments to install from the Microsoft Store`)

// missingWhy says how a failed call of prog says a program is missing ("command not found"),
// "" when it does not.
func missingWhy(output, prog string) string {
	if m := notFound.FindString(output); m != "" {
		return strings.ToLower(m)
	}
	if programFamily(prog) == "python" && windowsAlias.MatchString(output) {
		return "exit code 49: the Microsoft Store's alias, not an installed Python"
	}
	return ""
}

// programMissing reports whether a failed call's output names prog itself as the program the
// shell could not find: "python: command not found", not a script python could not open.
func programMissing(output, prog string) bool {
	base := programName(prog)
	out := strings.ToLower(output)
	for _, said := range []string{base + ": command not found", base + ": not found", "command not found: " + base,
		"'" + base + "' is not recognized", "'" + base + ".exe' is not recognized", "executable file not found in $path: " + base} {
		if strings.Contains(out, said) {
			return true
		}
	}
	return programFamily(prog) == "python" && windowsAlias.MatchString(output)
}

// programFamily is the program a name runs whatever its version or path: python3.12,
// C:/Python312/python.exe and py are python; pip3 is pip.
func programFamily(prog string) string {
	p := strings.TrimRight(programName(prog), "0123456789.")
	switch p {
	case "py":
		return "python"
	case "nodejs":
		return "node"
	}
	return p
}

// programName is a program as the shell looks it up: its last path element, lower case,
// without Windows' .exe.
func programName(prog string) string {
	return strings.TrimSuffix(strings.ToLower(filepathBase(prog)), ".exe")
}

// filepathBase is a program's last path element, whichever slash the path is written with.
func filepathBase(prog string) string {
	prog = strings.Trim(prog, `"'`)
	return prog[strings.LastIndexAny(prog, `/\`)+1:]
}

// clipCommand is a command as a memory quotes it: its first line, at most maxFixedCommand long.
func clipCommand(command string) string {
	line, _, more := strings.Cut(strings.TrimSpace(command), "\n")
	if more {
		line += " …"
	}
	return clip(line, maxFixedCommand)
}

// denied is a command failing for want of permission.
var denied = lazyre.New(`(?i)\bEACCES\b|permission denied|operation not permitted|access is denied|are you root\?`)

// elevated returns the lesson of calls[i], a call that failed for want of permission, when one of
// the next calls ran it again with sudo and worked: `npm install -g x` failed with EACCES,
// `sudo npm install -g x` worked.
func elevated(calls []call, i int, s *extract.Session) *lesson {
	failed := calls[i]
	for _, c := range calls[i+1 : min(len(calls), i+1+maxRetryCalls)] {
		if c.failed || c.command != "sudo "+failed.command {
			continue
		}
		verb := commandVerb(failed.command)
		rule := fmt.Sprintf("`%s` needs `sudo` here", verb)
		basis := fmt.Sprintf("`%s` failed (%s) and `%s` worked, in %s",
			failed.command, strings.ToLower(denied.FindString(failed.output)), c.command, sessionOn(s))
		return evidenceLesson(memory.Feedback, rule, basis, "`"+verb+"` was denied, `sudo` worked", s)
	}
	return nil
}

// commandVerb is a command's program, its subcommand and the flags before its first argument:
// "npm install -g @google/gemini-cli" → "npm install -g".
func commandVerb(command string) string {
	fields := strings.Fields(command)
	out := fields[:1]
	for i, f := range fields[1:] {
		if i > 0 && !strings.HasPrefix(f, "-") || strings.ContainsAny(f, "@/.=$") || len(out) == 4 {
			break
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}

// envAssign is the variables a command line sets for its program: `PYTHONPATH="x" python3 …`.
var envAssign = lazyre.New(`^(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+)+`)

// programOf cuts a command into the program it runs and the rest, after any "cd … &&" and the
// variables it sets; a quoted program ("C:/Program Files/Python312/python.exe") loses its quotes.
func programOf(command string) (prog, rest string) {
	command = strings.TrimSpace(command)
	if m := cdPrefix.FindStringSubmatch(command); m != nil {
		command = command[len(m[0]):]
	}
	command = strings.TrimSpace(command[len(envAssign.FindString(command)):])
	if q := command[:min(1, len(command))]; q == `"` || q == "'" {
		if end := strings.Index(command[1:], q); end >= 0 {
			return command[1 : end+1], strings.TrimSpace(command[end+2:])
		}
	}
	prog, rest, _ = strings.Cut(command, " ")
	return prog, strings.TrimSpace(rest)
}

// sessionOn names a session and its day: "session 8f0c2a1e on 2026-11-16".
func sessionOn(s *extract.Session) string {
	out := "session " + s.ID
	if !s.Date.IsZero() {
		out += " on " + s.Date.Format("2006-01-02")
	}
	return out
}

// evidenceLesson is a lesson the work established rather than a sentence the person said: basis
// says which turns established it, label how the reason quotes it.
func evidenceLesson(typ memory.Type, rule, basis, label string, s *extract.Session) *lesson {
	n := &lesson{typ: typ, label: label, rule: rule, sentence: rule, core: rule, session: s, basis: basis}
	n.facts = factsOf(rule)
	return n
}

// answersLabel opens the person's answers to the agent's multiple-choice questions in a user
// turn, as the transcript package writes them (Claude Code's AskUserQuestion results).
const answersLabel = "Answers to the agent's questions:"

// answerPair is one `"question"="answer"` of an answers line.
var answerPair = lazyre.New(`"((?:[^"\\]|\\.){3,300})"="((?:[^"\\]|\\.){1,300})"`)

var (
	// yesNo is an answer that only lets the agent go on: it says nothing without the question's
	// whole context.
	yesNo = lazyre.New(`(?i)^(?:y|n|yes|no|ok|okay|sure|proceed|continue|go ahead|skip|done|none|other|cancel|stop|later|not now|both|all|either|any|whatever|you decide|your call|up to you)\b[\s.!]*(?:\(.*\))?$`)
	// dayQuestion asks about the work of the moment, not how the project is to be: whether to go
	// on, what to do next, which of the session's options to try first.
	dayQuestion = lazyre.New(`(?i)\b(?:proceed|continue|go ahead|next|first|now|right now|start with|ready|commit (?:this|these|now)|push (?:this|now)|this (?:change|fix|pr|bug|error|issue|session)|shall i|should i (?:go|continue|proceed|start|stop|commit|push|run|try)|want me to|would you like|do you want|retry|again|prioriti[sz]e)\b`)
)

// What the person chooses for the project is a thing with a name: a library, a language, a
// command's option, a file. Most questions agents ask are about the work of the moment, in any
// language ("which worktree should I remove?" "all of them", "where do you fly from?" "Taipei",
// "shall I install Homebrew for you?" "yes, install it"), and their answers name none; a
// decision that names nothing ("let each user configure it") is lost with them, since the words
// around it do not tell a project's choice from the day's.
var (
	// languageName is a programming language as a choice names it: "TypeScript/Node.js", "原生 JS".
	languageName = lazyre.New(`(?i:\b(?:python|typescript|javascript|node\.?js|rust|java|kotlin|swift|dart|php|ruby|golang|scala|elixir|haskell|lua)\b)|\b(?:JS|TS|C\+\+|C#|SQL)(?:[^\p{L}]|$)`)
	// codeToken is a name written as code: a span in backticks, a command's option, a path, a
	// file, a key chord.
	codeToken = lazyre.New("`[^`]+`|(?i:\\b(?:ctrl|alt|shift|cmd|meta|option|super)\\+\\S)|(?:^|\\s)--?[a-z][\\w-]+|[\\w.-]{2,}/[\\w./-]{2,}|\\b[\\w-]+\\.(?:js|ts|tsx|jsx|py|go|rs|json|ya?ml|toml|md|sh|sql|css|html|env)\\b")
	// recommended is the mark an agent puts on the option it suggests, not the person's words.
	recommended = lazyre.New(`\s*[(（](?i:recommended|suggested|default|推荐|推薦|建议|建議|khuyến nghị|khuyên dùng|recomendad[oa]|recommandée?|empfohlen|aanbevolen|consigliat[oa]|рекомендуется)[)）]`)
)

// namesAThing reports whether an answer names what was chosen: a well-known library or
// framework, a language, or something written as code.
func namesAThing(answer string) bool {
	return len(techNames(answer)) > 0 || languageName.MatchString(answer) || codeToken.MatchString(answer)
}

// answerLessons returns the decisions in the person's answers to the agent's questions: the
// question and the answer the person chose or typed, as a project decision.
func answerLessons(text string, s *extract.Session, message int) []*lesson {
	_, answers, ok := strings.Cut(text, answersLabel)
	if !ok {
		return nil
	}
	var out []*lesson
	for _, m := range answerPair.FindAllStringSubmatch(answers, -1) {
		question, answer := tidy(unquote(m[1])), tidy(unquote(m[2]))
		answer = strings.TrimSpace(recommended.ReplaceAllString(answer, ""))
		if yesNo.MatchString(answer) || dayQuestion.MatchString(question) || hasSecret(answer) || injected(answer) ||
			len(answer) > maxSentence || !hasLetters(answer) || !namesAThing(answer) || isQuestion(answer) {
			continue // a question typed back ("我們要不要先拿簡單的例子…?") chose nothing
		}
		rule := answerRule(strings.TrimRight(answer, " ."), lowerFirst(strings.TrimRight(question, " ?？")))
		out = append(out, answerLesson(rule, answeredIn(message, s), s, message))
	}
	return out
}

// answerRule says what the person's answer to the agent's question decided, beside the question.
func answerRule(answer, question string) string {
	return fmt.Sprintf("%s, the person's answer to the agent's question: %s", answer, question)
}

// answeredIn is the basis of an answer the person typed in their message of s.
func answeredIn(message int, s *extract.Session) string {
	return fmt.Sprintf("the person's answer to the agent's question in their %s message of %s", ordinal(message), sessionOn(s))
}

// answerLesson is the decision an answer of the person's made, kept as the project's.
func answerLesson(rule, basis string, s *extract.Session, message int) *lesson {
	l := evidenceLesson(memory.Project, rule, basis, "answered the agent's question", s)
	l.decision, l.message = true, message
	return l
}

// unquote undoes the escapes of a %q-quoted pair.
func unquote(s string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, " ").Replace(s)
}

// lowerFirst lets a question go on a sentence: "Which library …" → "which library …".
func lowerFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToLower(r)) + s[i+len(string(r)):]
	}
	return s
}

// startApp is what a project's start command does, as the memory names it.
const startApp commandKind = "start the app"

// startCommand is a whole command that starts a project's app or server: `npm run dev`,
// `uv run main.py`, `uvicorn main:app --reload`, `go run .`. Only the person's own runs of it
// are read (personRun): the agent's runs of a server do not end, so whether they worked is not
// known.
var startCommand = lazyre.New(`^(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:start|dev|serve)|uv\s+run\s+[\w./-]+\.py|(?:python3?|py)\s+(?:-m\s+[\w.]+|[\w./-]+\.py)|uvicorn\s+[\w.]+:\w+(?:\s+--[\w-]+(?:[= ][\w.:-]+)?)*|flask\s+run(?:\s+--[\w-]+(?:[= ][\w.:-]+)?)*|go\s+run\s+\.(?:/[\w./-]*)?|cargo\s+run(?:\s+--release)?|dotnet\s+run|php\s+artisan\s+serve|(?:bin/)?rails\s+(?:s|server)|docker(?:\s+|-)compose\s+up(?:\s+-d)?(?:\s+--build)?)$`)

// personRun reads a command the person ran themselves in Aider (`/run cd backend && uv run
// main.py`, `!npm test`): where it ran (relative to the project) and what it does. ok is false
// for any other turn, and for a command that is not a whole project command.
func personRun(text, project string) (dir, cmd string, kind commandKind, ok bool) {
	text = strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(text, "/run "), strings.HasPrefix(text, "/test "), strings.HasPrefix(text, "/lint "):
		_, text, _ = strings.Cut(text, " ")
	case strings.HasPrefix(text, "!"):
		text = text[1:]
	default:
		return "", "", "", false
	}
	text = strings.TrimSpace(text)
	if strings.ContainsAny(text, "\n|;") && !cdPrefix.MatchString(text) {
		return "", "", "", false
	}
	if d, c, k, ok := projectCommand(text, "", project); ok {
		return d, c, k, true
	}
	if m := cdPrefix.FindStringSubmatch(text); m != nil {
		var inside bool
		if dir, inside = relativeDir(strings.Trim(m[1], `"'`), project); !inside {
			return "", "", "", false
		}
		text = text[len(m[0]):]
	}
	cmd = spaces.ReplaceAllString(strings.TrimSpace(text), " ")
	if !startCommand.MatchString(cmd) {
		return "", "", "", false
	}
	return dir, cmd, startApp, true
}

// personRuns are the project commands the person ran themselves, by project, directory and
// command, with the sessions they ran them in.
type personRuns map[string][]*extract.Session

// ranAgain records a command the person ran in s and returns its lesson when s is the second
// session to run it: run in two sessions, it is how the project is run, tested or built; run
// once, it may be the try of a day. Whether it worked is not known (Aider logs no exit status),
// and the basis says so.
func (r personRuns) ranAgain(text string, s *extract.Session) *lesson {
	dir, cmd, kind, ok := personRun(text, s.Project)
	if !ok {
		return nil
	}
	key := s.Project + "\x00" + dir + "\x00" + cmd
	runs := r[key]
	if slices.Contains(runs, s) {
		return nil
	}
	r[key] = append(runs, s)
	if len(runs) != 1 {
		return nil
	}
	where := inDir(dir)
	rule := fmt.Sprintf("To %s, run `%s`%s", kind, cmd, where)
	basis := fmt.Sprintf("the person ran `%s`%s themselves in %s and again in %s (whether it succeeded is not recorded)",
		cmd, where, sessionOn(runs[0]), sessionOn(s))
	n := evidenceLesson(memory.Project, rule, basis, "ran `"+cmd+"` themselves, in two sessions", s)
	n.command, n.also = cmd, []string{runs[0].ID}
	return n
}
