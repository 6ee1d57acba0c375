package offline

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
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
		basis := fmt.Sprintf("the person's answer to the agent's question %d in their %s message of %s", n, ordinal(message), sessionOn(s))
		out = append(out, answerLesson(answerRule(strings.TrimRight(answer, " ."), lowerFirst(q.text)), basis, s, message))
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

// Spec Kit's /speckit.clarify asks one question at a time and lists its options in a table, the
// one it recommends above it:
//
//	## Question 2: Frontend framework
//	**Recommended:** Option B - Next.js gives a clear React baseline …
//	| Option | Description |
//	| A | React (e.g., Vite) frontend |
//	| B | Next.js frontend |
//	| Short | Provide a different short answer (<=5 words) |
//
// and the person types the letter, "yes" for the recommendation, or a short answer of their own.
// Each answer settles how the specified thing is to be, so it is kept as a decision whatever it
// names; a question about the work of the moment is not.

var (
	// tableOption is a lettered row of an options table: its letter and its first cell after it.
	tableOption = lazyre.New(`^\s*\|\s*(?:\*\*)?(?:Option\s+)?([A-F])(?:\*\*)?\s*\|\s*([^|]+?)\s*\|`)
	// tableOwnAnswer is the row that offers an answer of the person's own.
	tableOwnAnswer = lazyre.New(`(?i)^\s*\|\s*(?:\*\*)?(?:short|custom|other)(?:\*\*)?\s*\|`)
	// recommendedOption names the option the agent recommends or suggests.
	recommendedOption = lazyre.New(`(?i)\*\*(?:recommended|suggested)[^*]*\*\*\s*:?\s*(?:\*\*)?option\s+([A-F])\b`)
	// questionPrefix is how a question's heading numbers it: "Clarification Question 1: ", "질문 1/최대 5 - ".
	questionPrefix = lazyre.New(`^[^:：\-–—]{0,30}?\d+(?:\s*(?:/|of|из)\s*[^:：\-–—\d]{0,10}\d+)?\s*[:：\-–—]\s*`)
	// acceptsRecommended is the person taking the option the agent recommends.
	acceptsRecommended = lazyre.New(`(?i)^(?:yes|y|ok|okay|recommended|sounds good|go with (?:the )?recommend\w*|да|네|예|是|好|可以|sí|si|sim|oui|ja)$`)
	// letterOnly is a typed letter: "B", "b.", "Option C".
	letterOnly = lazyre.New(`(?i)^(?:option\s+)?([a-f])[.)]?$`)
)

// maxOwnAnswerWords is how long an answer of the person's own may be, as the table offers it.
const maxOwnAnswerWords = 5

// tableQuestion returns the question of a reply that lists its options in a table (its text ""
// when the reply gives only its recommendation above the table), with the letter of the option it
// recommends (0 for none) and whether it takes an answer of the person's own; nil when the reply
// has no such table, or several (their letters answer none alone).
func tableQuestion(reply string) (q *askedQuestion, recommended byte, own bool) {
	lines := strings.Split(reply, "\n")
	first, tables := -1, 0
	inTable := false
	for i, line := range lines {
		m := tableOption.FindStringSubmatch(line)
		own = own || tableOwnAnswer.MatchString(line)
		switch {
		case m != nil && !inTable:
			tables++
			if first < 0 {
				first, q = i, &askedQuestion{options: map[byte]string{}}
			}
			fallthrough
		case m != nil:
			inTable = true
			if tables == 1 {
				q.options[m[1][0]] = strings.Trim(m[2], "* ")
			}
		case !strings.HasPrefix(strings.TrimSpace(line), "|"):
			inTable = false
		}
	}
	if tables != 1 || len(q.options) < 2 {
		return nil, 0, false
	}
	for i := first - 1; i >= 0 && q.text == ""; i-- {
		line := strings.TrimSpace(lines[i])
		plain := strings.TrimSpace(strings.Trim(strings.TrimLeft(line, "#"), "* "))
		switch {
		case plain == "" || strings.HasPrefix(line, "|") || recommendedOption.MatchString(line) || strings.HasPrefix(line, "**") && !strings.HasSuffix(line, "**"):
			// the table's head, the recommendation, a labelled line of context
		case strings.ContainsAny(line, "?？"):
			q.text = lowerFirst(strings.TrimRight(questionPrefix.ReplaceAllString(plain, ""), "?？ "))
		case strings.HasPrefix(line, "#") || strings.HasPrefix(line, "**"):
			q.text = questionPrefix.ReplaceAllString(plain, "") // a heading names what is asked: "Frontend Framework"
		default:
			i = 0 // prose the question is not in
		}
	}
	if m := recommendedOption.FindStringSubmatch(reply); m != nil {
		recommended = strings.ToUpper(m[1])[0]
	}
	return q, recommended, own
}

// tableAnswer returns the decision of a message that answers the agent's table question in
// reply: the option whose letter it types, the recommended one it accepts, or its own short
// answer when the table offers one; nil for anything else.
func tableAnswer(text, reply string, s *extract.Session, message int) *lesson {
	q, rec, own := tableQuestion(reply)
	if q == nil || dayQuestion.MatchString(q.text) {
		return nil
	}
	typed := strings.TrimRight(tidy(text), ".。!！ ")
	answer := ""
	switch m := letterOnly.FindStringSubmatch(typed); {
	case m != nil:
		answer = q.options[strings.ToUpper(m[1])[0]]
	case acceptsRecommended.MatchString(typed) && rec != 0:
		answer = q.options[rec]
	case own && len(strings.Fields(typed)) <= maxOwnAnswerWords && !yesNo.MatchString(typed) && !isQuestion(typed):
		answer = typed
	}
	answer = strings.TrimSpace(recommended.ReplaceAllString(strings.ReplaceAll(answer, "**", ""), ""))
	if answer == "" || !hasLetters(answer) || hasSecret(answer) || injected(answer) || q.text == "" && !namesAThing(answer) {
		return nil // an answer without its question must say what it is about: "Next.js frontend", not "4,000 characters max"
	}
	rule := answerRule(strings.TrimRight(answer, " ."), q.text)
	if q.text == "" {
		rule = strings.TrimRight(answer, " .") + ", the person's choice among the options the agent gave" // asked with its recommendation only
	}
	return answerLesson(rule, answeredIn(message, s), s, message)
}

// An agent also asks with its options as a bulleted list, each headed by its name in bold, and
// the person types the name back:
//
//	To get started, which platform would you like to prioritize for submitting your expenses?
//	- **WhatsApp** (requires a Business API or a gateway like Twilio)
//	- **Telegram** (easier to set up with a free bot API)
//
// "Telegram." chose how the project is to be, as a letter typed against a table does.

var (
	// boldOption is a bulleted option headed by its name in bold: its name, without a closing colon.
	boldOption = lazyre.New(`^\s*[-*•]\s+\*\*([^*\n]{1,60}?)[:：]?\*\*`)
	// optionNote is what follows an option's name inside the bold: "Smart Extraction (OCR)".
	optionNote = lazyre.New(`\s*[(（][^)）]*[)）]\s*$`)
	// stepQuestion asks about the work of the moment, whatever its options: "which should I do first?".
	// It is narrower than dayQuestion, which also turns away "would you like …" and "prioritize":
	// a question listing named options asks them too of how the project is to be.
	stepQuestion = lazyre.New(`(?i)\b(?:proceed|continue|go ahead|commit|push|retry|next|first|now|start with|shall i|should i|want me to)\b`)
	// questionLead is a clause that leads into a question: "To get started, which …", "Since we're using X, how …".
	questionLead = lazyre.New(`(?i)^[^,?]{1,60},\s*((?:which|what|how|where|who|do|does|should|would|will|can|could|is|are)\b.*)$`)
)

// maxOptionWords is how long an option's name may be to be typed back as a choice.
const maxOptionWords = 6

// bulletQuestion returns the question of a reply that ends by listing its options as bulleted
// bold names, with the names; nil when it does not, or states no question before them.
func bulletQuestion(reply string) (question string, options []string) {
	lines := strings.Split(strings.TrimRight(reply, "\n "), "\n")
	end := len(lines) - 1
	for end >= 0 && !boldOption.MatchString(lines[end]) {
		if strings.ContainsAny(lines[end], "?？") {
			return "", nil // a question after the options asks something else
		}
		end--
	}
	start := end
	for ; start >= 0; start-- {
		m := boldOption.FindStringSubmatch(lines[start])
		if m == nil {
			if strings.TrimSpace(lines[start]) == "" {
				continue
			}
			break
		}
		name := strings.TrimSpace(optionNote.ReplaceAllString(m[1], ""))
		if len(strings.Fields(name)) > maxOptionWords {
			return "", nil
		}
		options = append(options, name)
	}
	if len(options) < 2 || start < 0 {
		return "", nil
	}
	line := strings.ReplaceAll(strings.TrimSpace(lines[start]), "**", "")
	if !strings.ContainsAny(line, "?？") {
		return "", nil
	}
	question = strings.TrimRight(strings.TrimLeft(line, "# "), "?？ ")
	// the sentence that asks: "Great! To get started, which …", "好的。Which channel …"
	if i := strings.LastIndexAny(question, "。！!"); i >= 0 {
		_, size := utf8.DecodeRuneInString(question[i:])
		question = strings.TrimSpace(question[i+size:])
	} else if i := strings.LastIndex(question, ". "); i >= 0 {
		question = question[i+2:]
	}
	if m := questionLead.FindStringSubmatch(question); m != nil {
		question = m[1]
	}
	return lowerFirst(question), options
}

// bulletAnswer returns the decision of a message that types back the name of one of the options
// the agent's reply listed in bold under its question; nil for anything else.
func bulletAnswer(text, reply string, s *extract.Session, message int) *lesson {
	question, options := bulletQuestion(reply)
	if question == "" || stepQuestion.MatchString(question) {
		return nil
	}
	typed := strings.TrimRight(tidy(text), ".。!！ ")
	i := slices.IndexFunc(options, func(o string) bool { return strings.EqualFold(o, typed) })
	if i < 0 || yesNo.MatchString(typed) || hasSecret(typed) || !hasLetters(typed) {
		return nil
	}
	return answerLesson(answerRule(options[i], question), answeredIn(message, s), s, message)
}
