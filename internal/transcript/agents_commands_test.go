package transcript

import (
	"fmt"
	"path"
	"strings"
)

// agentWorkdirs is how each recorded CLI says where its shell call ran (fakeapi's commands.go):
// "dir" when the call's Dir holds it (Codex CLI's workdir, Gemini CLI's dir_path, Qwen Code's
// directory, Claude Code's shell directory after a `cd frontend` call), "cd" when the command
// opens with `cd frontend &&` (Copilot CLI's and Cline CLI's shell tools take no directory).
var agentWorkdirs = map[string]string{
	"claude": "dir", "codex": "dir", "gemini": "dir", "qwen": "dir", "opencode": "dir",
	"copilot": "cd", "cline": "cd",
}

// commandChecks are the checks of the commands session, when the recording has one: the test
// command is read with the directory it ran in, and the call of the program the shell did not
// have is read as failed.
func commandChecks(fx agentFacts, sessions []Session) []agentCheck {
	if fx.Commands == "" {
		return nil
	}
	var calls []Turn
	var failed bool
	for _, s := range sessions {
		for _, turn := range s.Turns {
			switch {
			case turn.Role != Tool:
			case turn.IsError && strings.Contains(turn.Text, "pnpm: command not found"):
				failed = true
			case strings.HasSuffix(turn.Text, "npm test"):
				calls = append(calls, turn)
			}
		}
	}
	inFrontend := func(t Turn) bool {
		if strings.HasSuffix(t.Text, "cd frontend && npm test") {
			return true
		}
		return t.Dir == "frontend" || path.IsAbs(t.Dir) && path.Clean(t.Dir) == path.Join(fx.Project, "frontend")
	}
	return []agentCheck{
		{"the test run's working directory", func() error {
			for _, t := range calls {
				if !strings.HasSuffix(t.Text, " pnpm test") && !strings.HasSuffix(t.Text, "&& pnpm test") && inFrontend(t) {
					return nil
				}
			}
			return fmt.Errorf("no `npm test` call read as run in %s/frontend among %+v", fx.Project, calls)
		}()},
		{"the shape of the working directory", func() error {
			for _, t := range calls {
				if !inFrontend(t) {
					continue
				}
				if shape := map[bool]string{true: "dir", false: "cd"}[t.Dir != ""]; shape != agentWorkdirs[agentOf(sessions)] {
					return fmt.Errorf("the directory is read from %q, want %q (%+v)", shape, agentWorkdirs[agentOf(sessions)], t)
				}
			}
			return nil
		}()},
		{"the missing program's call failed", func() error {
			if !failed {
				return fmt.Errorf("no tool error saying pnpm: command not found")
			}
			return nil
		}()},
	}
}

// agentOf is the adapter kind of a recording's sessions.
func agentOf(sessions []Session) string {
	if len(sessions) == 0 {
		return ""
	}
	return sessions[0].Kind
}
