package offline

import (
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
)

// said are the descriptions of the memories one session of user turns gives, without their
// closing period, in name order.
func said(t *testing.T, texts ...string) []string {
	t.Helper()
	return saidIn(t, userSession("s1", day(18), texts...))
}

// saidIn is said for any sessions.
func saidIn(t *testing.T, sessions ...extract.Session) []string {
	t.Helper()
	res := run(t, nil, sessions...)
	var got []string
	for _, op := range res.Response.Operations {
		got = append(got, strings.TrimSuffix(op.Description, "."))
	}
	return got
}

// TestPastedInstructions keeps nothing the person stated in a long message that states many
// rules at once (a prompt template, a generated swarm brief), and keeps a rule said in a message.
func TestPastedInstructions(t *testing.T) {
	filler := strings.Repeat("The report covers the regional data in depth and with care. ", 25)
	template := "Rewrite the report. " + filler + "Note: the report is written in the language of the question. " +
		"Remember, the brief may be in English. Never refer to yourself as the writer of the report. " +
		"IMPORTANT: number the sources without gaps. Always use headings for sections."
	if got := said(t, template); len(got) != 0 {
		t.Errorf("a pasted template gave memories %q", got)
	}
	short := "Remember that the staging database is reset every night."
	if got := said(t, short); len(got) != 1 {
		t.Errorf("a rule said in a message gave %q, want one memory", got)
	}
	// The same rules, a few at a time in a long message, are the person's.
	two := filler + "Remember that the staging database is reset every night. Never push to main directly."
	if got := said(t, two); len(got) != 2 {
		t.Errorf("two rules in a long message gave %q, want two memories", got)
	}
	res := run(t, nil, userSession("s1", day(18), template))
	if !strings.Contains(res.Response.Summary, "1 turn that read as pasted instructions") {
		t.Errorf("summary does not say a turn was skipped as pasted instructions: %s", res.Response.Summary)
	}
}

// TestStepList keeps nothing the person flagged inside a task written out as labelled steps, and
// keeps a rule flagged in a message with a label or two.
func TestStepList(t *testing.T) {
	steps := "J'ai branché un disque externe en USB. Réalise les étapes suivantes :\n\n" +
		"Identification : Utilise lsblk et blkid pour identifier le disque.\n\n" +
		"Important : Utilise les options defaults,nofail,uid=1000 pour que le Pi démarre sans le disque.\n\n" +
		"Application : Monte le disque avec sudo mount -a et relance Plex."
	if got := said(t, steps); len(got) != 0 {
		t.Errorf("a list of steps gave memories %q", got)
	}
	labelled := "Contexte : le site est en Astro.\n\nImportant : n'utilise jamais Tailwind dans ce projet."
	if got := said(t, labelled); len(got) != 1 {
		t.Errorf("a rule flagged in a message of two labels gave %q, want one memory", got)
	}
}

// TestAnswerThatFailed drops the person's answer when their next message says what they chose
// does not work.
func TestAnswerThatFailed(t *testing.T) {
	answer := `Answers to the agent's questions: "Which keybinding should the model picker use?"="Alt+M"`
	for _, tt := range []struct {
		next string
		want int
	}{
		{"does not work", 0},
		{"also conflicts with vscode", 0},
		{"no funciona", 0},
		{"thanks, now add the tests", 1},
		{"", 1}, // the answer was the session's last message
	} {
		texts := []string{answer}
		if tt.next != "" {
			texts = append(texts, tt.next)
		}
		if got := said(t, texts...); len(got) != tt.want {
			t.Errorf("answer then %q: memories %q, want %d", tt.next, got, tt.want)
		}
	}
}

func TestQuestionWithoutMark(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Can you check if the solution proposed is obsolete", true},
		{"could you always use pnpm here", true},
		{"Puedes revisar si esto siempre falla", true},
		{"Do not use Chart.js", false},
		{"Always use pnpm", false},
		{"Candidates must be reviewed", false},
		{"为什么我在插件中看不到我当前的环境", true},
		{"这个数值是什么意思", true},
		{"是不是因为没有力的输入", true},
		{"你能帮我看一下吗", true},
		{"以后都用 pnpm", false},
		{"不要用 Chart.js", false},
	} {
		if got := isQuestion(tt.text); got != tt.want {
			t.Errorf("isQuestion(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestEnglishFlags is how real sessions flag a lesson in English beside "remember that": "I forgot
// to mention", "it's very important that" — but not a request to the agent of the moment.
func TestEnglishFlags(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"I forgot to mention that the deploys go through make deploy.", "The deploys go through make deploy"},
		{"Oh, I forgot to tell you: staging is reset every night.", "Staging is reset every night"},
		{"It's very important that the API stays backwards compatible.", "The API stays backwards compatible"},
		{"It is important that you read the file first.", ""},
		{"It's important to me.", ""},
		{"I forgot to mention the bug.", ""},
	} {
		got := strings.Join(said(t, tt.text), "|")
		if got != tt.want {
			t.Errorf("%q: memories %q, want %q", tt.text, got, tt.want)
		}
	}
}
