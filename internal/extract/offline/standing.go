package offline

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// People rarely say "remember that": they give their rules inside requests, and the rules that
// hold they give again. A clause the person appends to different requests ("… use context7",
// "…。先别写代码，先分析原因", "Parle-moi en français.") or opens different sessions of a project
// with ("Keep this spec updated as decisions are made.") is a standing instruction, in whatever
// language it is said: its recurrence is the evidence that it holds beyond the request at hand,
// as a template's suffix does. What recurs and is no instruction is screened out: the lines of a
// pasted log or error (they recur with every paste), acknowledgements and questions ("继续",
// "thanks", "por que ?"), the agent's own words quoted back to it, a whole message sent again
// after a failure (its rest does not differ) or a task's prompt pasted again the same day,
// headers of what follows ("fix npm run build:"), and clauses that lean on the message they are
// in ("analiza esto", "explain the pros and cons of each").

const (
	// standingMessages is how many different messages make a clause standing within a project.
	standingMessages = 3 // counted as runs: a clause said in consecutive messages of a session is one saying
	// standingInARow is how many messages make a clause standing however they follow each other:
	// appended to every message, a template's suffix comes in a row; a task retried while it fails
	// is seldom typed again word for word that often, each time beside other words.
	standingInARow = 5
	// standingDays is how many days of a project's sessions make it standing with fewer messages:
	// said at the start of sessions of two days, it is how the person opens their work there. Two
	// sessions of one day are often one task started again, its prompt pasted again and revised.
	standingDays = 2
	// resentSimilarity is how alike two messages are (shingles shared over those of either) when
	// the second is the first sent again, revised after a failed try: one saying, not two.
	resentSimilarity = 0.8
	// standingWords bounds a standing clause: longer, it is a task's description.
	standingWords = 30
)

// personMessage is one message the person wrote: where it was said and its text.
type personMessage struct {
	session *extract.Session
	message int       // which of the session's user messages, from 1
	turn    int       // the message's index among the session's turns
	at      time.Time // when it was said: its turn's time, else its session's day
	text    string
}

// standingInstruction is a clause the person said again and again, as first said, with the
// messages that said it.
type standingInstruction struct {
	clause  string
	lang    string // the language of the clause when its shape names one, "" for English or none
	sayings []personMessage
}

// standingInstructions returns the clauses that recur as standing instructions in msgs, the
// person's messages in the order they were said: a clause (a sentence or a line) of their own
// prose that says what to do or how to work (instructionShape), said again, word for word but
// for case, spaces and punctuation, in at least standingMessages messages of a project, or in
// its sessions of standingDays days, each time with something else (a request) beside it. A
// message much like an earlier one that said the clause is that message sent again: it adds no
// saying; and messages in a row that say it count as one unless there are standingInARow of
// them: a task asked again while it fails is asked in a row, an instruction appended to requests
// comes back between others.
func standingInstructions(msgs []personMessage, agent agentWords) []standingInstruction {
	type track struct {
		standingInstruction
		texts []map[string]bool // the shingles of each saying's message
		runs  int               // sayings that do not follow one in the message before
	}
	var order []string
	tracks := map[string]*track{}
	for _, m := range msgs {
		if injected(m.text) || generated(m.text) {
			continue
		}
		clauses := ownClauses(m.text)
		if len(clauses) < 2 {
			continue // a message of one clause has no request beside it: "continue", a task sent again
		}
		whole := shingles(strings.Join(clauses, " "))
		seen := map[string]bool{}
		for _, c := range clauses {
			key := m.session.Project + "\x00" + clauseKey(c)
			if seen[key] {
				continue
			}
			seen[key] = true
			tr := tracks[key]
			if tr == nil {
				tr = &track{}
				tracks[key] = tr
				order = append(order, key)
			}
			if slices.ContainsFunc(tr.texts, func(t map[string]bool) bool { return overlap(t, whole) >= resentSimilarity }) {
				continue
			}
			if tr.clause == "" {
				// Any saying in the shape of an instruction shows what the others mean: "parle
				// moi en francais", typed in a hurry, after "Parle-moi en français".
				if lang, ok := instructionShape(c); ok {
					tr.clause, tr.lang = c, lang
				}
			}
			if n := len(tr.sayings); n == 0 || tr.sayings[n-1].session != m.session || tr.sayings[n-1].message+1 != m.message {
				tr.runs++
			}
			tr.sayings = append(tr.sayings, m)
			tr.texts = append(tr.texts, whole)
		}
	}
	var out []standingInstruction
	for _, key := range order {
		tr := tracks[key]
		if tr.clause == "" || tr.runs < standingMessages && len(tr.sayings) < standingInARow && dayCount(tr.sayings) < standingDays {
			continue
		}
		if agent.said(tr.sayings[0], clauseKey(tr.clause)) {
			continue // the agent's words, quoted back: "Run the tests after each step." from its plan
		}
		out = append(out, tr.standingInstruction)
	}
	return out
}

// agentWords are the agent's turns of each session, as clauseKey compares them, read once.
type agentWords map[*extract.Session][]string

// said reports whether the agent said key, a clause's key, in a turn of m's session before m:
// the person quoting the agent's plan or answer back to it repeats the agent's words, not theirs.
func (a agentWords) said(m personMessage, key string) bool {
	keys, ok := a[m.session]
	if !ok {
		keys = make([]string, len(m.session.Turns))
		for i, t := range m.session.Turns {
			if t.Role == transcript.Assistant {
				keys[i] = " " + clauseKey(t.Text) + " "
			}
		}
		a[m.session] = keys
	}
	for _, k := range keys[:min(m.turn, len(keys))] {
		if k != "" && strings.Contains(k, " "+key+" ") {
			return true
		}
	}
	return false
}

// dayCount is how many days the sayings were said on, of those whose day is known.
func dayCount(sayings []personMessage) int {
	var days []string
	for _, m := range sayings {
		d := m.at
		if d.IsZero() {
			d = m.session.Date
		}
		if !d.IsZero() && !slices.Contains(days, d.Format(time.DateOnly)) {
			days = append(days, d.Format(time.DateOnly))
		}
	}
	return len(days)
}

// ownClauses returns the clauses of a message's prose the person wrote themselves: each sentence
// of a prose line, tidied. A line next to one a program printed (a log, a stack trace, a collapsed
// paste) is part of what was pasted, even when it reads as prose ("Click outside, press Esc key,
// or fix the code to dismiss.", under Vite's error overlay); a fenced block, a tagged block and a
// heading are the message's own structure, and say nothing of the lines beside them.
func ownClauses(text string) []string {
	const (
		own = iota
		neutral
		printed
	)
	type line struct {
		text string
		kind int
	}
	var lines []line
	inFence, closeTag := false, ""
	for _, raw := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(raw)
		kind := own
		switch {
		case trimmed == "":
			continue
		case closeTag != "":
			if strings.Contains(trimmed, closeTag) {
				closeTag = ""
			}
			kind = neutral
		case fenceLine.MatchString(raw):
			inFence, kind = !inFence, neutral
		case inFence, heading.MatchString(trimmed), reference.MatchString(trimmed):
			kind = neutral
		default:
			if m := openTag.FindStringSubmatch(trimmed); m != nil {
				if end := "</" + m[1] + ">"; !strings.Contains(trimmed, end) {
					closeTag = end
				}
				kind = neutral
			} else if trimmed = bullet.ReplaceAllString(trimmed, ""); isIndentedCode(raw) || looksLikeToolOutput(trimmed) || printedLine(trimmed) {
				kind = printed
			}
		}
		lines = append(lines, line{trimmed, kind})
	}
	var out []string
	for i, l := range lines {
		if l.kind != own || i > 0 && lines[i-1].kind == printed || i+1 < len(lines) && lines[i+1].kind == printed {
			continue
		}
		for _, s := range splitLang(l.text) {
			if c := tidy(s); hasLetters(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

var (
	// heading is a markdown heading the person wrote: "## Task".
	heading = lazyre.New(`^#{1,6}\s+\S`)
	// reference is a line of the person's references to files and commands of their agent:
	// "@src/App.tsx @README.md", "#file:entriesschema", "/add aider/io.py".
	reference = lazyre.New(`^(?:(?:@|#file:)\S+\s*)+$|^/[a-z][\w-]*(?:\s+\S+)*$`)
)

var (
	// sourceLocation is a file and line a program names: "MenuBar.tsx:40:15", "api.ts:52".
	sourceLocation = lazyre.New(`[\w.-]+\.[A-Za-z]\w*:\d+`)
	// labelValue is a program's "Label: value" line: "NODE_ENV: production", "Total Records:
	// 1876", "Working directory: /app"; not a person's "Start over: a carousel of photos".
	labelValue = lazyre.New(`^[\p{L}_][\p{L}\p{N}_ .-]{0,30}:\s+\S+$|^[\p{Lu}\p{N}_]*_[\p{Lu}\p{N}_]*:\s`)
)

// printedLine reports a line that proseLines keeps but a program printed: one that opens with a
// symbol (a log's emoji, a check mark) or a line and column, names a source location, reads
// "Label: value", is a path alone, or ends on the ellipsis of a progress line ("Connecting to
// Railway...").
func printedLine(line string) bool {
	r, _ := utf8.DecodeRuneInString(line)
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("\"'`(¿¡「“", r) {
		return true
	}
	t := strings.TrimSpace(line)
	return sourceLocation.MatchString(t) || labelValue.MatchString(t) || lineColumn.MatchString(t) || strings.HasSuffix(t, "...") || strings.HasSuffix(t, "…") ||
		!strings.ContainsAny(t, " \t") && strings.ContainsAny(t, "/\\") // a path, a URL or a lint rule alone: "./app/page.tsx", "react-hooks/exhaustive-deps"
}

// lineColumn opens a linter's or compiler's line: "36:9  Warning: 'Truck' is defined but never used."
var lineColumn = lazyre.New(`^\d+:\d+\s`)

// clauseKey is a clause as compared for recurrence: letters and digits, in lower case, single
// spaces, the marks of Latin letters dropped ("parle moi en francais" is typed in a hurry).
func clauseKey(c string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(c) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if bare, ok := unmarked[r]; ok {
				r = bare
			}
			b.WriteRune(r)
		case unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r):
			b.WriteRune(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// unmarked is each marked Latin letter of Western and Central European languages without its mark.
var unmarked = map[rune]rune{}

func init() {
	for bare, marked := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě", 'g': "ĝğġģ", 'h': "ĥħ", 'i': "ìíîïĩīĭįı",
		'j': "ĵ", 'k': "ķ", 'l': "ĺļľŀł", 'n': "ñńņňŉ", 'o': "òóôõöøōŏő", 'r': "ŕŗř", 's': "śŝşš", 't': "ţťŧ",
		'u': "ùúûüũūŭůűų", 'w': "ŵ", 'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range marked {
			unmarked[r] = bare
		}
	}
}

// shingles are what two messages are compared by: their words of two letters or more, and each
// pair of neighbouring characters of a script written without spaces.
func shingles(s string) map[string]bool {
	out := map[string]bool{}
	var word []rune
	var prev rune
	flush := func() {
		if len(word) > 1 {
			out[string(word)] = true
		}
		word = word[:0]
	}
	for _, r := range strings.ToLower(s) {
		if unspaced(r) {
			flush()
			if prev != 0 {
				out[string([]rune{prev, r})] = true
			}
			prev = r
			continue
		}
		prev = 0
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = append(word, r)
		} else {
			flush()
		}
	}
	flush()
	return out
}

// unspaced reports a character of a script written without spaces between words.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai)
}

// overlap is the share of a and b's shingles that both have.
func overlap(a, b map[string]bool) float64 {
	shared := 0
	for k := range a {
		if b[k] {
			shared++
		}
	}
	if all := len(a) + len(b) - shared; all > 0 {
		return float64(shared) / float64(all)
	}
	return 1
}

var (
	// englishLead is what may open an English instruction before its verb: "please", "also", a
	// clause of when it holds ("When writing AL code, follow …").
	englishLead = lazyre.New(`(?i)^(?:(?:please|pls|also|and|just|then)\s+|(?:when|whenever|if|before|after|while|once|for|in)\b[^,]{1,80},\s*(?:please\s+)?)`)
	// englishInstruction opens an English instruction: the imperatives of forms.go, a few verbs of
	// how to work, and what the agent is told it must do.
	englishInstruction = lazyre.New(`(?i)^(?:think|speak|talk|analy[sz]e|ensure|remember|consider|focus|stick|respect|comment|work|reply|answer|respond|double-check|you\s+(?:should|must|need\s+to|have\s+to)|make\s+sure)\b`)
	// goingOnAsked asks the agent to go on with the task, or lets it: no rule however often said.
	goingOnAsked = lazyre.New(`(?i)^(?:keep\s+(?:going|it\s+up|on)|go\s+(?:on|ahead)|carry\s+on|continue|proceed|do\s+(?:it|that|this)|try\s+again|let's|let\s+me\s+know|start|check\s+(?:it|this|that))\b`)
	// goingOnAnyLanguage is goingOnAsked in the other languages, and asks for the agent's opinion:
	// "Vas-y, continue", "Sigue así", "请继续完成剩下的任务", "Dis-moi ce que tu en penses".
	goingOnAnyLanguage = lazyre.New(`(?i)^(?:vas-y|allez-y|continue[sz]?|on continue|dis-moi|dites-moi|sigue|seguí|continúa|continua|dale|adelante|procede|procedi|vai|pode continuar|mach weiter|weiter|fahre fort|ga door|ga verder|doe maar|tiếp tục|продолжай|продолжайте|давай|devam et)(?:[^\p{L}]|$)|^(?:请|請)?(?:你)?(?:继续|繼續|接着|接著|开始吧|開始吧)`)
	// redoOrNow asks for the task at hand once more or at once: "… again", "Fais-le maintenant".
	redoOrNow = lazyre.New(`(?i)(?:^|[^\p{L}])(?:again|now|right away|maintenant|tout de suite|de nouveau|à nouveau|encore|ahora|otra vez|de nuevo|agora|de novo|novamente|adesso|subito|di nuovo|ancora|jetzt|sofort|nochmal|noch einmal|wieder|nu|meteen|opnieuw|weer|bây giờ|ngay|сейчас|снова|ещё раз|еще раз)(?:[^\p{L}]|$)|现在|現在|马上|馬上|立刻|再来|再來|重新|今すぐ|もう一度`)
	// leansOnEach ends on what the message named before: "… of each", "… for both", "… as
	// before"; or names it with a demonstrative that stands alone ("Keep that in mind", "use this
	// for the API") or by its likeness ("the same …", "the other …").
	leansOnEach = lazyre.New(`(?i)\b(?:each|both|either|above|below|ones?|before|earlier|previously|last\s+time)\s*[.!]*$|\b(?:that|this|these|those)(?:\s+(?:in|to|for|with|on|as|again|too|instead|here|there)\b|\s*[.,;!]|$)|\bthe\s+(?:same|other|rest)\b`)
	// debugChore asks to look at what the moment printed, in a short clause of any language:
	// "Check the console.", "Revisa la consola", "Vérifie les logs", "请帮我看看日志".
	debugChore = lazyre.New(`(?i)(?:^|[^\p{L}])(?:console|consola|konsole|logs?|journaux|registros?|error(?:e|es)?|erreurs?|fehler|fout(?:en)?|erro|output|sortie|salida|ausgabe|screenshots?|capture|captura|terminal|network|réseau|red|netzwerk|browser|navigateur|navegador|devtools|stack\s*trace)(?:[^\p{L}]|$)|日志|日誌|报错|報錯|错误|錯誤|截图|截圖|控制台|终端|終端|输出|輸出`)
	// routineAction asks for a step of the moment, alone: "Haz un push.", "commit and push", "fais
	// un commit", "提交并推送". Asked again each time it is due, it is the person's doing, not a rule
	// for the agent to follow unasked.
	routineAction = lazyre.New(`(?i)^(?:(?:please|now|haz|hace|hazme|fais|faites|faz|faça|mach|do)\s+)?(?:(?:un|una|le|o|um|einen|a|the)\s+)?(?:git\s+)?(?:push|commit|pull|deploy|merge|rebase)(?:\s+(?:y|and|et|e|und|&)\s+(?:(?:haz|fais|faz)\s+)?(?:(?:un|le|o|um|einen|a)\s+)?(?:push|commit|pull|deploy|merge))?[\s.!]*$|^(?:请|請)?(?:提交|推送|部署|合并|合併)(?:并|並|和)?(?:提交|推送|部署)?[。！!]*$`)
	// zhHelpLook is a Chinese request to look at, check or fix what is at hand: "请帮我看看", "请检查一下".
	zhHelpLook = lazyre.New(`^(?:请|請)?(?:你)?(?:帮我|幫我|帮忙|幫忙|麻烦|麻煩)?(?:看|瞧|检查|檢查|查|修|改|处理|處理|试|試|解决|解決|弄)`)
	// frenchImperative is French's imperative with its pronoun: "Parle-moi", "Réponds-nous".
	frenchImperative = lazyre.New(`(?i)^\p{L}+-(?:moi|nous|le|la|les|lui|leur|en|y|toi)(?:[^\p{L}]|$)`)
	// zhInstruction opens an instruction in Chinese: a request (请), a prohibition (别, 不要), a must
	// (务必, 一定要, 必须), a habit (始终, 每次, 统一), what to do first (先别…, 先…再…).
	zhInstruction = lazyre.New(`^(?:请|請|别|別|不要|不许|不許|记得|記得|务必|務必|一定要|必须|必須|始终|始終|总是|總是|永远|永遠|每次|统一|統一|一律|禁止|尽量|儘量|保持|先(?:别|別|不要|不用)|先[^，,。]{1,16}?(?:再|然后|然後))`)
	// viInstruction opens an instruction in Vietnamese: "hãy …", "đừng …", "luôn …".
	viInstruction = lazyre.New(`(?i)^(?:hãy|đừng|luôn|nhớ)\s`)
	// verbFirstImperative opens a sentence with an imperative of verbFirst's languages.
	verbFirstImperative = func() []*lazyre.Regexp {
		var out []*lazyre.Regexp
		for _, v := range verbFirst {
			out = append(out, lazyre.New(`(?i)^(?:`+v.verbs+`)(?:[^\p{L}]|$)`))
		}
		return out
	}()
)

// instructionShape reports whether a clause says what to do or not to do, or how to work, and
// names its language when its shape does. It reads the shapes the other rules read (an opening
// cue of any language, a prohibition, a request to keep something as it is, a want, an
// imperative), since recurrence, not the words, is what makes it stand; and it turns away what
// recurs without being one: a question, a header of what follows, a greeting or an "ok", the
// words of the moment ("right now", "这次"), and a clause that leans on the message it is in.
func instructionShape(clause string) (lang string, ok bool) {
	st := tidy(stripOpeners(clause))
	if st == "" || len(st) > maxSentence || isQuestion(st) || strings.HasSuffix(st, "？") || strings.HasSuffix(st, "?") ||
		introduces(st) || hasSecret(st) || dayWords.MatchString(st) || dayWordsAfar.MatchString(st) || hereWords.MatchString(st) {
		return "", false
	}
	words := len(strings.Fields(st))
	if unspacedRunes(st) >= 4 {
		words += unspacedRunes(st) / 2 // a clause of Chinese or Japanese counts a word a pair of characters
	}
	if words < 2 || words > standingWords || words <= 6 && debugChore.MatchString(st) || zhHelpLook.MatchString(st) || goingOnAnyLanguage.MatchString(st) || routineAction.MatchString(st) {
		return "", false
	}
	if redoOrNow.MatchString(st) {
		if _, _, strength, _, found := openingCue(st); !found || strength != standingCue {
			return "", false // "from now on", "à partir de maintenant" say it stands
		}
	}
	if kana.MatchString(st) {
		if jaRequest.MatchString(st) || jaMidCue.MatchString(st) {
			return "ja", true
		}
	}
	if strings.ContainsFunc(st, isHan) && !kana.MatchString(st) {
		if zhInstruction.MatchString(st) || zhMidCue.MatchString(st) || zhSoftCue.MatchString(st) || cjkProhibition.MatchString(st) {
			if leansBack(st) || asksCJK(st) {
				return "", false
			}
			return "zh", true
		}
	}
	english := englishLead.ReplaceAllString(st, "")
	for range 2 {
		english = englishLead.ReplaceAllString(english, "")
	}
	if goingOnAsked.MatchString(english) || flagsBack(english) {
		return "", false
	}
	if imperative.MatchString(english) || englishInstruction.MatchString(english) || prohibition.MatchString(english) {
		// English's verb, or Portuguese's and Spanish's of the same spelling ("use"): what leans on
		// the message is turned away in any of them.
		return "", !leansOnContext(english) && !leansOnEach.MatchString(english) && !isEphemeral(english)
	}
	if leansBack(st) || backPronoun.MatchString(st) {
		return "", false
	}
	if l, cue, _, _, found := openingCue(st); found && !pointsBackWithPronoun(st, cue) {
		return l, true
	}
	if m := wantOpener.FindString(st); m != "" && says(st[len(m):]) {
		return wantLang(m), true
	}
	switch {
	case frenchImperative.MatchString(st):
		return "fr", true
	case viInstruction.MatchString(st):
		return "vi", true
	case guardCue.MatchString(st):
		return guardLang(st), true
	case otherProhibition.MatchString(st):
		return prohibitionLang(st), true
	}
	if l := westernProhibitionLang(st); l != "" {
		return l, true
	}
	for i, re := range verbFirstImperative {
		if re.MatchString(st) && !englishSentence(verbFirst[i].lang, st) {
			return verbFirst[i].lang, true
		}
	}
	return "", false
}

// flagsBack reports a clause that flags what the message said before it ("Keep that in mind.",
// "Remember the rotation schedule."): not "Keep the migrations reversible", which says it.
func flagsBack(s string) bool {
	flag, _, ok := backFlag(s)
	return ok && (!strings.HasPrefix(flag, "keep") || strings.Contains(strings.ToLower(s), "in mind"))
}

// wantLang is the language of a wantOpener: "je veux que" is French, "quiero que" Spanish.
func wantLang(opener string) string {
	o := strings.ToLower(opener)
	switch {
	case strings.HasPrefix(o, "je ") || strings.HasPrefix(o, "j'"):
		return "fr"
	case strings.HasPrefix(o, "quiero") || strings.HasPrefix(o, "quisiera") || strings.HasPrefix(o, "prefiero") || strings.HasPrefix(o, "me gust"):
		return "es"
	case strings.HasPrefix(o, "quero") || strings.HasPrefix(o, "gostaria") || strings.HasPrefix(o, "prefiro"):
		return "pt"
	case strings.HasPrefix(o, "voglio") || strings.HasPrefix(o, "vorrei") || strings.HasPrefix(o, "preferisco"):
		return "it"
	case strings.HasPrefix(o, "ich "):
		return "de"
	}
	return "nl"
}

// unspacedRunes counts the characters of st in a script written without spaces.
func unspacedRunes(st string) int {
	n := 0
	for _, r := range st {
		if unspaced(r) {
			n++
		}
	}
	return n
}

// standingLessons makes a lesson of each standing instruction: the clause as the person said it,
// its basis the messages that said it.
func standingLessons(found []standingInstruction) []*lesson {
	var out []*lesson
	for _, si := range found {
		rule := upperFirst(strings.TrimRight(si.clause, "。！!.;；"))
		last := si.sayings[len(si.sayings)-1]
		n := &lesson{typ: memory.Feedback, label: fmt.Sprintf("said in %d messages", len(si.sayings)), rule: rule, sentence: rule, core: rule,
			session: last.session, message: last.message, lang: si.lang, basis: standingBasis(si.sayings)}
		n.also = otherSessions(si.sayings, last.session)
		n.facts = factsOf(rule)
		out = append(out, n)
	}
	return out
}

// otherSessions are the sessions of msgs but last, each once, in the order read: the earlier
// sessions a lesson they all make names, as a lesson said again names them.
func otherSessions(msgs []personMessage, last *extract.Session) []string {
	var out []string
	for _, m := range msgs {
		if m.session.ID != last.ID && !slices.Contains(out, m.session.ID) {
			out = append(out, m.session.ID)
		}
	}
	return out
}

// maxBasisSayings is how many sayings a basis names before it counts the rest.
const maxBasisSayings = 4

// standingBasis names the messages that said a standing instruction: "said by the person, each
// time beside another request, in their 3rd message of session … on …, their 5th message of
// session … and 2 more".
func standingBasis(sayings []personMessage) string {
	var parts []string
	for i, m := range sayings {
		if i == maxBasisSayings {
			parts = append(parts, fmt.Sprintf("%d more", len(sayings)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("their %s message of %s", ordinal(m.message), sessionOn(m.session)))
	}
	return "said by the person, each time beside another request, in " + andList(parts)
}

// sameLink returns the live entry that names a link n names too ("Just remember to check if you
// are using best practice https://github.com/microsoft/alguidelines/…" before "When writing AL
// code, follow best practices from https://github.com/microsoft/alguidelines/…"): a standing
// instruction pointing where a rule already points is that rule said again, whatever its words.
func (l *ledger) sameLink(n *lesson) *entry {
	links := linksOf(n.rule)
	if len(links) == 0 {
		return nil
	}
	for _, e := range l.live() {
		if slices.ContainsFunc(linksOf(e.current()), func(u string) bool { return slices.Contains(links, u) }) {
			return e
		}
	}
	return nil
}

// linksOf returns the URLs s names, in lower case, without the punctuation that ends a sentence.
func linksOf(s string) []string {
	var out []string
	for _, u := range urlRE.FindAllString(s, -1) {
		out = append(out, strings.ToLower(strings.TrimRight(u, ".,;:!?)]")))
	}
	return out
}
