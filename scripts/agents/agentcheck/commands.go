package main

import (
	"fmt"
	"os/exec"
	"strings"
)

// The commands session (fakeapi's commands.go): the person asks to run the frontend tests, and
// the CLI runs `pnpm test`, which the shell does not have, then `npm test`, which passes, in the
// project's frontend/ by its own working-directory argument (or its shell's directory, or a
// `cd frontend &&`).

// commandsMessage is the person's message; fakeapi acts on its phrase "run the frontend tests".
const commandsMessage = "Please run the frontend tests."

func init() { messages["commands"] = commandsMessage }

// What the offline consolidator makes of the commands session.
const (
	commandsTestMemory    = "To run the tests, run `npm test` in `frontend/`"
	commandsReplaceMemory = "Use `npm`, not `pnpm`"
)

// checkCommands checks that an offline dry run proposes the test command in the directory it ran
// in, and the program that replaced the missing one (when the machine indeed has no pnpm).
func checkCommands(c checker, report string) {
	c.check("an offline dry run proposes the test command in its directory", func() error {
		if !strings.Contains(report, commandsTestMemory) {
			return fmt.Errorf("no memory saying %q in:\n%s", commandsTestMemory, indent(report))
		}
		return nil
	}())
	if _, err := exec.LookPath("pnpm"); err == nil {
		c.pass("(skipped: this machine has pnpm) an offline dry run proposes npm for pnpm")
		return
	}
	c.check("an offline dry run proposes npm for pnpm, which the shell did not have", func() error {
		if !strings.Contains(report, commandsReplaceMemory) {
			return fmt.Errorf("no memory saying %q in:\n%s", commandsReplaceMemory, indent(report))
		}
		return nil
	}())
}
