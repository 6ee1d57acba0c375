package offline

import (
	"fmt"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
)

// The person's typed answers to the agent's numbered questions. Agents that have no question
// tool, or do not use it, ask in their reply:
//
//	1. Which database should the API use?
//	   A) PostgreSQL
//	   B) SQLite
//	2. …
//
// and the person types "1) B 2) A", "1B, 2A" or "1. SQLite". Each answer is read against its
// question and taken as a decision the way one picked in Claude Code's question tool is
// (answerLessons): only when it names a thing, and not about the work of the moment.

// askedQuestion is one numbered question of the agent's reply, with its lettered options.
type askedQuestion struct {
	text    string
	options map[byte]string // 'A' → "PostgreSQL"
}

var (
	// numberedLine is a numbered line of a reply or a message: "1. …", "2) …", "**3.** …", "Q4: …".
	numberedLine = lazyre.New(`^\s*(?:#{1,4}\s*)?(?:\*\*)?(?:Q|Question\s*)?(\d{1,2})(?:\*\*)?\s*[.)、:：]\s*(?:\*\*)?\s*(.+?)\s*$`)
	// optionLine is a lettered option under a question: "A) PostgreSQL", "- **B.** SQLite", "(c) none".
	optionLine = lazyre.New(`^\s*(?:[-*•]\s*)?(?:\*\*)?(?:\(([A-Fa-f])\)|(?:Option\s+)?([A-F])\s*[.):：]|([a-f])[.)])(?:\*\*)?\s+(.+?)\s*$`)
	// inlineOption opens an option of a question that lists them on its own line: "… (A) PostgreSQL (B) SQLite".
	inlineOption = lazyre.New(`(?:^|\s)\(?([A-F])[).]\s+`)
	// letterAnswer is "1) B", "1B", "1: b", "1-A": a question's number and the letter chosen.
	letterAnswer = lazyre.New(`(?:^|[\s,;，；/])(\d{1,2})\s*[.):：=-]?\s*([A-Fa-f])`)
	// optionTail is what follows an option's name: the agent's reasons and its recommendation.
	optionTail = lazyre.New(`\s*(?:\(|（|\s[-–—]\s|:\s|：).*$`)
)

// maxNumberedAnswer is how long one typed answer may be: a choice, not a new request.
const maxNumberedAnswer = 100

// numberedQuestions reads the agent's reply for its numbered questions, by number.
func numberedQuestions(reply string) map[int]*askedQuestion {
	out := map[int]*askedQuestion{}
	var q *askedQuestion
	for _, line := range strings.Split(reply, "\n") {
		if m := optionLine.FindStringSubmatch(line); m != nil && q != nil {
			letter := strings.ToUpper(m[1] + m[2] + m[3])[0]
			q.options[letter] = strings.Trim(m[4], "* ")
			continue
		}
		m := numberedLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		q = nil
		text := strings.ReplaceAll(m[2], "**", "")
		mark := strings.IndexAny(text, "?？")
		if mark < 0 {
			continue // a numbered step, not a question
		}
		n := 0
		fmt.Sscan(m[1], &n)
		q = &askedQuestion{text: strings.TrimSpace(text[:mark]), options: map[byte]string{}}
		opts := text[mark+1:]
		ms := inlineOption.FindAllStringSubmatchIndex(opts, -1)
		for i, o := range ms {
			end := len(opts)
			if i+1 < len(ms) {
				end = ms[i+1][0]
			}
			q.options[opts[o[2]]] = strings.Trim(opts[o[1]:end], " ,/;|")
		}
		out[n] = q
	}
	return out
}

// typedAnswers returns the decisions of a message that answers the agent's numbered questions
// of reply, one per answer that names a thing. The message must be the answers and little else:
// a request that happens to hold a numbered list answers nothing.
func typedAnswers(text, reply string, s *extract.Session, message int) []*lesson {
	asked := numberedQuestions(reply)
	if len(asked) == 0 {
		return nil
	}
	chosen := map[int]string{}
	var order []int
	pick := func(n int, answer string) {
		if _, dup := chosen[n]; !dup && asked[n] != nil {
			order = append(order, n)
		}
		chosen[n] = answer
	}
	rest := text
	ms := letterAnswers(text)
	for _, m := range ms {
		n := 0
		fmt.Sscan(text[m[2]:m[3]], &n)
		if q := asked[n]; q != nil {
			if o, ok := q.options[strings.ToUpper(text[m[4]:m[5]])[0]]; ok {
				pick(n, o)
			}
		}
	}
	if ms != nil {
		rest = letterAnswer.ReplaceAllString(text, " ")
	}
	var other []string
	for _, line := range strings.Split(rest, "\n") {
		m := numberedLine.FindStringSubmatch(line)
		if m == nil {
			other = append(other, line)
			continue
		}
		n := 0
		fmt.Sscan(m[1], &n)
		if _, done := chosen[n]; !done && len(m[2]) <= maxNumberedAnswer {
			pick(n, m[2])
		}
	}
	rest = strings.Join(other, " ")
	if len(order) == 0 || len(strings.Fields(rest)) > 2*len(order)+3 {
		return nil
	}
	var out []*lesson
	for _, n := range order {
		q, answer := asked[n], tidy(optionTail.ReplaceAllString(strings.ReplaceAll(chosen[n], "**", ""), ""))
		answer = strings.TrimSpace(recommended.ReplaceAllString(answer, ""))
		if yesNo.MatchString(answer) || dayQuestion.MatchString(q.text) || hasSecret(answer) || injected(answer) ||
			!hasLetters(answer) || !namesAThing(answer) || isQuestion(answer) {
			continue
		}
		rule := fmt.Sprintf("%s, the person's answer to the agent's question: %s", strings.TrimRight(answer, " ."), lowerFirst(q.text))
		basis := fmt.Sprintf("the person's answer to the agent's question %d in their %s message of %s", n, ordinal(message), sessionOn(s))
		l := evidenceLesson(memory.Project, rule, basis, "answered the agent's question", s)
		l.decision, l.message = true, message
		out = append(out, l)
	}
	return out
}

// letterAnswers returns the matches of letterAnswer in text when each letter stands alone ("1)
// B 2) A", "1B, 2A"), nil when one begins a word or goes on with words ("1. A simple cache" is
// typed, not the letter A).
func letterAnswers(text string) [][]int {
	ms := letterAnswer.FindAllStringSubmatchIndex(text, -1)
	for _, m := range ms {
		after := strings.TrimLeft(text[m[5]:], " \t")
		if len(after) < len(text[m[5]:]) && after != "" && !startsAnswer(after) || after != "" && isLetter(rune(after[0])) {
			return nil
		}
	}
	return ms
}

// startsAnswer is what may follow a letter answer after a space: the next answer's number, a
// separator, or the end of the line.
func startsAnswer(s string) bool {
	return strings.ContainsAny(s[:1], ",;/.)\n0123456789") || strings.HasPrefix(s, "，") || strings.HasPrefix(s, "；")
}
