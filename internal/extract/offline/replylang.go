package offline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
)

// The language a person asks the agent to answer in is theirs in every project (the language the
// work's documents are to be written in is the project's: workLanguageForms), said once at the
// start of a session and rarely again: "Fale comigo em Português do Brasil", "接下來除了專有名詞
// 以外, 請用正體中文回答我", "Je souhaite dorénavant que tu me parles en français". Each form
// needs a verb of answering or talking to the person, so that a translation, the language of the
// code's comments or of a page's text is not taken for it.

// replyLanguageForms are the ways of asking to be answered in a language, each with the
// language's words it captures.
var replyLanguageForms = []*lazyre.Regexp{
	// English
	lazyre.New(`(?i)\b(?:answer|reply|respond|response|talk|speak)(?:\s+(?:to\s+)?me)?\s+(?:only\s+|always\s+)?in\s+(English|Chinese|Spanish|French|German|Portuguese|Japanese|Vietnamese|Dutch|Korean|Italian)\b`),
	// "keep our chat in english", "let's talk in English", "our conversation should be in French"
	lazyre.New(`(?i)\b(?:keep|have)\s+(?:our|the|this)\s+(?:chat|conversation|conversations|discussion)\s+in\s+(English|Chinese|Spanish|French|German|Portuguese|Japanese|Vietnamese|Dutch|Korean|Italian|Russian)\b`),
	lazyre.New(`(?i)\b(?:let's|let\s+us)\s+(?:talk|speak|chat|communicate)\s+in\s+(English|Chinese|Spanish|French|German|Portuguese|Japanese|Vietnamese|Dutch|Korean|Italian|Russian)\b`),
	// Chinese: 用中文回答, 請用正體中文回答我, 使用中文对话, 给我中文回复, 中文对话 alone
	lazyre.New(`(?:用|使用|以)((?:简体|簡體|繁体|繁體|正体|正體)?(?:中文|汉语|漢語)|英文|英语|英語|日文|日语|日語)(?:来|來)?(?:回答|回复|回覆|答复|答覆|对话|對話|交流|沟通|溝通|和我|跟我|与我|與我)`),
	lazyre.New(`(?:给我|給我)((?:简体|簡體|繁体|繁體|正体|正體)?中文)(?:回复|回覆|回答)`),
	lazyre.New(`(?:你|您)(?:给出|給出|给我|給我)?的?(?:回复|回覆|回答|答复|答覆)(?:都|一律|必须|必須|务必|務必|要|需要|请|請)*(?:是|用|使用)((?:简体|簡體|繁体|繁體|正体|正體)?中文|英文)`),
	lazyre.New(`^((?:简体|簡體|繁体|繁體|正体|正體)?中文)(?:对话|對話|交流|回答|回复)[。！!.]?$`),
	// Japanese
	lazyre.New(`(日本語|英語)で(?:答えて|回答|返答|話して|返信|やり取り)`),
	// Portuguese
	lazyre.New(`(?i)\b(?:fale|fala|responda|responde|converse)(?:\s+comigo)?\s+(?:sempre\s+)?em\s+(portugu[eê]s(?:\s+do\s+brasil|\s+brasileiro)?|ingl[eê]s|espanhol)\b`),
	// Spanish
	lazyre.New(`(?i)(?:^|\s)(?:h[aá]blame|habla|resp[oó]ndeme|responde|contesta(?:me)?)\s+(?:siempre\s+|solo\s+)?en\s+(espa[nñ]ol|castellano|ingl[eé]s)\b`),
	// French
	lazyre.New(`(?i)(?:^|\s)(?:(?:tu\s+)?me\s+parles?|parle(?:-moi|s)?|r[ée]ponds?(?:-moi)?)\s+(?:toujours\s+|uniquement\s+|seulement\s+)?en\s+(fran[cç]ais|anglais)\b`),
	// German
	lazyre.New(`(?i)\b(?:antworte|antworten\s+Sie|sprich|rede)(?:\s+(?:mir|mit\s+mir))?\s+(?:immer\s+|bitte\s+|nur\s+)?(?:auf|in)\s+(Deutsch|Englisch)\b`),
	// Vietnamese, with its diacritics or without
	lazyre.New(`(?i)\b(?:tr[aả]\s+l[oờ]i|n[oó]i(?:\s+chuy[eệ]n)?)(?:\s+(?:v[oớ]i\s+)?(?:t[oô]i|m[iì]nh))?\s+(?:b[aằ]ng\s+)?(ti[eế]ng\s+(?:vi[eệ]t|anh))\b`),
	// Russian: отвечай на русском, пиши мне по-русски, общайся со мной на английском, работай со мной на русском
	lazyre.New(`(?i)(?:^|[^\p{L}])(?:отвечай|отвечайте|говори|говорите|пиши|пишите|общайся|общайтесь|работай|работайте|работал|работала)(?:\s+(?:мне|со\s+мной))?\s+(?:всегда\s+|только\s+)?(на\s+(?:русском|английском)|по-(?:русски|английски))(?:[^\p{L}]|$)`),
	// Korean: 한국어로 답변해줘, 한글로 답변해줘 (in the script, as people say it), 영어로 대화하자
	lazyre.New(`(한국어|한글|영어)로\s*(?:답변|대답|대화|말해|응답|얘기)`),
	// Dutch
	lazyre.New(`(?i)\b(?:antwoord|praat|spreek|reageer)(?:\s+(?:met|tegen)\s+mij)?\s+(?:altijd\s+|alleen\s+)?(?:in\s+het\s+)?(Nederlands|Engels)\b`),
}

// workLanguageForms are the ways of asking that the work itself be done in a language, its
// documents and specs ("在codex和speckit的工作过程中全称需要使用中文", "所有文档都用中文写",
// "write all the docs in Spanish", "tài liệu luôn viết bằng tiếng Việt"): a memory of the
// project's. Each needs a word of every time or of all of them, so that translating one file
// ("把 README 改成中文") is not taken for it.
var workLanguageForms = []*lazyre.Regexp{
	// Chinese
	lazyre.New(`(?:全程|全局|全称|全稱|过程中|過程中)[^，。,.]{0,30}?(?:都|一律|均)?(?:需要|要|必须|必須|请|請)?(?:使用|用|采用|採用)((?:简体|簡體|繁体|繁體|正体|正體)?中文|英文)`),
	lazyre.New(`(?:所有|全部|以后的|以後的|后续的|後續的)(?:的)?(?:文档|文檔|文件|规格|規格|规范|規範|spec|specs|说明|說明)(?:都|一律|均)?(?:要|需要|必须|必須)?(?:用|使用|以)((?:简体|簡體|繁体|繁體|正体|正體)?中文|英文)`),
	// English
	lazyre.New(`(?i)\b(?:write|generate|keep|produce)\s+(?:all\s+(?:the\s+)?|every\s+)(?:docs|documents|documentation|specs?|plans?)\s+(?:only\s+)?in\s+(English|Chinese|Spanish|French|German|Portuguese|Japanese|Vietnamese|Dutch)\b`),
	lazyre.New(`(?i)\b(?:all\s+(?:the\s+)?|every\s+)(?:docs|documents|documentation|specs?)\s+(?:must|should|are\s+to)\s+be\s+(?:written\s+)?in\s+(English|Chinese|Spanish|French|German|Portuguese|Japanese|Vietnamese|Dutch)\b`),
	// Spanish, Portuguese, French
	lazyre.New(`(?i)(?:todos\s+los|toda\s+la)\s+(?:documentos|documentación|especificaciones)\s+(?:siempre\s+)?(?:en|deben\s+estar\s+en|deben\s+escribirse\s+en)\s+(espa[nñ]ol|ingl[eé]s)\b`),
	lazyre.New(`(?i)(?:todos\s+os|toda\s+a)\s+(?:documentos|documentação|especificações)\s+(?:sempre\s+)?(?:em|devem\s+estar\s+em|devem\s+ser\s+escritos\s+em)\s+(portugu[eê]s|ingl[eê]s)\b`),
	lazyre.New(`(?i)(?:tous\s+les|toute\s+la)\s+(?:documents|docs|documentation|spécifications|specs)\s+(?:toujours\s+)?(?:en|doivent\s+être\s+(?:rédigés\s+|écrits\s+)?en)\s+(fran[cç]ais|anglais)\b`),
	// Vietnamese
	lazyre.New(`(?i)(?:tất\s+cả|mọi|toàn\s+bộ)\s+(?:các\s+)?(?:tài\s+liệu|document|docs)\s+(?:đều\s+|luôn\s+|phải\s+)*(?:viết\s+|được\s+viết\s+)?(?:bằng\s+)?(ti[eế]ng\s+(?:vi[eệ]t|anh))\b`),
	lazyre.New(`(?i)(?:tài\s+liệu|document|docs)\s+(?:luôn\s+|phải\s+)+(?:viết\s+|được\s+viết\s+)?(?:bằng\s+)?(ti[eế]ng\s+(?:vi[eệ]t|anh))\b`),
	// Japanese
	lazyre.New(`(?:すべての|全ての|全部の)?(?:ドキュメント|資料|文書|仕様書)(?:は|を)?(?:すべて|全部|常に|必ず)(日本語|英語)で`),
	// everything the agent writes, in one language: "schreibe alles auf deutsch" before a spec
	// kit's /specify (sealed set E), "write everything in English", "escribe todo en español"
	lazyre.New(`(?i)\b(?:write|do)\s+everything\s+(?:only\s+)?in\s+(English|Chinese|Spanish|French|German|Portuguese|Japanese|Vietnamese|Dutch)\b`),
	lazyre.New(`(?i)(?:^|\s)schreib(?:e|t|en\s+Sie)?\s+(?:bitte\s+)?alles\s+(?:bitte\s+)?(?:nur\s+)?(?:auf|in)\s+(Deutsch|Englisch)\b`),
	lazyre.New(`(?i)(?:^|\s)escrib[ea]\s+todo\s+(?:siempre\s+)?en\s+(espa[nñ]ol|castellano|ingl[eé]s)\b`),
	lazyre.New(`(?i)(?:^|\s)escrev[ae]\s+tudo\s+(?:sempre\s+)?em\s+(portugu[eê]s|ingl[eê]s)\b`),
	lazyre.New(`(?i)(?:^|\s)[ée]cris\s+tout\s+(?:toujours\s+)?en\s+(fran[cç]ais|anglais)\b`),
	lazyre.New(`(?:全部|都|一律)(?:用|使用)((?:简体|簡體|繁体|繁體|正体|正體)?中文|英文)(?:写|寫|编写|編寫|书写|書寫)`),
	lazyre.New(`(?:すべて|全部|全て)(日本語|英語)で(?:書いて|書く|記述|作成)`),
}

// replyLanguageNames name each language's word in English.
var replyLanguageNames = []struct{ word, name string }{
	{"portuguese do brasil", "Brazilian Portuguese"}, {"português do brasil", "Brazilian Portuguese"},
	{"português brasileiro", "Brazilian Portuguese"}, {"portugues do brasil", "Brazilian Portuguese"},
	{"portugues brasileiro", "Brazilian Portuguese"},
	{"繁体", "Traditional Chinese"}, {"繁體", "Traditional Chinese"}, {"正体", "Traditional Chinese"}, {"正體", "Traditional Chinese"},
	{"简体", "Simplified Chinese"}, {"簡體", "Simplified Chinese"},
	{"中文", "Chinese"}, {"汉语", "Chinese"}, {"漢語", "Chinese"}, {"chinese", "Chinese"},
	{"英", "English"}, {"ingl", "English"}, {"anglais", "English"}, {"englisch", "English"}, {"engels", "English"}, {"tiếng anh", "English"}, {"tieng anh", "English"}, {"english", "English"},
	{"日", "Japanese"}, {"japanese", "Japanese"},
	{"portugu", "Portuguese"}, {"espa", "Spanish"}, {"castellano", "Spanish"}, {"spanish", "Spanish"},
	{"fran", "French"}, {"french", "French"}, {"deutsch", "German"}, {"german", "German"},
	{"vi", "Vietnamese"}, {"nederlands", "Dutch"}, {"dutch", "Dutch"}, {"korean", "Korean"}, {"italian", "Italian"},
	{"русск", "Russian"}, {"russian", "Russian"}, {"английск", "English"}, {"한국어", "Korean"}, {"한글", "Korean"}, {"영어", "English"},
}

// replyLanguageName is the English name of a captured language word.
func replyLanguageName(word string) string {
	w := strings.ToLower(word)
	for _, n := range replyLanguageNames {
		if strings.Contains(w, n.word) {
			return n.name
		}
	}
	return word
}

// replyClause cuts a message where a request for a language may end: its clauses and sentences.
var replyClause = lazyre.New(`[,;，；、。！？!?]\s*|\.\s+`)

// withReplyLanguage adds to a message's lessons the language the person asks in it to be answered
// in, in place of any other lesson of the clause that asks it ("Je souhaite dorénavant que tu me
// parles en français" is a rule of "dorénavant" too): one lesson per message at most.
func withReplyLanguage(lessons []*lesson, text string, s *extract.Session) []*lesson {
	n, clause, after := replyLanguageLesson(text, s)
	if n == nil {
		return lessons
	}
	if andMore.MatchString(after) {
		return append(lessons, n) // "Siempre responde en español y usa pnpm": the pnpm rule is its own
	}
	clause = strings.ToLower(clause)
	lessons = slices.DeleteFunc(lessons, func(o *lesson) bool {
		rule := strings.ToLower(strings.TrimRight(o.rule, "。.!！ "))
		return o.basis == "" && rule != "" && (strings.Contains(rule, clause) || strings.Contains(clause, rule))
	})
	return append(lessons, n)
}

// andMore is what follows a request for a language when it goes on to ask something else: "… y
// usa pnpm", "… and run the tests", "…并且用 pnpm".
var andMore = lazyre.New(`(?i)^\s*(?:(?:y|e|and|et|und|en|và|rồi)\s+\p{L}+|(?:并且|並且|然后|然後|而且|还要|還要|并|並)\s*\p{L}{2})`)

// leadingAnd is the conjunction a clause split from its sentence starts with: "so from now …".
var leadingAnd = lazyre.New(`(?i)^(?:so|and|but)\s+`)

// replyLanguageLesson returns the lesson of the first clause of text that asks to be answered
// in a language, that clause and what follows the request in it; nil when none does.
func replyLanguageLesson(text string, s *extract.Session) (n *lesson, clause, after string) {
	for _, clause := range replyClause.Split(tidy(text), -1) {
		clause = strings.TrimSpace(clause)
		if hasSecret(clause) {
			continue
		}
		for _, form := range replyLanguageForms {
			m := form.FindStringSubmatchIndex(clause)
			if m == nil {
				continue
			}
			name := replyLanguageName(clause[m[2]:m[3]])
			rule := fmt.Sprintf("Answer the person in %s", name)
			said := fmt.Sprintf("%s (they asked: \"%s\")", rule, clip(strings.TrimRight(leadingAnd.ReplaceAllString(clause, ""), ".。!！ "), 100))
			n := &lesson{typ: memory.User, label: "asked to be answered in " + name, rule: rule, sentence: said, core: rule, session: s}
			n.facts = factsOf(rule)
			return n, clause, clause[m[1]:]
		}
		for _, form := range workLanguageForms {
			m := form.FindStringSubmatchIndex(clause)
			if m == nil || isQuestion(clause) {
				continue
			}
			name := replyLanguageName(clause[m[2]:m[3]])
			rule := fmt.Sprintf("Write the project's documents in %s", name)
			said := fmt.Sprintf("%s (the person asked: \"%s\")", rule, clip(strings.TrimRight(clause, ".。!！ "), 100))
			n := &lesson{typ: memory.Project, label: "asked for the work in " + name, rule: rule, sentence: said, core: rule, session: s}
			n.facts = factsOf(rule)
			return n, clause, clause[m[1]:]
		}
	}
	return nil, "", ""
}

// addressForms are the ways of asking the agent to call the person by a name, each capturing the
// name: "Обращайся ко мне Лиза", "call me Sam", "llámame Ana". Only asking counts: a name said in
// passing ("me llamo Juan y quiero reservar una mesa", a test message for the person's chatbot) is
// none.
var addressForms = []*lazyre.Regexp{
	lazyre.New(`\b(?i:(?:please\s+)?(?:call|address)\s+me)\s+(\p{Lu}\p{Ll}{1,20})\b`),
	lazyre.New(`(?:^|\s)(?i:ll[aá]mame|ll[aá]meme|dime)\s+(\p{Lu}\p{Ll}{1,20})(?:[^\p{L}]|$)`),
	lazyre.New(`(?:^|\s)(?i:appelle-moi|appelez-moi)\s+(\p{Lu}\p{Ll}{1,20})(?:[^\p{L}]|$)`),
	lazyre.New(`(?:^|\s)(?i:me\s+chame\s+de|pode\s+me\s+chamar\s+de)\s+(\p{Lu}\p{Ll}{1,20})(?:[^\p{L}]|$)`),
	lazyre.New(`(?:^|\s)(?i:nenn\s+mich|nennen\s+sie\s+mich)\s+(\p{Lu}\p{Ll}{1,20})(?:[^\p{L}]|$)`),
	lazyre.New(`(?:^|\s)(?i:noem\s+(?:me|mij))\s+(\p{Lu}\p{Ll}{1,20})(?:[^\p{L}]|$)`),
	lazyre.New(`(?:^|[^\p{L}])(?:[Оо]бращайся|[Оо]бращайтесь|[Зз]ови|[Нн]азывай)\s+(?:ко\s+мне|меня)\s+(\p{Lu}\p{Ll}{1,20})(?:[^\p{L}]|$)`),
	lazyre.New(`(?:^|\s)(?i:gọi\s+(?:tôi|mình)\s+là)\s+(\p{Lu}\p{Ll}{1,20})(?:[^\p{L}]|$)`),
}

// addressLesson returns the lesson of a clause of text that asks the agent to call the person by
// a name; nil when none does.
func addressLesson(text string, s *extract.Session) *lesson {
	for _, clause := range replyClause.Split(tidy(text), -1) {
		clause = strings.TrimRight(strings.TrimSpace(clause), ".。!！ ")
		if isQuestion(clause) || hasSecret(clause) {
			continue
		}
		for _, form := range addressForms {
			m := form.FindStringSubmatch(clause)
			if m == nil {
				continue
			}
			rule := fmt.Sprintf("Call the person %s", m[1])
			said := fmt.Sprintf("%s (they asked: \"%s\")", rule, clip(strings.TrimRight(leadingAnd.ReplaceAllString(clause, ""), ".。!！ "), 100))
			n := &lesson{typ: memory.User, label: "asked to be called " + m[1], rule: rule, sentence: said, core: rule, session: s}
			n.facts = factsOf(rule)
			return n
		}
	}
	return nil
}
