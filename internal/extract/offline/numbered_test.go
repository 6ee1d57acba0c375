package offline

import (
	"strings"
	"testing"
)

func TestTypedAnswers(t *testing.T) {
	const asked = "assistant: Before I start, a few questions:\n\n" +
		"1. **Which database should the API use?**\n   A) PostgreSQL (recommended)\n   B) SQLite — simpler, one file\n" +
		"2. How should users sign in?\n   - **A.** JWT in a cookie\n   - **B.** Sessions in Redis\n" +
		"3. Should I start with the login page now?\n   A) yes\n   B) no\n"
	tests := []struct {
		name  string
		turns []string
		want  []string
	}{
		{"letters after the numbers",
			[]string{asked, "user: 1) B 2) A 3) A"},
			[]string{"SQLite, the person's answer to the agent's question: which database should the API use"}},
		{"letters glued to the numbers",
			[]string{asked, "user: 1B, 2b"},
			[]string{"Sessions in Redis, the person's answer to the agent's question: how should users sign in",
				"SQLite, the person's answer to the agent's question: which database should the API use"}},
		{"a typed choice on its number's line",
			[]string{asked, "user: 1. Postgres\n2. A"},
			[]string{"Postgres, the person's answer to the agent's question: which database should the API use"}},
		{"options on the question's own line, in Spanish",
			[]string{"assistant: 1. ¿Qué base de datos usamos? (A) MySQL (B) PostgreSQL", "user: 1 b"},
			[]string{"PostgreSQL, the person's answer to the agent's question: ¿Qué base de datos usamos"}},
		{"the letter starts a word: typed, and about nothing",
			[]string{asked, "user: 1. A simple one for now"},
			nil},
		{"a request that holds a numbered list answers nothing",
			[]string{asked, "user: ok but first fix the header, then:\n1. add the footer\n2. rename the page to About and make the logo bigger, it is too small on phones"},
			nil},
		{"numbered steps the agent listed are no questions",
			[]string{"assistant: Plan:\n1. Add the schema\n   A) users\n2. Wire the API", "user: 1) A"},
			nil},
		{"an answer the next message says fails is not kept",
			[]string{asked, "user: 1) B", "assistant: Done, SQLite is in.", "user: that doesn't work with our hosting, revert it"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var turns []string
			for _, l := range tt.turns {
				turns = append(turns, strings.ReplaceAll(l, "\n", "\x00"))
			}
			s := toolSession("s1", turns...)
			for i := range s.Turns {
				s.Turns[i].Text = strings.ReplaceAll(s.Turns[i].Text, "\x00", "\n")
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
