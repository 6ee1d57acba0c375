package offline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
)

// How a person wants to be answered ("Sois technique, concis", "be brief", "简洁一点") is theirs
// in every project. Said once it may be for the answer at hand; said in two messages it is how
// they want to be answered, and the next session should know without being told again.

// mannerAsk is a request for a manner of answering: a copula addressed to the agent at a clause's
// start, a verb of answering or a tone, then the manner's words, in the languages the rules read.
// Each captures the manner's words first; "the function should be short" and "代码要简洁" are the
// code's, not the answers'.
var mannerAsk = []*lazyre.Regexp{
	lazyre.New(`(?i)(?:^|[.!?;:,\n]\s*(?:(?:and|et|y|e|und)\s+)?|\b(?:please|always|bitte|immer|toujours|siempre|sempre|por\s+favor|per\s+favore)\s+)(?:be|sois|soyez|sé|sea|seja|sei|seien\s+sie|sii)\s+((?:(?:more|very|extremely|really|plus|très|extrêmement|más|muy|mais|muito|sehr|möglichst|più|molto)\s+)?\p{L}+(?:\s*(?:,|and|et|y|e|und)\s*(?:(?:more|very|plus|très|más|muy|mais|sehr|più)\s+)?\p{L}+){0,3})`),
	lazyre.New(`(?i)(?:^|[^\p{L}])(?:answer|reply|respond|réponds|répondez|responde|responda|antworte|rispondi|отвечай|отвечайте)\s+(?:me\s+|moi\s+|mir\s+|мне\s+)?((?:(?:more|very|plus|très|más|muy|mais|sehr|più)\s+)?\p{L}+(?:\s+(?:and|et|y|e|und|и)\s+\p{L}+)?)`),
	lazyre.New(`(?i)(?:^|[^\p{L}])keep\s+(?:it|your\s+answers|your\s+replies|answers|replies)\s+(\p{L}+(?:\s+and\s+\p{L}+)?)`),
	lazyre.New(`(?i)(?:^|[^\p{L}])use\s+an?\s+(\p{L}+)\s+tone\b`),
	lazyre.New(`(?i)(?:^|[^\p{L}])(?:utilise|utilisez|usa|use|adopte)\s+(?:un|una|um)\s+(?:ton|tono|tom)\s+(\p{L}+)`),
	lazyre.New(`(?:回答|回复|回覆|解释|解釋|说明|說明)(?:要|请|請|尽量|儘量|都|一定要)*(简洁|簡潔|简短|簡短|简明|簡明|精简|精簡)`),
	lazyre.New(`(简洁|簡潔|简短|簡短|简明|簡明|精简|精簡)(?:地|的|一点|一點|一些)?(?:回答|回复|回覆)`),
	lazyre.New(`^(?:请|請)?(简洁|簡潔|简短|簡短)(?:一点|一點|些)[。!！]?$`),
	lazyre.New(`(簡潔|手短|短く)に?(?:答えて|回答して|説明して|まとめて)`),
	lazyre.New(`(간결|짧게)(?:하게)?\s*(?:답해|대답해|답변해|설명해)`),
	lazyre.New(`(?i)(?:^|[^\p{L}])будь\s+(кратким|краток|лаконичным|лаконичен|точным|конкретным)`),
}

// mannerWords name in English the manners mannerAsk captures; a captured word not listed is no
// manner ("be careful", "sé que…").
var mannerWords = map[string]string{
	"concise": "concise", "succinct": "concise", "terse": "concise", "concis": "concise",
	"conciso": "concise", "concisa": "concise", "knapp": "concise", "prägnant": "concise", "concisely": "concise",
	"简洁": "concise", "簡潔": "concise", "简明": "concise", "簡明": "concise", "精简": "concise", "精簡": "concise",
	"간결": "concise", "лаконичным": "concise", "лаконичен": "concise", "лаконично": "concise",
	"brief": "brief", "short": "brief", "briefly": "brief", "bref": "brief", "brève": "brief", "brièvement": "brief",
	"breve": "brief", "brevemente": "brief", "kurz": "brief", "简短": "brief", "簡短": "brief", "手短": "brief",
	"短く": "brief", "짧게": "brief", "кратким": "brief", "краток": "brief", "кратко": "brief", "коротко": "brief",
	"direct": "direct", "directe": "direct", "directly": "direct", "directo": "direct", "directa": "direct",
	"direto": "direct", "direta": "direct", "diretto": "direct", "direkt": "direct",
	"technical": "technical", "technique": "technical", "técnico": "technical", "técnica": "technical",
	"tecnico": "technical", "technisch": "technical",
	"precise": "precise", "précis": "precise", "précise": "precise", "preciso": "precise", "precisa": "precise",
	"präzise": "precise", "точным": "precise", "конкретным": "precise",
}

// mannersOf are the manners of answering text asks for, in English, each once.
func mannersOf(text string) []string {
	var out []string
	for _, form := range mannerAsk {
		for _, m := range form.FindAllStringSubmatch(text, -1) {
			for _, w := range strings.FieldsFunc(strings.ToLower(m[1]), func(r rune) bool { return r == ' ' || r == ',' }) {
				if name := mannerWords[w]; name != "" && !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// mannerLesson is how the person wants to be answered, once two of their messages asked for it;
// nil otherwise. The manners are all those asked, the first message's first.
func mannerLesson(messages []personMessage) *lesson {
	var asked []personMessage
	var manners []string
	for _, m := range messages {
		if m.session.Source == rememberSource || len(m.text) >= pastedLength || isQuestion(strings.TrimSpace(m.text)) {
			continue
		}
		found := mannersOf(m.text)
		if len(found) == 0 {
			continue
		}
		// the next message asking again is the same ask sent again (after an interruption) or
		// carried on, not a second time
		if n := len(asked); n == 0 || asked[n-1].session != m.session || asked[n-1].message+1 != m.message {
			asked = append(asked, m)
		}
		for _, w := range found {
			if !slices.Contains(manners, w) {
				manners = append(manners, w)
			}
		}
	}
	if len(asked) < 2 {
		return nil
	}
	first, last := asked[0], asked[len(asked)-1]
	rule := "The person wants answers that are " + andList(manners)
	basis := fmt.Sprintf("asked for by the person in %d messages, from their %s message of %s to their %s message of %s",
		len(asked), ordinal(first.message), sessionOn(first.session), ordinal(last.message), sessionOn(last.session))
	if first.session == last.session {
		var which []string
		for _, m := range asked {
			which = append(which, ordinal(m.message))
		}
		basis = fmt.Sprintf("asked for by the person in their %s messages of %s", andList(which), sessionOn(last.session))
	}
	l := &lesson{typ: memory.User, label: "asked to be answered so", rule: rule, sentence: rule, core: rule,
		session: last.session, message: last.message, basis: basis}
	l.also = otherSessions(asked, last.session)
	l.facts = factsOf(rule)
	return l
}
