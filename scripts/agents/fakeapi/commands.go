package main

import (
	"regexp"
	"strings"
	"sync"
)

// The commands session: the person asks to "run the frontend tests" and the script runs them in
// the project's frontend/ the way each CLI's own tools take a working directory (Codex CLI's and
// OpenCode's workdir, Gemini CLI's dir_path, Qwen Code's directory, Claude Code's persistent
// shell after a `cd frontend` call, a `cd frontend &&` where the tool takes none), first with a
// program the shell does not have (pnpm), then with npm, which works.

// CommandsPhrase is what the person's message says to start the commands session.
const CommandsPhrase = "run the frontend tests"

// commandRun is the commands session under way: its calls, and how many were made.
var commandRun struct {
	sync.Mutex
	steps []action
	next  int
}

// commandStep is the script's answer while a commands session is under way, or to the message
// that starts one; ok is false for every other turn.
func commandStep(t turn) (action, bool) {
	commandRun.Lock()
	defer commandRun.Unlock()
	switch {
	case t.wantsJSON:
		return action{}, false
	case !t.toolResult && strings.Contains(strings.ToLower(t.text), CommandsPhrase):
		steps := commandSteps(t.tools, t.body)
		if len(steps) == 0 {
			return action{}, false
		}
		commandRun.steps, commandRun.next = steps, 1
		return steps[0], true
	case !t.toolResult && len(t.tools) > 0:
		commandRun.steps, commandRun.next = nil, 0 // another session began: an unfinished one ends
		return action{}, false
	case !t.toolResult || commandRun.steps == nil:
		return action{}, false
	case commandRun.next < len(commandRun.steps):
		commandRun.next++
		return commandRun.steps[commandRun.next-1], true
	}
	commandRun.steps, commandRun.next = nil, 0
	return action{text: "The frontend tests pass with npm; pnpm is not installed here."}, true
}

// projectDir finds the directory the CLI runs in where its request states it: Codex CLI's
// <cwd>, Gemini CLI's and Qwen Code's "I'm currently working in the directory", OpenCode's
// "Working directory:".
var projectDir = regexp.MustCompile(`<cwd>([^<]+)</cwd>|working in the directory:?\s*(/[^\s"\\]+)|Working directory:\s*(/[^\s"\\]+)`)

// commandSteps are the calls of the commands session in the shell tool the request offers.
func commandSteps(tools []string, body string) []action {
	frontend := "frontend"
	if m := projectDir.FindStringSubmatch(body); m != nil {
		frontend = strings.TrimRight(m[1]+m[2]+m[3], "/.") + "/frontend"
	}
	absolute := strings.HasPrefix(frontend, "/")
	in := func(args map[string]any, key string) []action {
		var out []action
		for _, cmd := range []string{"pnpm test", "npm test"} {
			a := map[string]any{key: cmd}
			for k, v := range args {
				a[k] = v
			}
			out = append(out, action{args: a})
		}
		return out
	}
	cdFirst := func(name string, args func(cmd string) map[string]any) []action {
		var out []action
		for _, cmd := range []string{"cd frontend && pnpm test", "cd frontend && npm test"} {
			out = append(out, action{tool: name, args: args(cmd)})
		}
		return out
	}
	named := func(name string, steps []action) []action {
		for i := range steps {
			steps[i].tool = name
		}
		return steps
	}
	for _, name := range tools {
		switch name {
		case "Bash": // Claude Code: one shell, whose directory the next call keeps
			desc := map[string]any{"description": "Run the frontend tests"}
			return append([]action{{tool: name, args: map[string]any{"command": "cd frontend", "description": "Go to the frontend"}}},
				named(name, in(desc, "command"))...)
		case "exec_command": // Codex CLI 0.171
			if absolute {
				return named(name, in(map[string]any{"workdir": frontend, "yield_time_ms": 60000}, "cmd"))
			}
		case "shell_command":
			if absolute {
				return named(name, in(map[string]any{"workdir": frontend}, "command"))
			}
		case "run_shell_command": // Gemini CLI: dir_path, relative to the workspace; Qwen Code: directory, absolute
			if strings.Contains(body, `"dir_path"`) {
				return named(name, in(map[string]any{"dir_path": "frontend", "description": "Run the frontend tests"}, "command"))
			}
			if absolute {
				return named(name, in(map[string]any{"directory": frontend, "description": "Run the frontend tests"}, "command"))
			}
		case "bash": // OpenCode's bash takes a workdir; Copilot CLI's and Crush's take none
			if absolute && strings.Contains(body, `"workdir"`) {
				return named(name, in(map[string]any{"workdir": frontend, "description": "Run the frontend tests"}, "command"))
			}
			return cdFirst(name, func(cmd string) map[string]any {
				return map[string]any{"command": cmd, "description": "Run the frontend tests"}
			})
		case "run_commands": // Cline CLI: a list of commands, no directory
			return cdFirst(name, func(cmd string) map[string]any { return map[string]any{"commands": []string{cmd}} })
		}
	}
	return nil
}
