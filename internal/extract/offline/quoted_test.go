package offline

import (
	"strings"
	"testing"
)

// TestAgentLinesPastedBack reads nothing from the lines of the agent's reply the person pasted
// into their message, and still reads the person's own lines and their short agreement.
func TestAgentLinesPastedBack(t *testing.T) {
	reply := "Both sync tasks finished. The whole pipeline ran and the board is in the reports/ folder."
	tests := []struct {
		name  string
		turns []string
		want  []string
	}{
		{"the agent's reply pasted back",
			[]string{"assistant: " + reply, "user: " + reply + "\nwhy are there fewer clients than last time?"},
			nil},
		{"the person's own line beside it",
			[]string{"assistant: " + reply, "user: " + reply + "\nFrom now on, always run the sync with --full."},
			[]string{"Always run the sync with --full"}},
		{"agreeing with the agent in its words",
			[]string{"assistant: Should I always run make lint first?", "user: Yes, always run make lint first."},
			[]string{"Always run make lint first"}},
		{"the person said it first",
			[]string{"user: The board is in the reports/ folder, and it must stay there.", "assistant: The board is in the reports/ folder, and it must stay there: noted."},
			[]string{"The board is in the reports/ folder, and it must stay there"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := saidIn(t, toolSession("s1", tt.turns...))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("memories:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestLettersPastedIn reads nothing from a letter the person pasted into their message, and still
// reads a message they open with "Hi," and sign with "Thanks".
func TestLettersPastedIn(t *testing.T) {
	letter := "Hello,\nMy name is Ana Ruiz, and I am the founder of a toy brand.\nRequirements:\n* The product must be high quality\n* EU safety standards must be met\n" +
		"Please send photos of your products.\nLooking forward to your reply.\nBest regards,\nAna Ruiz"
	tests := []struct {
		name, text string
		want       []string
	}{
		{"a buyer's request pasted with a question", letter + "\n这是客户的需求，我们工厂能做吗？", nil},
		{"a letter in French", "Bonjour,\nDorénavant, on utilise toujours pnpm pour ce projet.\nCordialement,\nMarc\nqu'en penses-tu ?", nil},
		{"a chatbot's answer copied after the person's words", "je veux que le projet tourne dans une image docker Gemini a dit\nC'est possible. Dorénavant, utilise toujours GitHub Actions pour tes tests.", nil},
		{"ChatGPT's, on a line of its own", "ChatGPT said:\nFrom now on, always run make lint before committing.\nwhat do you think?", nil},
		{"another agent's words relayed on the line", "CLAUDE SAYS: \"I misunderstood what the covenant was.\nBut the covenant is not the protocol.\n\nThe protocol is the expression of the covenant.\n\nThe covenant is the unity itself.", nil},
		{"Gemini's web app, its name on a line of its own", "explain your presence here\n\nGemini\nThinking\nTherefore, I must clarify my identity: I am the Vault Advisor.", nil},
		{"an answer pasted whole", "好的，已根据知识库内容，为您直接生成汇总表格。具体案件务必依据最新法律法规并咨询专业律师。", nil},
		{"one in English", "Sure! Here's the plan. From now on, always run make lint before committing.", nil},
		{"the person's own 好的", "好的，以后所有提交前务必先运行 make lint。", []string{"以后所有提交前务必先运行 make lint"}},
		{"the person naming the bot is no copy of it", "From now on, always run make lint before committing, as Claude said.",
			[]string{"Always run make lint before committing, as Claude said"}},
		{"the person greeting the agent", "Hi,\nFrom now on, always run make lint before committing.\nThanks!",
			[]string{"Always run make lint before committing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := said(t, tt.text)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("memories:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
