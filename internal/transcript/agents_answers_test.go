package transcript

import (
	"fmt"
	"strings"
)

// answerChecks assert what a recording's question session (scripts/agents/answers.sh: the agent
// asks which chart library the dashboard should use, Recharts or Chart.js, and the person picks
// Chart.js in the CLI's terminal UI) reads as: the person's answer beside its question, and
// nothing of the option not chosen, nor of the one Cline CLI picks itself when asked headless.
// A recording without the session has no checks.
func answerChecks(fx agentFacts, sessions []Session) []agentCheck {
	if fx.Question == "" {
		return nil
	}
	var answers, other []string
	for _, s := range sessions {
		for _, turn := range s.Turns {
			switch {
			case turn.Role != User:
			case turn.Text == fx.Answer:
				answers = append(answers, turn.Text)
			case strings.Contains(turn.Text, "Recharts"):
				other = append(other, turn.Text)
			}
		}
	}
	return []agentCheck{
		{"the person's answer to the agent's question", func() error {
			if len(answers) != 1 {
				return fmt.Errorf("%d user turns %q, want one", len(answers), fx.Answer)
			}
			return nil
		}()},
		{"no option the person did not choose", func() error {
			if len(other) > 0 {
				return fmt.Errorf("user turns naming the option not chosen: %q", other)
			}
			return nil
		}()},
	}
}
