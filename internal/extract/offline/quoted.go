package offline

import (
	"strings"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/lazyre"
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

// A letter pasted into the message (a buyer's request, a colleague's mail) is someone else's
// words: from its salutation on a line of its own ("Hello,", "Dear Ms Li,", "您好，") to its
// formal closing ("Best regards,", "Looking forward to your reply.", "此致", "Cordialement") and the
// name under it, nothing is read. A closing as short as "Thanks" is the person's own sign-off to
// the agent, and marks no letter.
var (
	letterOpen  = lazyre.New(`(?i)^(?:hello|hi|hey|dear\b[^,，]{0,40}|greetings|good (?:morning|afternoon|evening)|bonjour|hola|hallo|ciao|olá|xin chào|kính gửi[^,，]{0,40}|您好|你好|尊敬的[^,，]{0,20})\s*[,，!！:：]?\s*$`)
	letterClose = lazyre.New(`(?i)^(?:(?:best|kind|warm|warmest|many)\s+(?:regards|wishes|looks|thanks)|regards|sincerely(?:\s+yours)?|yours\s+(?:sincerely|faithfully|truly)|looking forward to (?:your|hearing)[^.!]*|cordialement|bien (?:à vous|cordialement)|saludos(?:\s+cordiales)?|atentamente|mit freundlichen grüßen|freundliche grüße|met vriendelijke groet(?:en)?|atenciosamente|cordiali saluti|trân trọng|此致(?:敬礼)?|顺颂商祺|祝好)\s*[,，.!。]*\s*$`)
)

// maxLetterLines bounds how far a letter's closing may be from its salutation.
const maxLetterLines = 120

// withoutLetters returns text without the letters pasted into it.
func withoutLetters(text string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	lines := strings.Split(text, "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		if letterOpen.MatchString(strings.TrimSpace(lines[i])) {
			if end := letterEnd(lines, i); end > i {
				i = end
				continue
			}
		}
		kept = append(kept, lines[i])
	}
	return strings.Join(kept, "\n")
}

// letterEnd is the last line of the letter whose salutation is lines[open]: its closing and the
// short name under it; open itself when no formal closing follows.
func letterEnd(lines []string, open int) int {
	for j := open + 1; j < len(lines) && j <= open+maxLetterLines; j++ {
		if !letterClose.MatchString(strings.TrimSpace(lines[j])) {
			continue
		}
		if j+1 < len(lines) && len(strings.Fields(lines[j+1])) <= 4 && utf8.RuneCountInString(strings.TrimSpace(lines[j+1])) <= 40 {
			j++ // the name it is signed with
		}
		return j
	}
	return open
}

// A chatbot's answer copied from its web app comes after the line its copy starts with, the
// bot's name and "said" in the app's language ("ChatGPT said:", "Gemini a dit"), often run on
// to the end of the person's own line: from there on the message is the bot's words.
//
// Another agent's words relayed by the person ("CLAUDE SAYS: \"I misunderstood …") start the same
// way with a colon, on the line itself; and Gemini's web app copies its answer after a line that
// is the bot's name alone ("Gemini" ⏎ "Thinking" ⏎ …).
var botSaid = lazyre.New(`(?im)(?:^|\s)` + botNames + `\s+(?:said|says|a dit|dijo|disse|sagte|zei|ha detto|сказал|đã nói|说|說)\s*(?:[:：]|$)|^\s*` + botNames + `\s*$`)

const botNames = `(?:ChatGPT|Gemini|Claude(?: Code)?|Codex|Copilot|Cursor|DeepSeek|Grok|Perplexity|Mistral|Le Chat|Kimi|Qwen|豆包|通义千问|文心一言)`

// botOpening is how a chatbot opens its answer, which a person does not write to an agent: "好的，已
// 根据知识库内容，为您…", "Sure! Here's…", "Bien sûr ! Cependant, je n'ai pas accès à…". A message
// that opens so is an answer pasted whole.
var botOpening = lazyre.New(`^(?:(?:好的|当然|當然|没问题|沒問題)[，,！!]\s*我?(?:已|将|將|来|來|为您|為您|根据|根據)|(?i:(?:sure|of course|certainly|absolutely)[!.,]?\s+(?:here(?:'s|\s+is|\s+are)|i(?:'ve|\s+have|'ll|\s+will)\b)|(?:¡claro!|claro[,!]\s+aquí|bien sûr\s?!|bien sûr,\s+voici)))`)

// withoutBotAnswer returns text without a chatbot's answer pasted after the person's words, or
// pasted whole.
func withoutBotAnswer(text string) string {
	if botOpening.MatchString(strings.TrimSpace(text)) {
		return ""
	}
	if loc := botSaid.FindStringIndex(text); loc != nil {
		return strings.TrimSpace(text[:loc[0]])
	}
	return text
}
