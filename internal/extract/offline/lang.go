package offline

import (
	"strings"
	"unicode"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
)

// The person's rules in other languages than English. The English phrasing rules (forms.go,
// lead.go) read English only; in the languages below a rule is recognised by how it opens, as
// the English "always / never / remember that / from now on" are, and kept as it was said.

// cueStrength is how much a cue says on its own.
type cueStrength int

const (
	// standingCue cues say the rule holds beyond the task at hand: always, never, remember, from now on.
	standingCue cueStrength = iota
	// requestCue cues ("don't use …") are one-off requests unless they follow a correction cue.
	requestCue
	// correctingCue cues open a correction: "no, …", "不对，…".
	correctingCue
)

// languageCues are, per language, the openings of a sentence that mark a rule. A cue in a
// language written with spaces must end at a word boundary; CJK cues need none.
var languageCues = []struct {
	lang string // ISO 639-1
	cjk  bool
	cues map[cueStrength][]string
}{
	{"zh", true, map[cueStrength][]string{
		standingCue:   {"总是", "總是", "始终", "始終", "一律", "永远不要", "永遠不要", "永远别", "绝对不要", "絕對不要", "千万不要", "千萬不要", "记住", "記住", "请记住", "請記住", "要记得", "记得", "以后都", "以後都", "以后不要", "以後不要", "以后请", "以後請", "今后", "今後", "从现在开始", "從現在開始", "从今以后", "從今以後", "务必", "務必", "默认", "默認"},
		requestCue:    {"不要", "别", "別", "请勿", "請勿", "禁止", "不许", "不許", "请不要", "請不要", "请用", "請用", "要用"},
		correctingCue: {"不对", "不對", "不是这样", "不是這樣", "错了", "錯了", "不，", "不,"},
	}},
	{"ja", true, map[cueStrength][]string{
		standingCue:   {"常に", "いつも", "必ず", "絶対に", "決して", "覚えておいて", "覚えといて", "今後", "これからは", "以後", "デフォルトで"},
		requestCue:    {"使わないで", "しないで"},
		correctingCue: {"いいえ", "違う", "違います", "そうじゃなくて", "ちがう"},
	}},
	{"es", false, map[cueStrength][]string{
		standingCue:   {"siempre", "nunca", "jamás", "recuerda que", "recuerda:", "acuérdate de que", "acuérdate de", "ten en cuenta que", "a partir de ahora", "de ahora en adelante", "en el futuro", "por defecto", "no vuelvas a"},
		requestCue:    {"no uses", "no utilices", "no hagas", "no pongas", "usa", "utiliza"},
		correctingCue: {"no,", "no.", "eso no", "te equivocas", "está mal"},
	}},
	{"pt", false, map[cueStrength][]string{
		standingCue:   {"sempre", "nunca", "jamais", "lembre-se de que", "lembre-se que", "lembre-se", "lembra que", "lembre que", "a partir de agora", "daqui pra frente", "daqui para frente", "no futuro", "por padrão"},
		requestCue:    {"não use", "não usa", "não utilize", "utilize"},
		correctingCue: {"não,", "não.", "errado", "está errado"},
	}},
	{"fr", false, map[cueStrength][]string{
		standingCue:   {"toujours", "jamais", "ne jamais", "n'utilise jamais", "n'utilisez jamais", "souviens-toi que", "souvenez-vous que", "rappelle-toi que", "retiens que", "à partir de maintenant", "désormais", "dorénavant", "à l'avenir", "par défaut"},
		requestCue:    {"n'utilise pas", "n'utilisez pas", "ne mets pas", "utilise", "utilisez"},
		correctingCue: {"non,", "non.", "c'est faux", "pas ça"},
	}},
	{"de", false, map[cueStrength][]string{
		standingCue:   {"immer", "nie", "niemals", "merk dir", "merke dir", "denk daran", "denke daran", "vergiss nicht", "ab jetzt", "von nun an", "künftig", "zukünftig", "in zukunft", "standardmäßig"},
		requestCue:    {"verwende kein", "benutze kein", "nutze kein", "verwende", "benutze", "nutze"},
		correctingCue: {"nein,", "nein.", "falsch", "das stimmt nicht"},
	}},
	{"nl", false, map[cueStrength][]string{
		standingCue:   {"altijd", "nooit", "onthoud", "vergeet niet", "voortaan", "vanaf nu", "in de toekomst", "standaard"},
		requestCue:    {"gebruik geen", "gebruik niet", "gebruik"},
		correctingCue: {"nee,", "nee.", "fout", "dat klopt niet"},
	}},
	{"vi", false, map[cueStrength][]string{
		standingCue:   {"luôn luôn", "luôn", "không bao giờ", "đừng bao giờ", "nhớ rằng", "hãy nhớ", "ghi nhớ", "từ giờ", "từ nay", "từ bây giờ", "mặc định"},
		requestCue:    {"đừng dùng", "không dùng", "đừng", "hãy dùng", "dùng"},
		correctingCue: {"không,", "không.", "sai rồi", "không phải"},
	}},
}

// dayWords are how a sentence in these languages says it is about now or later, not a habit:
// "以后再说" (later), "ahora mismo" (right now).
var dayWords = lazyre.New(`(?i)再说|再說|再看|这次|這次|今天|今回|今日|ahora mismo|hoy|hoje|agora mesmo|aujourd'hui|heute|gerade|vandaag|nu even|hôm nay|bây giờ thì|lần này`)

// langSentence splits a line into sentences at CJK and Latin sentence ends.
var langSentence = lazyre.New(`[。！？]|[.!?;](?:\s+|$)|；`)

// langLesson is one rule said in another language than English.
type langLesson struct {
	lang, cue, text string
	strength        cueStrength
}

// otherLanguageRules returns the rules a user turn states in the languages of languageCues, in
// order. A request cue counts when a correction cue opens the sentence ("no, no uses Chart.js")
// or the sentence before it.
func otherLanguageRules(text string) []langLesson {
	var out []langLesson
	for _, line := range proseLines(text) {
		corrected := false
		for _, sentence := range splitLang(line) {
			s := tidy(sentence)
			if s == "" || len(s) > maxSentence || isQuestion(s) || strings.HasSuffix(s, "？") || hasSecret(s) || dayWords.MatchString(s) {
				continue
			}
			said := s
			lang, cue, strength, rest, ok := openingCue(s)
			if ok && strength == correctingCue {
				if rest == "" {
					corrected = true
					continue
				}
				// "no, no uses Chart.js": the correction's rule is what follows it.
				if l2, cue2, s2, rest2, ok2 := openingCue(rest); ok2 && s2 != correctingCue && l2 == lang {
					said, cue, strength, rest = rest, cue2, standingCue, rest2
				} else {
					corrected = true
					continue
				}
			}
			if ok && strength == requestCue && corrected {
				strength = standingCue
			}
			if !ok || strength != standingCue || !hasLetters(rest) {
				corrected = false
				continue
			}
			out = append(out, langLesson{lang: lang, cue: cue, text: upperFirst(strings.TrimRight(said, "。！.! ")), strength: strength})
			corrected = false
		}
	}
	return out
}

// splitLang cuts a line into sentences, each with its closing mark.
func splitLang(line string) []string {
	var out []string
	last := 0
	for _, loc := range langSentence.FindAllStringIndex(line, -1) {
		out = append(out, line[last:loc[1]])
		last = loc[1]
	}
	if last < len(line) {
		out = append(out, line[last:])
	}
	return out
}

// openingCue finds the cue s opens with, the longest of any language's, and what follows it.
func openingCue(s string) (lang, cue string, strength cueStrength, rest string, ok bool) {
	lower := strings.ToLower(s)
	best := 0
	for _, l := range languageCues {
		for st, list := range l.cues {
			for _, c := range list {
				if len(c) <= best || !strings.HasPrefix(lower, c) {
					continue
				}
				after := lower[len(c):]
				if !l.cjk && !strings.HasSuffix(c, ",") && !strings.HasSuffix(c, ".") && !strings.HasSuffix(c, ":") && after != "" && !startsWithBoundary(after) {
					continue
				}
				lang, cue, strength, best, ok = l.lang, c, st, len(c), true
			}
		}
	}
	if ok {
		rest = strings.TrimLeft(s[best:], " ,，、:：")
	}
	return lang, cue, strength, rest, ok
}

func startsWithBoundary(s string) bool {
	for _, r := range s {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}
	return true
}

// englishWords tell an English sentence, left to the English rules: "no, …" is a cue of several
// languages.
var englishWords = lazyre.New(`(?i)\b(?:the|an|is|are|of|and|for|with|this|that|it|we|you|don't|please|instead)\b`)

// languageLessons makes lessons of the rules a user turn states in other languages.
func languageLessons(text string, s *extract.Session) []*lesson {
	var out []*lesson
	for _, r := range otherLanguageRules(text) {
		if !isCJK(r.lang) && englishWords.MatchString(r.text) && len(englishWords.FindAllString(r.text, -1)) >= 2 {
			continue
		}
		rule := strings.TrimRight(r.text, " ")
		n := &lesson{typ: memory.Feedback, label: r.cue + " …", rule: rule, sentence: rule, core: rule, session: s, lang: r.lang}
		n.facts = factsOf(rule)
		out = append(out, n)
	}
	return out
}

func isCJK(lang string) bool { return lang == "zh" || lang == "ja" }

// unreadScripts are scripts the offline consolidator has no rules for: a turn mostly in one is
// counted, and the summary says a session's language was skipped.
var unreadScripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Cyrillic", unicode.Cyrillic}, {"Korean", unicode.Hangul}, {"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew},
	{"Thai", unicode.Thai}, {"Devanagari", unicode.Devanagari}, {"Greek", unicode.Greek},
}

// unreadScript names the script most of text's letters are written in when it is one the
// consolidator has no rules for, "" otherwise.
func unreadScript(text string) string {
	counts := make([]int, len(unreadScripts))
	letters := 0
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		for i, sc := range unreadScripts {
			if unicode.Is(sc.table, r) {
				counts[i]++
				break
			}
		}
	}
	for i, c := range counts {
		if letters >= 10 && c*2 > letters {
			return unreadScripts[i].name
		}
	}
	return ""
}

// upperFirst makes a rule cut out of a correction ("no uses Chart.js") open a sentence.
func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}
