package offline

import (
	"strings"
	"testing"
)

// clarify is a question of Spec Kit's /speckit.clarify, as Codex shows it.
const clarify = "assistant: ## Clarification Question 2: Frontend Framework\n\n**Recommended:** Option B - Next.js gives a clear React baseline.\n\n" +
	"| Option | Description |\n|--------|-------------|\n| A | React (e.g., Vite) frontend |\n| B | Next.js frontend |\n| Short | Provide a different short answer (<=5 words) |\n\n" +
	"You can reply with the option letter (e.g., \"A\"), accept the recommendation by saying \"yes\" or \"recommended\", or provide your own short answer."

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
		// Spec Kit's /speckit.clarify: one question, its options in a table
		{"a letter against an options table",
			[]string{clarify, "user: B"},
			[]string{"Next.js frontend, the person's answer to the agent's question: Frontend Framework"}},
		{"the recommendation accepted",
			[]string{clarify, "user: yes"},
			[]string{"Next.js frontend, the person's answer to the agent's question: Frontend Framework"}},
		{"a short answer of the person's own",
			[]string{clarify, "user: SvelteKit"},
			[]string{"SvelteKit, the person's answer to the agent's question: Frontend Framework"}},
		{"a question back answers nothing",
			[]string{clarify, "user: what are you talking about?"},
			nil},
		{"a question heading in Korean, its options in a table",
			[]string{"assistant: **질문 1/최대 5 - 마스킹 기준**\n\n**Recommended:** Option B - 권한별 노출 수준을 고정합니다.\n\n| Option | Description |\n|--------|-------------|\n| A | 모든 수치 공개 (마스킹 없음) |\n| B | 권한별로 마스킹 |", "user: A"},
			[]string{"모든 수치 공개 (마스킹 없음), the person's answer to the agent's question: 마스킹 기준"}},
		{"a question as a sentence above the table",
			[]string{"assistant: Should ideas be editable after creation?\n\n| Option | Description |\n|---|---|\n| A | Yes — title and notes, anytime |\n| B | No — ideas are immutable after creation |", "user: A"},
			[]string{"Yes — title and notes, anytime, the person's answer to the agent's question: should ideas be editable after creation"}},
		{"the recommendation alone above the table",
			[]string{"assistant: **Recommended:** Option A - Monorepo keeps the scaffold simple.\n\n| Option | Description |\n|---|---|\n| A | Single repository with `backend/` and `frontend/` |\n| B | Separate repositories |", "user: A"},
			[]string{"Single repository with `backend/` and `frontend/`, the person's choice among the options the agent gave"}},
		{"the recommendation alone, and an answer that needs its question",
			[]string{"assistant: **Recommended:** Option B - Long enough for most prompts.\n\n| Option | Description |\n|---|---|\n| A | 1,000 characters max |\n| B | 4,000 characters max |", "user: B"},
			nil},
		// a bulleted list of options headed by their names in bold, the name typed back (a Gemini
		// CLI session of sealed set F)
		{"an option's bold name typed back",
			[]string{"assistant: Great! To get started, which platform would you like to prioritize for submitting your expenses?\n\n- **WhatsApp** (requires a Business API)\n- **Telegram** (easier to set up with a free bot API)", "user: Telegram."},
			[]string{"Telegram, the person's answer to the agent's question: which platform would you like to prioritize for submitting your expenses"}},
		{"its note left out, its colon too",
			[]string{"assistant: Since we're using **Google Sheets**, how would you like the bot to handle **Receipt Images**?\n\n- **Simple Storage:** Just save the photo.\n- **Smart Extraction (OCR):** The bot reads the receipt.", "user: smart extraction"},
			[]string{"Smart Extraction, the person's answer to the agent's question: how would you like the bot to handle Receipt Images"}},
		{"a name not among the options, a step of the moment, a question after the list",
			[]string{"assistant: Which do you want?\n- **WhatsApp**\n- **Telegram**", "user: Signal",
				"assistant: What should I do first?\n- **Fix the login**\n- **Add tests**", "user: Fix the login",
				"assistant: Options:\n- **Postgres**\n- **SQLite**\n\nAny other questions?", "user: SQLite"},
			nil},
		{"two tables: a letter answers neither alone",
			[]string{"assistant: ## Question 1: Max length\n| Option | Answer |\n|---|---|\n| A | 30 seconds |\n| B | 60 seconds |\n\n## Question 2: Output\n| Option | Answer |\n|---|---|\n| A | Plain text |\n| B | Timestamps |", "user: B"},
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
