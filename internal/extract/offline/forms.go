package offline

import (
	"regexp"
	"strings"
)

// gate says what a form needs before it counts as a lesson.
type gate int

const (
	free   gate = iota // a lesson however it is introduced ("we migrated …", "always …")
	marked             // only after remember / note / from now on / a correction ("the X is Y")
)

// form is one way people state a lesson.
type form struct {
	label    string // quoted in the reason; "" takes the label from the match
	typ      string
	gate     gate
	re       *regexp.Regexp
	not      *regexp.Regexp // what looks like the form but is not a lesson
	check    func(core string, m []string) bool
	decision bool // a project decision: build on it rather than reopen it
	relative bool // "it's Y, not X": says nothing until resolved against what it corrects
}

func re(pattern string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + pattern) }

const pronounSubject = `^(?:it|this|that|these|those|there|here|he|she|they|i|you|we|which|what|who|everything|something|nothing|anything|one|mine|yours)\b`

var (
	pronoun          = re(pronounSubject)
	ephemeralSubject = re(`\b(?:bug|bugs|problem|problems|issue|error|errors|failure|crash|typo|fix|mistake|diff|output|result|difference|culprit|regression|cause|answer|question|change|changes|todo|leak|panic)\b`)
	locationWord     = re("[/`:]|\\w\\.\\w|\\b(?:directory|dir|folder|repo|repository|package|module|file|bucket|cluster|namespace|project|workspace|monorepo|crate|branch|vault|s3|gcs|notion|confluence|drive|1password|table|schema|database|registry|subfolder|root)\\b")
	urlRE            = re(`\bhttps?://[^\s<>()"'` + "`" + `]+`)
)

// forms are tried in order; the first that matches the statement's core classifies it.
var forms = []form{
	{label: "I am …", typ: "user", re: re(`^(?:i\s+am|i'm|im)\s+(?:an?\s+|the\s+)?\w`),
		check: func(core string, _ []string) bool { return userTrait.MatchString(core) },
		not:   re(`^(?:i\s+am|i'm|im)\s+(?:an?|the)\s+(?:bit|little|lot|few|moment|second|minute|sec|one\s+who)\b|\b(?:going|trying|getting|looking|about\s+to|done|back|sure|ready|confused|stuck|seeing|fan)\b`)},
	{label: "my role …", typ: "user", re: re(`^my\s+(?:role|job|title|background|name|team|timezone|time\s+zone|pronouns|(?:main|first|primary|native)\s+language|stack|focus|expertise)\b`)},
	{label: "I work …", typ: "user", re: re(`^i\s+(?:work|have\s+worked|'ve\s+worked)\s+(?:as|on|at|in|for)\b|^i(?:'ve|\s+have)\s+been\s+\w+ing\b.*\byears?\b|^i\s+(?:mostly|mainly|usually|primarily|only)\s+(?:write|work|code|use|program)\b`),
		not: re(`\b(?:today|tonight|tomorrow|now|currently|this\s+week)\b`)},
	{label: "see … for …", typ: "reference", re: re(`^see\s+(\S+)\s+for\b`), check: func(_ string, m []string) bool { return locationWord.MatchString(m[1]) }},
	{label: "… is at …", typ: "reference", re: re(`^(?:the\s+|our\s+|all\s+)?(?:[\w-]+\s+){0,3}?(?:docs|documentation|dashboards?|runbooks?|wiki|board|channel|tracker|specs?|design\s+docs?|logs|grafana|metrics|status\s+page|changelog|issues|tickets|bugs|playbooks?|handbook|roadmap|adrs?|api\s+reference)\s+(?:is|are|lives?|can\s+be\s+found|(?:is|are)\s+(?:tracked|kept|hosted|published|documented))\s+(?:at|in|on|under)\s+\S`)},
	{label: "… is at …", typ: "reference", re: re(`^(?:the\s+|our\s+)?[\w\s-]{1,40}?\s+(?:is|are|lives?|(?:is|are)\s+documented)\s+(?:at|on|in|under)?\s*<?https?://`)},
	{label: "use … instead of …", typ: "feedback", re: re(`^(?:use|prefer|choose|pick|go\s+with|stick\s+(?:with|to)|switch\s+to)\s+\S.*?,?\s+(?:instead\s+of|rather\s+than|not|over|and\s+not)\s+\S`)},
	{label: "I prefer …", typ: "feedback", re: re(`^i(?:'d|\s+would)?\s+(?:really\s+|much\s+|strongly\s+)?(?:prefer|rather)\b|^i\s+(?:like|love)\s+.+\s+(?:better|more)\b|^my\s+preference\s+is\b`)},
	{typ: "feedback", re: re(`^(always|never(?:\s+ever)?|(?:don't|do\s+not|dont)\s+ever|we\s+(?:always|never))\s+\S`),
		not: re(`^(?:always|never)\s+(?:mind|seen|heard|been|had|knew|thought|happened|worked|noticed|understood|got|once|again|before|really|the|a|an|so|such|here|there|enough|more|less|fails?|failing|works?|breaks?|happens?|crashes?|same)\b`)},
	{typ: "feedback", gate: marked, re: re(`^(don't|do\s+not|dont|avoid|stop)\s+\S`)},
	{typ: "project", re: re(`^(we(?:'ve|\s+have)?\s+(?:now\s+|just\s+|finally\s+|recently\s+)?(?:migrated|moved|switched|changed|transitioned|upgraded|converted|ported))\b`),
		check: func(core string, _ []string) bool { return movesSomewhere.MatchString(core) }},
	{typ: "project", re: re(`^(we(?:'re|\s+are)?\s+(?:now\s+)?no\s+longer|we(?:'ve|\s+have)?\s+(?:stopped|dropped|removed|deprecated|retired|got\s+rid\s+of|sunset))\b`)},
	{label: "we don't … anymore", typ: "project", re: re(`^we\s+(?:don't|do\s+not)\s+.+\s+any\s*more$`)},
	{label: "… is no longer used", typ: "project", re: re(`^(?:the\s+|our\s+)?\S.{0,40}?\s+(?:is|are)\s+(?:now\s+)?(?:no\s+longer\s+(?:used|needed|supported|maintained|in\s+use)|deprecated|obsolete|decommissioned|retired)\b`),
		check: func(core string, _ []string) bool { return !pronoun.MatchString(core) }},
	{typ: "project", decision: true, re: re(`^((?:we|the\s+team)(?:'ve|\s+have)?\s+(?:(?:finally|just|all)\s+)?(?:decided|agreed|chose|settled\s+on|standardi[sz]ed\s+on|picked|opted))\b`)},
	{typ: "project", re: re(`^(we(?:'re|\s+are)?\s+(?:now\s+|only\s+|mostly\s+|currently\s+|usually\s+)?(?:use|using|run|deploy|host|build|ship|release|store|keep|write|test|rely\s+on|target|support|follow|require|publish|vendor|pin|tag|version|squash|rebase))\b`)},
	{label: "… lives in …", typ: "project", re: locationForm, check: isLocation},
	{label: "… moved to …", typ: "project", re: re(`^(?:the\s+|our\s+)?(\S.{0,60}?)\s+(?:has|have)\s+(?:been\s+)?moved\s+(?:to|into|under)\s+\S`),
		check: func(core string, m []string) bool {
			return !pronoun.MatchString(m[1]) && !ephemeralSubject.MatchString(m[1])
		}},
	{label: "actually, it's … not …", typ: "project", gate: marked, relative: true, re: re(`^(?:it's|it\s+is|its|that's|that\s+is)\s+\S.*?,?\s+(?:and\s+)?not\s+\S`)},
	{label: "the … is …", typ: "project", gate: marked, re: re(`^(?:(?:the|our)\s+\S.{0,50}?|\S+(?:\s+\S+){0,2})\s+(?:is|are)\s+\S`),
		check: func(core string, _ []string) bool { return !pronoun.MatchString(core) }},
}

// userTrait is what makes "I am …" a durable fact about the person rather than a mood: a role,
// an expertise, an affiliation, a place.
var userTrait = re(`\b(?:engineer|developer|dev|programmer|coder|scientist|designer|manager|lead|maintainer|author|owner|` +
	`student|researcher|architect|admin|administrator|consultant|founder|cto|ceo|sre|devops|analyst|intern|contractor|` +
	`freelancer|beginner|expert|specialist|tester|qa|member|reviewer|professor|teacher|writer|editor|head|director|` +
	`new\s+to|familiar\s+with|experienced|comfortable\s+with|fluent|proficient|senior|junior|novice|based\s+in|` +
	`located\s+in|responsible\s+for|in\s+charge\s+of|on\s+the\s+\w+\s+team|colorblind|blind|dyslexic)\b`)

// notAboutTheTask keeps flagged statements that are about the moment or aimed at the model out
// of the fallback: "FYI I'll be out tomorrow", "remember that you are an expert".
var notAboutTheTask = re(`^(?:i\b|i'|you\s+are|you're|your\s+(?:role|job|name|persona)\b)`)

// movesSomewhere keeps "we switched branches" out: a migration names where it went or came from.
var movesSomewhere = re(`\b(?:to|from|off|onto|into)\b`)

var locationForm = re(`^(?:our\s+|the\s+|all\s+)?(\S.{0,60}?)\s+(lives?|sits?|(?:is|are)(?:\s+(?:now\s+)?(?:kept|stored|located|defined|configured|generated|declared|vendored|hosted))?)\s+(?:in|under|inside|at)\s+(\S.*)$`)

// isLocation accepts "X lives in Y" when X is a thing of the codebase and Y a place: "the bug is in
// the parser" is a finding of the session, "migrations are in db/migrations" a lesson.
func isLocation(_ string, m []string) bool {
	subject, verb, place := m[1], strings.ToLower(m[2]), m[3]
	if pronoun.MatchString(subject) || ephemeralSubject.MatchString(subject) {
		return false
	}
	plain := verb == "is" || verb == "are"
	return !plain || locationWord.MatchString(place)
}

// imperative verbs open a rule in a statement with no other form ("from now on, run …").
var imperative = re(`^(?:don't|do\s+not|make\s+sure|be\s+sure|add|ask|avoid|build|bump|call|check|commit|create|default|deploy|document|explain|follow|format|give|handle|include|keep|label|leave|let|lint|log|mark|mention|merge|name|open|pin|prefer|prefix|print|push|put|rebase|reply|respond|return|review|run|set|show|skip|sort|split|squash|start|stop|tag|target|test|treat|update|use|verify|wait|wrap|write|assume|answer|cite|limit|never|always)\b`)

// ruleSignal is what turns a correction ("no, …") into a rule rather than a one-off request.
var ruleSignal = re(`\b(?:instead|rather\s+than|not|always|never|by\s+default|every\s+time|whenever|only|all)\b|n't\b|^(?:use|prefer)\b`)

// formMatch is a classified core: its form and the label the reason quotes.
type formMatch struct {
	form  form
	label string
}

// classify finds the form of a statement's core, given what led into it.
func classify(core string, l lead) (formMatch, bool) {
	for _, f := range forms {
		m := f.re.FindStringSubmatch(core)
		if m == nil || f.not != nil && f.not.MatchString(core) || f.check != nil && !f.check(core, m) {
			continue
		}
		if f.gate == marked && !l.marked() && !l.correction {
			continue
		}
		label := f.label
		if label == "" {
			label = strings.ToLower(strings.Join(strings.Fields(m[1]), " ")) + " …"
		}
		return formMatch{form: f, label: label}, true
	}
	return fallback(core, l)
}

// fallback accepts any other statement the person flagged as a lesson: a rule when it is
// phrased as an instruction, a project fact otherwise. A bare correction needs a rule signal, so
// that "no, print the first line" stays a one-off request.
func fallback(core string, l lead) (formMatch, bool) {
	if notAboutTheTask.MatchString(core) ||
		len(strings.Fields(core)) < 3 && !((l.marked() || l.correction) && imperative.MatchString(core)) {
		return formMatch{}, false
	}
	switch {
	case l.marked():
	case l.correction && ruleSignal.MatchString(core):
	default:
		return formMatch{}, false
	}
	typ := "project"
	if imperative.MatchString(core) || l.future {
		typ = "feedback"
	}
	return formMatch{form: form{typ: typ}, label: firstMarker(l.marker, l.corrector) + " …"}, true
}
