// Command agentcheck holds the checks of scripts/agents/run.sh, each printed as one PASS or FAIL
// line, and the recording of the transcripts the agent CLIs wrote as test fixtures:
//
//	agentcheck say lesson|resumed|delegate|next|recall|memory|user
//	agentcheck reads   -agent A -project DIR -today YYYY-MM-DD -home DIR -sessions FILE -digests FILE -dry-run FILE
//	agentcheck reaches -agent A -next FILE -recall FILE
//	agentcheck readback -agent A -digests FILE
//	agentcheck record  -agent A -home DIR -out DIR -today YYYY-MM-DD
//	agentcheck paths   -sessions FILE -project LABEL=DIR@NEXT_LIST ...
//	agentcheck promptlog -home DIR -dreamd BIN
//
// reads checks what dreamd made of the sessions (its `sessions --format json`, the digest it sent
// to fakeapi, an offline dry run); reaches checks what the CLI sent after dreamd wrote and linked
// the memory (FILE lists fakeapi's recorded requests, one path a line); record copies the
// transcripts, trimmed and with placeholder paths (see record.go).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// The person's messages of the scripted sessions. fakeapi acts on the phrases "run the linter",
// "ask a sub-agent" and "call the dreamd recall tool"; internal/transcript/agents_test.go spells
// the first three again.
var messages = map[string]string{
	"lesson":   "Always run make lint before committing. Please run the linter now.",
	"resumed":  "One more thing: the integration tests need docker compose up -d db before they run.",
	"delegate": "Please ask a sub-agent to count the files in the project.",
	"next":     "What should I keep in mind in this project?",
	"recall":   "Please call the dreamd recall tool to look up how we lint.",
	"memory":   memoryText + ".",
	"user":     userText + ".",
}

// userText is a preference for every project, remembered into the user store.
const userText = "Answer tersely in every project"

// subagentPrompt is the prompt fakeapi gives a sub-agent (fakeapi's SubagentPrompt).
const subagentPrompt = "Sub-agent task: count the files in the project and say how many there are."

// memoryText is what the offline consolidator makes of the lesson, and must reach the CLI.
const memoryText = "Always run make lint before committing"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: agentcheck say|reads|reaches|record ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "say":
		msg, ok := messages[arg(2)]
		if !ok {
			err = fmt.Errorf("no message %q", arg(2))
			break
		}
		fmt.Println(msg)
	case "reads":
		err = reads(os.Args[2:])
	case "reaches":
		err = reaches(os.Args[2:])
	case "readback":
		err = readback(os.Args[2:])
	case "record":
		err = record(os.Args[2:])
	case "paths":
		err = paths(os.Args[2:])
	case "promptlog":
		err = promptlog(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentcheck:", err)
		os.Exit(2)
	}
}

func arg(i int) string {
	if i < len(os.Args) {
		return os.Args[i]
	}
	return ""
}

// checker prints the check lines of one agent and direction.
type checker struct{ prefix string }

func (c checker) pass(name string) { fmt.Printf("PASS %s %s\n", c.prefix, name) }

func (c checker) fail(name, format string, args ...any) {
	// One line per check, whatever the message holds (errors.Join puts one error a line).
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", "; ")
	fmt.Printf("FAIL %s %s: %s\n", c.prefix, name, msg)
}

// check passes name when err is nil.
func (c checker) check(name string, err error) {
	if err != nil {
		c.fail(name, "%v", err)
		return
	}
	c.pass(name)
}

func newFlags(name string) *flag.FlagSet { return flag.NewFlagSet(name, flag.ContinueOnError) }
