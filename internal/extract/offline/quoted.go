package offline

import (
	"strings"
	"unicode/utf8"
)

// The person often pastes the agent's reply back into their message, to ask about it ("两个后台
// 任务都已完成…看板也在 dashboard_2026-05-14.html。" then their question): those lines are the
// agent's words, whatever they say, and nothing is read from them. A line is the agent's when
// an earlier turn of the agent in the session holds it whole, compared as clauseKey compares; a
// short line ("Yes, always run make lint first") is the person's even when the agent said it,
// since agreeing with the agent is how a person confirms.

// minQuotedLine is how long, in letters and digits as clauseKey keeps them, a line must be to
// be taken for one pasted from the agent's reply.
const minQuotedLine = 24

// withoutAgentLines returns the text of the person's message m without the lines an earlier turn
// of the agent in its session holds.
func withoutAgentLines(text string, agent agentWords, m personMessage) string {
	if !strings.Contains(text, "\n") && utf8.RuneCountInString(text) < minQuotedLine {
		return text
	}
	lines := strings.Split(text, "\n")
	kept := lines[:0]
	for _, line := range lines {
		if key := clauseKey(line); utf8.RuneCountInString(key) < minQuotedLine || !agent.said(m, key) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}
