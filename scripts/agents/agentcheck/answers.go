package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The question session (answers.sh, fakeapi's questions.go): the person asks to be asked which
// chart library the dashboard should use, the CLI's structured-question tool offers Recharts and
// Chart.js, and the person picks Chart.js in the terminal UI. Only the agents of answers.sh's
// ANSWERING_AGENTS have the session.

// questionMessage is the person's message; fakeapi acts on its phrase "ask me which chart library".
const questionMessage = "Please add a dashboard page; ask me which chart library it should use."

func init() { messages["question"] = questionMessage }

// answeringAgents are the agents with a question session (answers.sh's ANSWERING_AGENTS).
var answeringAgents = []string{"claude", "codex", "gemini", "qwen", "copilot", "opencode", "cline"}

// answerTurn is the user turn dreamd reads the person's choice as; answerMemory what the offline
// consolidator makes of it.
const (
	answerTurn   = `Answers to the agent's questions: "Which chart library should the dashboard use?"="Chart.js"`
	answerMemory = "Chart.js, the person's answer to the agent's question: which chart library should the dashboard use"
)

// answerWords are the person's words of the agent's question session: its message and the
// answer, none for an agent without one.
func answerWords(agent string) []string {
	if !slices.Contains(answeringAgents, agent) {
		return nil
	}
	return []string{questionMessage, answerTurn}
}

// checkAnswers checks that an offline dry run proposes the person's answer as a decision, and
// nothing of the option the person did not pick (nor of the one Cline CLI picks itself when the
// question is asked headless).
func checkAnswers(c checker, agent, report string) {
	if !slices.Contains(answeringAgents, agent) {
		return
	}
	c.check("an offline dry run proposes the person's answer to the agent's question", func() error {
		if !strings.Contains(report, answerMemory) {
			return fmt.Errorf("no memory saying %q in:\n%s", answerMemory, indent(report))
		}
		return nil
	}())
	c.check("an offline dry run proposes nothing of the option not chosen", func() error {
		if strings.Contains(report, "Recharts") {
			return fmt.Errorf("the report names Recharts:\n%s", indent(report))
		}
		return nil
	}())
}

// addAnswerFacts adds to a recording's facts.json the question session's message and the answer
// turn dreamd is to read, for an agent with the session (internal/transcript's
// agents_answers_test.go asserts them).
func addAnswerFacts(dir, agent string) error {
	if !slices.Contains(answeringAgents, agent) {
		return nil
	}
	path := filepath.Join(dir, "facts.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var fx map[string]any
	if err := json.Unmarshal(b, &fx); err != nil {
		return err
	}
	fx["question"], fx["answer"] = questionMessage, answerTurn
	if b, err = json.MarshalIndent(fx, "", "  "); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
